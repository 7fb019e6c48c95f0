import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// Session login (the desk page): a browser holds the session's key in an HttpOnly cookie; only its
// SHA-256 is kept, as for tokens. A session ends at `expires_at` (its maximum age), after the idle
// time past `last_seen_at`, or when its row goes (logout, a new password, deactivation, an admin's
// revoke-tokens). `pin_mode` marks a session logged in by a user with `pin_mode_required`: its
// edits must each name the acting staff member by their PIN.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE auth_sessions (
      id INTEGER PRIMARY KEY,
      key_hash TEXT NOT NULL UNIQUE,
      user_id INTEGER NOT NULL REFERENCES staff_users (id),
      created_at TEXT NOT NULL,
      last_seen_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      pin_mode INTEGER NOT NULL DEFAULT 0 CHECK (pin_mode IN (0, 1))
    )`,
    `CREATE INDEX auth_sessions_user ON auth_sessions (user_id)`,
  ])
}
