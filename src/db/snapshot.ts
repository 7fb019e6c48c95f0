import { Database } from 'bun:sqlite'
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { migrations } from '../../migrations/index.ts'
import { snapshotWorkerUrl } from '../worker-urls.ts'
import { checkCopyFile, type CopyCheck } from './snapshot-check.ts'

export { syncPath, type CopyCheck } from './snapshot-check.ts'

/**
 * A copy of the live database and the checks a copy must pass, for backups (core/backup/).
 *
 * bun:sqlite has no online backup API; `VACUUM INTO` is SQLite's own way to copy a database that
 * others keep writing: it reads the whole file inside one read transaction, so the copy is the
 * database exactly as it was when that transaction began, every transaction in it whole, while the
 * writer goes on in WAL mode (it is never blocked, and the copy never sees its later commits). It
 * runs on a thread of its own (snapshot-worker.ts), and so do the copy's fsync and its checks (an
 * integrity check reads every page): this thread only watches the copy grow.
 */

/**
 * Main thread -> worker: copy the database at `path` into the new file `target`, sync it and check
 * it against `knownMigrations`.
 */
export type SnapshotRequest = { path: string; target: string; knownMigrations: string[] }

/** Worker -> main thread. */
export type SnapshotReply =
  { type: 'copied'; check: CopyCheck } | { type: 'failed'; message: string; code?: string }

/** How often the copy's size is read while it is written. */
const PROGRESS_MS = 200

const sizeOf = (path: string): number => {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

export interface CopyProgress {
  /** The copy's bytes so far, and the database's own (its file without the WAL). */
  copiedBytes: number
  databaseBytes: number
}

/**
 * Copies the database at `path` into `target`, which must not exist yet, syncs the copy to disk
 * and checks it. `onProgress` hears the copy's size as it grows; the first time it is above zero,
 * the copy's read transaction has begun (SQLite writes the copy only inside it), so nothing
 * committed after that is in the copy.
 */
export async function copyDatabase(
  path: string,
  target: string,
  onProgress?: (progress: CopyProgress) => void,
): Promise<CopyCheck> {
  const worker = new Worker(snapshotWorkerUrl)
  const databaseBytes = sizeOf(path)
  const report = () => onProgress?.({ copiedBytes: sizeOf(target), databaseBytes })
  const timer = setInterval(report, PROGRESS_MS)
  let check: CopyCheck
  try {
    check = await new Promise<CopyCheck>((done, fail) => {
      worker.addEventListener('message', ({ data }: MessageEvent<SnapshotReply>) => {
        if (data.type === 'copied') return done(data.check)
        fail(Object.assign(new Error(data.message), { code: data.code }))
      })
      worker.addEventListener('error', (event) => fail(new Error(`snapshot worker: ${event.message}`)))
      worker.postMessage({
        path: resolve(path),
        target: resolve(target),
        knownMigrations: Object.keys(migrations),
      } satisfies SnapshotRequest)
    })
  } finally {
    clearInterval(timer)
    worker.terminate()
  }
  report()
  return check
}

/** The checks `copyDatabase` runs on its copy, for a copy from elsewhere (one being restored). */
export const checkCopy = (path: string): CopyCheck => checkCopyFile(path, Object.keys(migrations))

/**
 * Copies the WAL of the database at `path` into the file and empties it, so that the file alone is
 * the whole database; SQLite removes the WAL when this, the last connection, closes.
 */
export function checkpointFile(path: string): void {
  const db = new Database(path, { strict: true })
  try {
    db.run('PRAGMA busy_timeout = 5000')
    db.run('PRAGMA wal_checkpoint(TRUNCATE)')
  } finally {
    db.close()
  }
}
