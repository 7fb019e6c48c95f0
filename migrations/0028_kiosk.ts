import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// The self check-in kiosk. A customer may have a short PIN, set at the desk, to check in at the
// kiosk by telephone number and PIN when they have no card: kept as an argon2id hash in a table of
// its own (one row per customer who has one), so that no query over customers ever carries it.
// `auth_sessions.kiosk` marks a browser session turned into the kiosk's: it may call only the
// kiosk's endpoints, read its account and log out, until a staff member logs in over it.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE customer_kiosk_pins (
      customer_id INTEGER PRIMARY KEY REFERENCES customers (id),
      pin_hash TEXT NOT NULL,
      set_at TEXT NOT NULL
    )`,
    `ALTER TABLE auth_sessions ADD COLUMN kiosk INTEGER NOT NULL DEFAULT 0 CHECK (kiosk IN (0, 1))`,
  ])
}
