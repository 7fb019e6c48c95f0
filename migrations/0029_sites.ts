import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// Sites: one organization's data on several boxes, changes carried by a NATS JetStream hub. These
// tables are the box's own replication state, never replicated themselves. They stay empty on a
// box without a hub: the capture triggers that fill the outbox are made only when a box attaches.
//
// - sync_state: the one row saying which site this box is (its name, the number the hub gave it,
//   and the id this database registered it under: a name is not handed to another database), the local transaction captured rows
//   belong to (tx, and its hybrid-logical-clock timestamp), whether a remote change is being
//   applied (then nothing is captured), and how far along the stream it has applied.
// - sync_outbox: each captured row change, in commit order; `seq` never repeats (AUTOINCREMENT), as
//   a change's sequence is its identity on the hub. Deleted once the hub has acknowledged it.
// - sync_applied: per origin site, the last change applied here: applying is idempotent.
// - sync_clocks: for a column changed after its row was made (and a unique column set at insert),
//   the timestamp and site of the write that set it: the last writer wins per column.
// - sync_conflicts: a unique value two sites gave to two rows while apart, recorded by every site
//   as it applies the stream.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE sync_state (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      site TEXT NOT NULL,
      database_id TEXT NOT NULL,
      site_number INTEGER NOT NULL CHECK (site_number BETWEEN 1 AND 1023),
      hub_organization TEXT NOT NULL,
      tx INTEGER NOT NULL DEFAULT 0,
      hlc TEXT NOT NULL,
      applying INTEGER NOT NULL DEFAULT 0 CHECK (applying IN (0, 1)),
      applied_stream_sequence INTEGER NOT NULL DEFAULT 0,
      stopped_reason TEXT
    )`,
    `CREATE TABLE sync_outbox (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      tx INTEGER NOT NULL,
      hlc TEXT NOT NULL,
      table_name TEXT NOT NULL,
      op TEXT NOT NULL CHECK (op IN ('insert', 'update', 'delete')),
      row_key TEXT NOT NULL,
      old_values TEXT,
      new_values TEXT
    )`,
    `CREATE TABLE sync_applied (
      site TEXT PRIMARY KEY,
      change_seq INTEGER NOT NULL
    ) WITHOUT ROWID`,
    `CREATE TABLE sync_clocks (
      table_name TEXT NOT NULL,
      row_key TEXT NOT NULL,
      column_name TEXT NOT NULL,
      hlc TEXT NOT NULL,
      site TEXT NOT NULL,
      PRIMARY KEY (table_name, row_key, column_name)
    ) WITHOUT ROWID`,
    `CREATE TABLE sync_conflicts (
      id INTEGER PRIMARY KEY,
      detected_at TEXT NOT NULL,
      table_name TEXT NOT NULL,
      column_names TEXT NOT NULL,
      value TEXT NOT NULL,
      kept_row_key TEXT NOT NULL,
      lost_row_key TEXT NOT NULL,
      lost_site TEXT NOT NULL,
      resolution TEXT NOT NULL CHECK (resolution IN ('cleared', 'refused', 'not applied'))
    )`,
    // A customer's record shows the barcode they lost: looked up by the row that lost it.
    `CREATE INDEX sync_conflicts_lost ON sync_conflicts (table_name, lost_row_key)`,
  ])
}
