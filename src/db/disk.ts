import { statfsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

/** An in-memory database (the tests') has no file, so nothing on disk to measure. */
const isInMemory = (dbPath: string) => dbPath === ':memory:' || dbPath === ''

/** Free bytes for an unprivileged writer in the database's folder; null for ':memory:'. */
export function freeBytesBeside(dbPath: string): number | null {
  if (isInMemory(dbPath)) return null
  const stats = statfsSync(dirname(resolve(dbPath)))
  return Number(stats.bavail) * Number(stats.bsize)
}
