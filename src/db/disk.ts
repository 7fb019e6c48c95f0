import { statfsSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

/** Below this much free space in the database's folder a commit may soon fail (/healthz): 100 MiB. */
export const MIN_FREE_BYTES = 100 * 1024 * 1024

/** An in-memory database (the tests') has no file, so nothing on disk to measure. */
const isInMemory = (dbPath: string) => dbPath === ':memory:' || dbPath === ''

/** Free bytes for an unprivileged writer in the database's folder; null for ':memory:'. */
export function freeBytesBeside(dbPath: string): number | null {
  if (isInMemory(dbPath)) return null
  const stats = statfsSync(dirname(resolve(dbPath)))
  return Number(stats.bavail) * Number(stats.bsize)
}

/**
 * The size of the database's write-ahead log (its name plus `-wal`): what commits have added since
 * the last checkpoint moved them into the database file. 0 when there is none (no write since the
 * last close, or ':memory:').
 */
export function walSizeBytes(dbPath: string): number {
  if (isInMemory(dbPath)) return 0
  return statSync(`${dbPath}-wal`, { throwIfNoEntry: false })?.size ?? 0
}
