import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// What the metrics' product attribute filters read of an event type: how it is scheduled (weekly
// classes, a course of several sessions, or a session one joins any time) and the categories it is
// filed under. Existing event types are weekly classes with no category.
//
// A category is removed softly (is_removed): the event types filed under it keep the link, so a
// metric filtered by a removed category still counts what was sold while it was in use.
// event_type_categories_category finds the event types of a category; the primary key finds the
// categories of an event type.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE event_types ADD COLUMN schedule_type TEXT NOT NULL DEFAULT 'recurring'
      CHECK (schedule_type IN ('recurring', 'multi_part', 'rolling'))`,
    `CREATE TABLE event_categories (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      is_removed INTEGER NOT NULL DEFAULT 0 CHECK (is_removed IN (0, 1)),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE TABLE event_type_categories (
      event_type_id INTEGER NOT NULL REFERENCES event_types (id),
      event_category_id INTEGER NOT NULL REFERENCES event_categories (id),
      PRIMARY KEY (event_type_id, event_category_id)
    )`,
    `CREATE INDEX event_type_categories_category ON event_type_categories (event_category_id)`,
  ])
}
