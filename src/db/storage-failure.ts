/**
 * How a write the disk would not take shows up, wherever it was made: SQLite's own result codes
 * (bun:sqlite's SQLiteError carries them as `code`), and the operating system's from the WAL's
 * fdatasync (wal-sync.ts).
 *
 * - `full`: SQLite could not write a page (SQLITE_FULL: the disk, or the user's quota, is full).
 *   SQLite rolls back the statement, or the whole transaction, so nothing of it was saved; the same
 *   connection writes again once space is freed.
 * - `io`: a read or write of the file failed (SQLITE_IOERR and its extended codes), or the WAL could
 *   not be made durable after a commit (EIO, ENOSPC, EDQUOT from fdatasync). After a failed sync the
 *   commit may be in the file without being on disk, so it may or may not be there later.
 */
export type StorageFailure = 'full' | 'io'

const FROM_SYNC = new Set(['EIO', 'ENOSPC', 'EDQUOT'])

export function storageFailureOf(error: unknown): StorageFailure | undefined {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return undefined
  if (code === 'SQLITE_FULL') return 'full'
  if (code === 'SQLITE_IOERR' || code.startsWith('SQLITE_IOERR_') || FROM_SYNC.has(code)) return 'io'
  return undefined
}
