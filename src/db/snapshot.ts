import { Database } from 'bun:sqlite'
import { closeSync, fsyncSync, openSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { migrations } from '../../migrations/index.ts'
import { snapshotWorkerUrl } from '../worker-urls.ts'

/**
 * A copy of the live database and the checks a copy must pass, for backups (core/backup/).
 *
 * bun:sqlite has no online backup API; `VACUUM INTO` is SQLite's own way to copy a database that
 * others keep writing: it reads the whole file inside one read transaction, so the copy is the
 * database exactly as it was when that transaction began, every transaction in it whole, while the
 * writer goes on in WAL mode (it is never blocked, and the copy never sees its later commits). It
 * runs on a thread of its own (snapshot-worker.ts); this thread only watches the copy grow.
 */

/** Main thread -> worker: copy the database at `path` into the new file `target`. */
export type SnapshotRequest = { path: string; target: string }

/** Worker -> main thread. */
export type SnapshotReply = { type: 'copied' } | { type: 'failed'; message: string; code?: string }

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
 * Copies the database at `path` into `target`, which must not exist yet. `onProgress` hears the
 * copy's size as it grows; the first time it is above zero, the copy's read transaction has begun
 * (SQLite writes the copy only inside it), so nothing committed after that is in the copy.
 */
export async function copyDatabase(
  path: string,
  target: string,
  onProgress?: (progress: CopyProgress) => void,
): Promise<void> {
  const worker = new Worker(snapshotWorkerUrl)
  const databaseBytes = sizeOf(path)
  const report = () => onProgress?.({ copiedBytes: sizeOf(target), databaseBytes })
  const timer = setInterval(report, PROGRESS_MS)
  try {
    await new Promise<void>((done, fail) => {
      worker.addEventListener('message', ({ data }: MessageEvent<SnapshotReply>) => {
        if (data.type === 'copied') return done()
        fail(Object.assign(new Error(data.message), { code: data.code }))
      })
      worker.addEventListener('error', (event) => fail(new Error(`snapshot worker: ${event.message}`)))
      worker.postMessage({ path: resolve(path), target: resolve(target) } satisfies SnapshotRequest)
    })
  } finally {
    clearInterval(timer)
    worker.terminate()
  }
  report()
}

/** Makes a file's bytes, or a folder's list of names, durable: a copy survives a power cut. */
export function syncPath(path: string): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

export interface CopyCheck {
  /** What `PRAGMA integrity_check` found wrong; empty when it says ok. */
  damage: string[]
  /** Applied in the copy, unknown to this executable: a newer belay wrote it. */
  unknownMigrations: string[]
  /** Known to this executable, not applied in the copy: an older belay wrote it. */
  pendingMigrations: string[]
}

/**
 * Opens a copy read-only and checks it: SQLite's integrity check, and its migration level against
 * the migrations this executable carries. A file that is not a SQLite database throws
 * (SQLITE_NOTADB), as opening it anywhere else would.
 */
export function checkCopy(path: string): CopyCheck {
  const copy = new Database(path, { readonly: true, strict: true })
  try {
    const damage = (copy.query('PRAGMA integrity_check').all() as { integrity_check: string }[])
      .map((row) => row.integrity_check)
      .filter((line) => line !== 'ok')
    const hasLedger = copy
      .query("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'")
      .get()
    const applied = new Set(
      hasLedger
        ? (copy.query('SELECT name FROM schema_migrations').all() as { name: string }[]).map((r) => r.name)
        : [],
    )
    return {
      damage,
      unknownMigrations: [...applied].filter((name) => !(name in migrations)).sort(),
      pendingMigrations: Object.keys(migrations).filter((name) => !applied.has(name)),
    }
  } finally {
    copy.close()
  }
}

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
