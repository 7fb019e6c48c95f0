import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// The organization's waiver text, one row per version: a change adds a row and never edits one, so
// a signed waiver keeps naming the words it was signed on. The newest row is the current text.
// `valid_for_days` is how long a waiver signed on that version lasts (NULL: it never expires).
//
// A waiver signed on the desk's tablet is a customer document of kind 'waiver' with its PDF; its
// signing is recorded beside it: the version, the answers as given and the guardian who signed for a
// minor, the staff user whose session the tablet was in, and the instant.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE waiver_texts (
      id INTEGER PRIMARY KEY,
      text TEXT NOT NULL,
      valid_for_days INTEGER CHECK (valid_for_days IS NULL OR valid_for_days > 0),
      created_at TEXT NOT NULL,
      created_by_user_id INTEGER REFERENCES staff_users (id)
    )`,
    `CREATE TABLE waiver_signatures (
      document_id INTEGER PRIMARY KEY REFERENCES customer_documents (id),
      waiver_text_id INTEGER NOT NULL REFERENCES waiver_texts (id),
      first_name TEXT NOT NULL,
      last_name TEXT NOT NULL,
      birthday TEXT NOT NULL,
      email TEXT NOT NULL,
      telephone TEXT NOT NULL,
      guardian_name TEXT NOT NULL,
      signed_at TEXT NOT NULL,
      staff_user_id INTEGER REFERENCES staff_users (id)
    )`,
  ])
}
