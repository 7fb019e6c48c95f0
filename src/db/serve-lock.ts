import { Database as BunDatabase } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { folderError, StartupError } from '../lib/startup-errors.ts'

export interface ServeLock {
  release(): void
}

/**
 * One `belay serve` per database: each server keeps its own token cache, login throttle and
 * webhook dispatcher, so a second one on the same file would hand out stale tokens, halve the
 * throttle and send webhooks twice.
 *
 * The lock is SQLite's own exclusive lock on a small companion file `<db>.lock`, held by an open
 * transaction for as long as the server runs. SQLite takes it with fcntl, which the kernel drops
 * when the process ends however it ends, so a server that was SIGKILLed or lost power can be started
 * again at once; the file left behind means nothing by itself. The gym's database is not locked
 * this way: create-admin and the backup tool still share it through SQLite's ordinary locking.
 */
export function lockForServing(dbPath: string): ServeLock {
  if (dbPath === ':memory:') return { release() {} }
  const lockPath = `${dbPath}.lock`
  try {
    mkdirSync(dirname(dbPath), { recursive: true })
  } catch (error) {
    throw folderError(dbPath, error)
  }
  let lock: BunDatabase
  try {
    lock = new BunDatabase(lockPath, { create: true })
    // Fail at once rather than wait: a lock held now is held by a server that runs on.
    lock.run('PRAGMA busy_timeout = 0')
    lock.run('PRAGMA locking_mode = EXCLUSIVE')
  } catch (error) {
    throw new StartupError(
      `cannot open the lock file ${resolve(lockPath)} (${errorCode(error)}): let the user running belay create and write files in ${dirname(resolve(lockPath))}`,
    )
  }
  try {
    lock.run('BEGIN EXCLUSIVE')
  } catch (error) {
    lock.close()
    if (errorCode(error) === 'SQLITE_BUSY')
      throw new StartupError(
        `the database ${resolve(dbPath)} is already being served by another belay serve: stop that one first (or choose another --db)`,
      )
    throw new StartupError(
      `cannot lock ${resolve(lockPath)} (${errorCode(error)}): remove that file and start again`,
    )
  }
  return {
    release() {
      lock.close()
    },
  }
}

const errorCode = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : String(error)
