import { Database as BunDatabase } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { Kysely } from 'kysely'
import { bunSqliteDialect } from './bun-sqlite-dialect.ts'
import { siteIdsPlugin } from './site-ids.ts'
import type { Database } from './schema.ts'
import { closeGroupCommit } from './group-commit.ts'
import { forgetStatements } from './statements.ts'
import { closeDurableWal } from './wal-sync.ts'
import { databaseError, folderError } from '../lib/startup-errors.ts'

export type Db = Kysely<Database>

export interface Connection {
  db: Db
  /**
   * The raw handle under `db`, for work that must run synchronously inside one transaction: the
   * door's check-ins and the webhook outbox through group commit (group-commit.ts).
   */
  sqlite: BunDatabase
  close(): Promise<void>
}

/**
 * Opens the gym's database. `synchronous=FULL` means every commit is on disk before anything is
 * acknowledged, so it survives a power cut (Kysely's writes and group commit get there with an
 * fdatasync off the server's thread: wal-sync.ts); WAL lets readers proceed while the one writer
 * commits.
 */
export function openDatabase(path: string): Connection {
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  } catch (error) {
    throw folderError(path, error)
  }
  let sqlite: BunDatabase
  try {
    sqlite = new BunDatabase(path, { create: true, strict: true })
    // The first statements are where a file that is not a database, or cannot be written, shows.
    sqlite.run('PRAGMA journal_mode = WAL')
    sqlite.run('PRAGMA synchronous = FULL')
    sqlite.run('PRAGMA foreign_keys = ON')
    sqlite.run('PRAGMA busy_timeout = 5000')
  } catch (error) {
    throw databaseError(path, error)
  }
  return connectionOver(sqlite)
}

/** The Kysely handle and the closing steps around an open handle with its pragmas already set. */
export function connectionOver(sqlite: BunDatabase): Connection {
  const db = new Kysely<Database>({ dialect: bunSqliteDialect(sqlite), plugins: [siteIdsPlugin(sqlite)] })
  return {
    db,
    sqlite,
    close: async () => {
      // Closes the handle; SQLite lets the file go once the cached statements are finalized below.
      await db.destroy()
      await closeGroupCommit(sqlite)
      await closeDurableWal(sqlite)
      forgetStatements(sqlite)
      sqlite.close()
    },
  }
}
