import type { Kysely } from 'kysely'
import { migrations } from '../../migrations/index.ts'

/*
 * Migrations applied one by one without the ledger, for tests that open a database at an older
 * schema, write to it, and then apply the migration they are about (and perhaps the rest).
 */

const NAMES = Object.keys(migrations)

/** Applies every migration before `name`, which stays to be applied. */
export async function migrateBefore(db: Kysely<any>, name: string): Promise<void> {
  for (const earlier of NAMES.slice(0, NAMES.indexOf(name))) await migrations[earlier]!.up(db)
}

/** Applies every migration after `name` (the last one applied): an older schema goes on to the latest. */
export async function migrateAfter(db: Kysely<any>, name: string): Promise<void> {
  for (const later of NAMES.slice(NAMES.indexOf(name) + 1)) await migrations[later]!.up(db)
}
