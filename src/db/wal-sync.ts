import type { Database as BunDatabase } from 'bun:sqlite'
import { closeSync, fdatasync, openSync } from 'node:fs'

/**
 * Makes the WAL durable off the JavaScript thread, for group commit (group-commit.ts).
 *
 * A COMMIT under `synchronous=FULL` writes the transaction's frames to the WAL and then fsyncs it,
 * holding the server's one JavaScript thread for the fsync (as long as the disk takes, and far
 * longer when it stalls) while no request is read and no scan decided. Group commit instead commits its batch
 * under `synchronous=NORMAL`, where SQLite writes the same frames but leaves them in the page cache,
 * and then asks for `sync()`: an fdatasync of the WAL file on Node's thread pool. The batch's callers
 * are answered only when that fdatasync has returned, so an answer still means "on disk", while the
 * thread goes on with the next batch. (SQLite's recovery replays the WAL's frames up to its last
 * valid commit, so frames made durable by our own fdatasync are exactly as durable as its own.
 * Checkpoints still sync the WAL and the database file themselves.)
 *
 * `sync()` resolves once an fdatasync that began after the call has finished: a call that comes
 * while one runs waits for the next, which serves every call that came meanwhile (a group commit of
 * the fsyncs themselves). If an fdatasync fails, every call it serves rejects with its error, and so
 * does every later call, without another fdatasync: after a failed writeback Linux may drop the WAL
 * pages it could not write and report the next fdatasync clean, so a later commit's frames could
 * reach the disk behind a hole, where SQLite's recovery stops, and be lost though acknowledged.
 * Writes are refused until a restart reads the WAL back from what the disk really holds.
 */
export class WalSync {
  private fd: number | undefined
  /** The fdatasync running now, if any. */
  private running: Promise<void> | undefined
  /** The one after it, shared by the calls that came while `running` ran. */
  private next: Promise<void> | undefined
  /** Set by the first failed fdatasync: what every later call rejects with. */
  private broken: Error | undefined

  /**
   * `walPath` is the database file's name plus `-wal` (SQLite creates it with the first write and
   * keeps it while the database is open). `fsync` is node:fs's fdatasync; tests pass their own.
   */
  constructor(
    private readonly walPath: string,
    private readonly fsync: (fd: number, done: (error: Error | null) => void) => void = fdatasync,
  ) {}

  /** Why writes are refused until a restart, once an fdatasync has failed; undefined until then. */
  get failure(): Error | undefined {
    return this.broken
  }

  sync(): Promise<void> {
    if (this.running === undefined) return (this.running = this.start())
    return (this.next ??= this.running.then(
      () => this.promote(),
      () => this.promote(),
    ))
  }

  /** Closes the file; a sync already asked for still completes first. */
  async close(): Promise<void> {
    await this.next?.catch(() => {})
    await this.running?.catch(() => {})
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
  }

  private promote(): Promise<void> {
    this.next = undefined
    return (this.running = this.start())
  }

  private start(): Promise<void> {
    const run = new Promise<void>((resolve, reject) => {
      if (this.broken !== undefined) return reject(this.broken)
      try {
        // Opened on first use, after a commit has written to it (fsync needs no write access).
        this.fd ??= openSync(this.walPath, 'r')
      } catch (error) {
        return reject(error)
      }
      this.fsync(this.fd, (error) => {
        if (error === null) return resolve()
        this.broken ??= brokenWal(this.walPath, error)
        reject(error)
      })
    })
    const settled = () => {
      // With a next one waiting, promote() takes over `running` (calls meanwhile join `next`).
      if (this.running === run && this.next === undefined) this.running = undefined
    }
    run.then(settled, settled)
    return run
  }
}

/** The error a WalSync answers with after a failed fdatasync; its code (EIO, ENOSPC) is the failure's. */
function brokenWal(walPath: string, cause: Error): Error {
  const code = (cause as { code?: unknown }).code
  return Object.assign(
    new Error(
      `${walPath} could not be made durable (${cause.message}); restart to go on from what is on disk`,
    ),
    { code: typeof code === 'string' ? code : 'EIO', cause },
  )
}

/** A connection whose commits are meant to be durable, and the one WalSync that makes them so. */
export interface DurableWal {
  walSync: WalSync
  /** The connection's own `synchronous` level (FULL = 2 or EXTRA = 3), to go back to after a commit. */
  synchronous: number
}

const byConnection = new WeakMap<BunDatabase, DurableWal | null>()

/**
 * The connection's DurableWal: only where every commit is meant to reach the disk (synchronous FULL
 * or EXTRA) and a WAL file exists; undefined elsewhere (':memory:', synchronous NORMAL or OFF).
 *
 * Read once, at the first call, and kept: the writers that commit under NORMAL and sync themselves
 * (group-commit.ts, the Kysely driver in bun-sqlite-dialect.ts) ask here before they first lower the
 * level, so the level read is always the connection's own, never one lowered for a commit.
 */
export function durableWalOf(sqlite: BunDatabase): DurableWal | undefined {
  let durable = byConnection.get(sqlite)
  if (durable === undefined) {
    const { synchronous } = sqlite.query('PRAGMA synchronous').get() as { synchronous: number }
    const { journal_mode } = sqlite.query('PRAGMA journal_mode').get() as { journal_mode: string }
    const onFile = sqlite.filename !== ':memory:' && sqlite.filename !== ''
    durable =
      synchronous >= 2 && journal_mode === 'wal' && onFile
        ? { walSync: new WalSync(`${sqlite.filename}-wal`), synchronous }
        : null
    byConnection.set(sqlite, durable)
  }
  return durable ?? undefined
}

/** Lets go of the connection's WalSync (its file handle), once a sync already asked for is done. */
export async function closeDurableWal(sqlite: BunDatabase): Promise<void> {
  const durable = byConnection.get(sqlite)
  byConnection.delete(sqlite)
  await durable?.walSync.close()
}
