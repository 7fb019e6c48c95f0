import { closeSync, fdatasync, openSync } from 'node:fs'

/**
 * Makes the WAL durable off the JavaScript thread, for group commit (group-commit.ts).
 *
 * A COMMIT under `synchronous=FULL` writes the transaction's frames to the WAL and then fsyncs it,
 * holding the server's one JavaScript thread for the fsync (0.1-0.5 ms here, tens of ms when the
 * disk stalls) while no request is read and no scan decided. Group commit instead commits its batch
 * under `synchronous=NORMAL`, where SQLite writes the same frames but leaves them in the page cache,
 * and then asks for `sync()`: an fdatasync of the WAL file on Node's thread pool. The batch's callers
 * are answered only when that fdatasync has returned, so an answer still means "on disk", while the
 * thread goes on with the next batch. (SQLite's recovery replays the WAL's frames up to its last
 * valid commit, so frames made durable by our own fdatasync are exactly as durable as its own.
 * Checkpoints still sync the WAL and the database file themselves.)
 *
 * `sync()` resolves once an fdatasync that began after the call has finished: a call that comes
 * while one runs waits for the next, which serves every call that came meanwhile (a group commit of
 * the fsyncs themselves). If an fdatasync fails, every call it serves rejects with its error.
 */
export class WalSync {
  private fd: number | undefined
  /** The fdatasync running now, if any. */
  private running: Promise<void> | undefined
  /** The one after it, shared by the calls that came while `running` ran. */
  private next: Promise<void> | undefined

  /**
   * `walPath` is the database file's name plus `-wal` (SQLite creates it with the first write and
   * keeps it while the database is open). `fsync` is node:fs's fdatasync; tests pass their own.
   */
  constructor(
    private readonly walPath: string,
    private readonly fsync: (fd: number, done: (error: Error | null) => void) => void = fdatasync,
  ) {}

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
      try {
        // Opened on first use, after a commit has written to it (fsync needs no write access).
        this.fd ??= openSync(this.walPath, 'r')
      } catch (error) {
        return reject(error)
      }
      this.fsync(this.fd, (error) => (error ? reject(error) : resolve()))
    })
    const settled = () => {
      // With a next one waiting, promote() takes over `running` (calls meanwhile join `next`).
      if (this.running === run && this.next === undefined) this.running = undefined
    }
    run.then(settled, settled)
    return run
  }
}
