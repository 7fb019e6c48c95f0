import { sql, type Kysely } from 'kysely'
import { migrations } from '../../migrations/index.ts'
import { NewerDatabaseError } from '../lib/startup-errors.ts'

export interface MigrationStatus {
  name: string
  appliedAt: string | null
  /** Applied by a newer executable: this one has no such migration. */
  unknown?: true
}

async function ensureLedger(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
    name TEXT PRIMARY KEY NOT NULL,
    applied_at TEXT NOT NULL
  )`.execute(db)
}

export async function migrationStatus(db: Kysely<any>): Promise<MigrationStatus[]> {
  await ensureLedger(db)
  const rows = await db.selectFrom('schema_migrations').select(['name', 'applied_at']).execute()
  const applied = new Map(rows.map((r) => [r.name as string, r.applied_at as string]))
  const known = Object.keys(migrations).map((name) => ({ name, appliedAt: applied.get(name) ?? null }))
  const unknown = [...applied]
    .filter(([name]) => !(name in migrations))
    .map(([name, appliedAt]) => ({ name, appliedAt, unknown: true as const }))
  return [...known, ...unknown].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/**
 * Applies pending migrations in name order. Kysely's own Migrator does not wrap SQLite migrations in
 * a transaction, so this small one does: each migration and its ledger row commit together or not
 * at all, and a power cut mid-migration leaves the database at the previous version.
 */
export async function migrateToLatest(db: Kysely<any>, now = () => new Date()): Promise<string[]> {
  const status = await migrationStatus(db)
  // A newer executable upgraded this file: leave it exactly as it is rather than guess at its tables.
  const unknown = status.filter((m) => m.unknown).map((m) => m.name)
  if (unknown.length > 0) throw new NewerDatabaseError(unknown)
  const pending = status.filter((m) => m.appliedAt === null).map((m) => m.name)
  for (const name of pending) {
    await db.transaction().execute(async (trx) => {
      await migrations[name]!.up(trx)
      await trx.insertInto('schema_migrations').values({ name, applied_at: now().toISOString() }).execute()
    })
  }
  return pending
}
