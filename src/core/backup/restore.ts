import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { checkCopy, checkpointFile, syncPath, type CopyCheck } from '../../db/snapshot.ts'
import { copyProblem, SnapshotRefused, stamp } from './snapshots.ts'

export interface Restored {
  /** Where the database that was replaced now is; null when there was none. */
  replacedPath: string | null
  check: CopyCheck
}

const companions = ['-wal', '-shm'] as const

/**
 * Puts the snapshot at `source` in place of the database at `dbPath`. The caller holds the serve
 * lock, so no server has the file open or can open it meanwhile.
 *
 * The snapshot is checked first, as a new one is, and copied beside the database under a temporary
 * name and synced; only then is the current database checkpointed (its WAL copied into the file, so
 * the file alone holds all of it) and moved aside whole, as `<db>.replaced-<time>` with any WAL that
 * remained beside it under the same name, and the copy renamed into place. Nothing is deleted.
 */
export function restoreSnapshot(source: string, dbPath: string, at: Date): Restored {
  if (!existsSync(source)) throw new SnapshotRefused(`${resolve(source)} does not exist`)
  let check: CopyCheck
  try {
    check = checkCopy(source)
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code !== 'SQLITE_NOTADB' && code !== 'SQLITE_CORRUPT') throw error
    throw new SnapshotRefused(
      `not restoring: ${resolve(source)} is not a SQLite database, or a damaged one; the database was not touched`,
    )
  }
  const problem = copyProblem(source, check)
  if (problem) throw new SnapshotRefused(`not restoring: ${problem}; the database was not touched`)

  const db = resolve(dbPath)
  if (resolve(source) === db) throw new SnapshotRefused(`${db} is the database itself: name a snapshot`)
  // The copy first: should it fail (a full disk), the database has not been touched.
  const partial = `${db}.restoring`
  let replacedPath: string | null = null
  try {
    copyFileSync(source, partial)
    syncPath(partial)
    if (existsSync(db)) {
      checkpointFile(db)
      replacedPath = `${db}.replaced-${stamp(at)}`
      if (existsSync(replacedPath)) throw new SnapshotRefused(`${replacedPath} already exists: try again`)
      renameSync(db, replacedPath)
      for (const suffix of companions)
        if (existsSync(`${db}${suffix}`)) renameSync(`${db}${suffix}`, `${replacedPath}${suffix}`)
    }
    renameSync(partial, db)
    syncPath(dirname(db))
  } finally {
    rmSync(partial, { force: true })
  }
  return { replacedPath, check }
}
