import { Database as BunDatabase } from 'bun:sqlite'
import { connectionOver, openDatabase, type Connection } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'

/**
 * The migrated empty database, made once per test process: every migration takes about 30 ms, and
 * most of the suite's thousands of tests want a fresh database of their own.
 */
let migrated: Promise<Uint8Array> | undefined

async function migrateOnce(): Promise<Uint8Array> {
  const connection = openDatabase(':memory:')
  await migrateToLatest(connection.db)
  const image = connection.sqlite.serialize()
  await connection.close()
  return image
}

/**
 * A fresh in-memory database at the latest migration, as `openDatabase(':memory:')` followed by
 * `migrateToLatest` would give it, copied from the image made once (well under a millisecond);
 * or a copy of `image`, another database's `serialize()`.
 */
export async function openMigratedMemory(image?: Uint8Array): Promise<Connection> {
  migrated ??= migrateOnce()
  const sqlite = BunDatabase.deserialize(image ?? (await migrated), { strict: true })
  sqlite.run('PRAGMA foreign_keys = ON')
  return connectionOver(sqlite)
}
