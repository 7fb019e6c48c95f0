import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// A customer's photo, taken with the desk's camera and kept by the box: staff see who is at the
// counter, and the file stays inside the database, so the one file is still the whole backup.
// One photo per customer: a new one replaces the last.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE customer_photos (
      customer_id INTEGER PRIMARY KEY REFERENCES customers (id),
      content_type TEXT NOT NULL,
      content BLOB NOT NULL,
      taken_at TEXT NOT NULL
    )`,
  ])
}
