import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// `belay import` (issue 29, design data.md): how far the copy of an organization from another
// server has come, one row per collection, written in the same transaction as each page's rows so
// that a second run carries on where the first stopped and writes nothing twice.
//
// - source: the server copied from (its base URL), the same in every row; a run from another
//   source is refused.
// - state: 'pending' (not begun), 'running' (next_url or parent_id says where), 'done', or
//   'missing' (the source answered 404: it does not offer the collection).
// - parent_id: for a collection under a parent (a customer's credits, a gym's climbs), the parent
//   being copied; next_url: the page to ask for next (null: the first page of that parent).
// - records: rows copied so far; total: the source's count, as its last page said.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE import_progress (
      collection TEXT PRIMARY KEY,
      position INTEGER NOT NULL,
      source TEXT NOT NULL,
      state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'missing')),
      parent_id TEXT,
      next_url TEXT,
      records INTEGER NOT NULL DEFAULT 0,
      total INTEGER,
      updated_at TEXT NOT NULL
    )`,
  ])
}
