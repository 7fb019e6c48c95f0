import type { Database as BunDatabase } from 'bun:sqlite'
import type { Kysely } from 'kysely'
import type { Database } from './schema.ts'
import { prepared } from './statements.ts'
import { writeTransactionHookOf } from './write-hooks.ts'
import { durableWalOf, type DurableWal, WalSync } from './wal-sync.ts'

/**
 * Group commit for the short synchronous write transactions of the door (check-ins) and the desk.
 *
 * With `synchronous=FULL` every COMMIT waits for an fsync, and the door's rush is many small
 * transactions at once: one fsync each was the largest part of a check-in's cost. So the
 * transactions that arrive in one turn of the event loop share one: `run(work)` queues `work`; on
 * the next turn the queue runs inside one BEGIN IMMEDIATE, each `work` in its own SAVEPOINT, then
 * one COMMIT, and only then does each caller's promise resolve. An answer still means "on disk"
 * (nothing is acknowledged before the COMMIT that holds it), and the works run one after another in
 * arrival order, each seeing the writes of those before it, so the door's read-decide-write (two
 * scans of one barcode give one check-in) is exactly as with a transaction each.
 *
 * A `work` that throws has its savepoint rolled back and its promise rejected with that error; the
 * others commit. If COMMIT itself fails, everything is rolled back and every promise rejects: no
 * caller was told anything succeeded. At idle a batch is one scan's transaction; under load the
 * batch grows with the queue, up to MAX_BATCH (a longer batch would hold the thread too long), and
 * during a rush a batch waits GATHER_MS for the scans right behind it.
 *
 * On a database file with `synchronous=FULL` (the product's), the batch's own COMMIT does not wait
 * for the fsync: it commits under `synchronous=NORMAL` and its callers are answered once a WalSync
 * (wal-sync.ts) has made the WAL durable on another thread, while this thread reads and decides the
 * next batch. Later batches see the earlier ones' writes before those are on disk, but are answered
 * after them (the syncs run in order and each covers the whole WAL), so no answer ever rests on
 * something that could still be lost.
 *
 * A background work (a slice of the hub's backlog being applied, sites/applying.ts) gives way: it
 * never shares a batch with the door's and the desk's works, and its batch comes only when none of
 * theirs is waiting, or once it has waited BACKGROUND_WAIT_MS, so that a steady rush cannot stop it.
 * Queued first, it would otherwise run first in their batch, and a scan's answer would wait for it
 * and for the sync of everything it wrote.
 *
 * The batch holds the connection's lock (the Kysely driver's, bun-sqlite-dialect.ts) while it runs,
 * so it never interleaves with a Kysely transaction on the same connection (those commit the same
 * way, one at a time, through the same WalSync). `work` must be synchronous: nothing may await
 * inside the open transaction.
 */
export const MAX_BATCH = 64
/** A batch of several works committed less than this long ago means a rush (see `run`). */
export const BUSY_WINDOW_MS = 5
/** How long the first work queued during a rush waits for others before its batch starts. */
export const GATHER_MS = 1
/** How long a background work waits at most behind the door's and the desk's before its batch. */
export const BACKGROUND_WAIT_MS = 20

/** Whose work it is: the door's and the desk's (`foreground`), or one that gives way to them. */
export type Lane = 'foreground' | 'background'

interface Queued {
  work: () => unknown
  /** When it was queued (`now()`). */
  queuedAt: number
  resolve: (value: any) => void
  reject: (error: unknown) => void
}

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown }

export class GroupCommit {
  private queue: Queued[] = []
  /** Background works, in the order they came. */
  private background: Queued[] = []
  private flushing = false
  /** When the last batch of more than one work committed (`now()`); -Infinity: never. */
  private lastSharedCommitAt = -Infinity

  /** The connection's own `synchronous` level, restored after each batch, when WAL syncs are ours. */
  private readonly durable: (DurableWal & { ownSync: boolean }) | undefined

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sqlite: BunDatabase,
    /** How the WAL is synced; tests pass one whose fdatasync they finish by hand. */
    walSyncFor?: (walPath: string) => WalSync,
    /** The monotonic clock a rush is told by; tests pass one that stands still. */
    private readonly now: () => number = () => performance.now(),
  ) {
    const durable = durableWalOf(sqlite)
    if (durable === undefined) return
    // The connection's shared WalSync (the Kysely driver's commits use it too), or a test's own.
    this.durable =
      walSyncFor === undefined
        ? { ...durable, ownSync: false }
        : { walSync: walSyncFor(`${sqlite.filename}-wal`), synchronous: durable.synchronous, ownSync: true }
  }

  run<T>(work: () => T, lane: Lane = 'foreground'): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const queuedAt = this.now()
      ;(lane === 'foreground' ? this.queue : this.background).push({ work, queuedAt, resolve, reject })
      if (!this.flushing) {
        this.flushing = true
        if (lane === 'foreground' && queuedAt - this.lastSharedCommitAt < BUSY_WINDOW_MS) {
          // A rush: the doors answered by the last batch are scanning again, their requests a
          // moment behind the ones already read. Waiting that moment lets both share one COMMIT
          // instead of alternating half-size batches, each paying an fsync (more scans a second, less
          // CPU a scan, in the door benchmark).
          setTimeout(() => void this.flush(), GATHER_MS)
        } else {
          // The next turn, after the requests read in this one have queued their work too.
          setImmediate(() => void this.flush())
        }
      }
    })
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0 || this.background.length > 0) {
        await this.db.connection().execute(async () => {
          // Taken once the lock is ours: what queued while waiting joins this batch.
          const batch = this.nextBatch()
          let result: Settled[] | { failed: unknown }
          try {
            result = this.commitBatch(batch)
          } catch (error) {
            // Only if `synchronous` could not be set back (the connection broke): say nothing is done.
            result = { failed: error }
          }
          this.answerWhenDurable(batch, result)
          if (batch.length > 1) this.lastSharedCommitAt = this.now()
        })
        // Let the answers go out and new requests queue before the next batch.
        if (this.queue.length > 0 || this.background.length > 0)
          await new Promise((resolve) => setImmediate(resolve))
      }
    } catch (error) {
      // The connection could not be had (closed at shutdown): nothing queued ran; say so to each.
      for (const item of [...this.queue.splice(0), ...this.background.splice(0)]) item.reject(error)
    } finally {
      this.flushing = false
    }
  }

  /**
   * The door's and the desk's works, up to MAX_BATCH; or the oldest background work alone, when
   * none of theirs waits or it has waited BACKGROUND_WAIT_MS. (Alone: each is a bounded slice of a
   * longer job, and two would hold the thread twice as long.)
   */
  private nextBatch(): Queued[] {
    const oldest = this.background[0]
    if (
      oldest !== undefined &&
      (this.queue.length === 0 || this.now() - oldest.queuedAt >= BACKGROUND_WAIT_MS)
    )
      return this.background.splice(0, 1)
    return this.queue.splice(0, MAX_BATCH)
  }

  /**
   * Resolves once everything committed on this connection so far is on disk: for code that acts
   * outside the database on what it read (the webhook dispatcher must not send an event whose
   * check-in a power cut could still undo).
   */
  whenCommittedIsDurable(): Promise<void> {
    return this.durable === undefined ? Promise.resolve() : this.durable.walSync.sync()
  }

  async close(): Promise<void> {
    if (this.durable?.ownSync) await this.durable.walSync.close()
  }

  /** Answers the batch's callers now, or (see the class comment) once its COMMIT is on disk. */
  private answerWhenDurable(batch: readonly Queued[], result: Settled[] | { failed: unknown }): void {
    if (this.durable === undefined || 'failed' in result) return this.settle(batch, result)
    this.durable.walSync.sync().then(
      () => this.settle(batch, result),
      // The batch is committed but could not be made durable: nobody is told it succeeded.
      (error) => this.settle(batch, { failed: error }),
    )
  }

  /** Runs the batch in one transaction; the outcome of each work, or the error that undid them all. */
  private commitBatch(batch: readonly Queued[]): Settled[] | { failed: unknown } {
    if (this.durable === undefined) return this.transact(batch)
    const sqlite = this.sqlite
    // The level can only change outside a transaction; FULL is back before anything else runs.
    // (Not a cached statement: SQLite applies this pragma when it is compiled, not when it runs.)
    try {
      sqlite.run('PRAGMA synchronous = NORMAL')
    } catch (error) {
      return { failed: error }
    }
    try {
      return this.transact(batch)
    } finally {
      sqlite.run(`PRAGMA synchronous = ${this.durable.synchronous}`)
    }
  }

  private transact(batch: readonly Queued[]): Settled[] | { failed: unknown } {
    const sqlite = this.sqlite
    try {
      prepared(sqlite, 'BEGIN IMMEDIATE').run()
    } catch (error) {
      return { failed: error }
    }
    try {
      writeTransactionHookOf(sqlite)?.()
    } catch (error) {
      sqlite.run('ROLLBACK')
      return { failed: error }
    }
    const outcomes: Settled[] = []
    try {
      for (const item of batch) {
        prepared(sqlite, 'SAVEPOINT work').run()
        try {
          outcomes.push({ ok: true, value: item.work() })
        } catch (error) {
          // Undo this work alone. (Should SQLite have ended the whole transaction itself, as it
          // does on a full disk, this throws and the batch fails below.)
          prepared(sqlite, 'ROLLBACK TO work').run()
          outcomes.push({ ok: false, error })
        }
        prepared(sqlite, 'RELEASE work').run()
      }
    } catch (error) {
      if (sqlite.inTransaction) sqlite.run('ROLLBACK')
      return { failed: error }
    }
    try {
      prepared(sqlite, 'COMMIT').run()
      return outcomes
    } catch (error) {
      if (sqlite.inTransaction) sqlite.run('ROLLBACK')
      return { failed: error }
    }
  }

  private settle(batch: readonly Queued[], result: Settled[] | { failed: unknown }): void {
    if ('failed' in result) {
      for (const item of batch) item.reject(result.failed)
      return
    }
    result.forEach((outcome, i) => {
      if (outcome.ok) batch[i]!.resolve(outcome.value)
      else batch[i]!.reject(outcome.error)
    })
  }
}

const byConnection = new WeakMap<BunDatabase, GroupCommit>()

/** The connection's one group committer (its writes share one queue, as they share one lock). */
export function groupCommitFor(db: Kysely<Database>, sqlite: BunDatabase): GroupCommit {
  let committer = byConnection.get(sqlite)
  if (committer === undefined) byConnection.set(sqlite, (committer = new GroupCommit(db, sqlite)))
  return committer
}

/** Lets go of the connection's group committer (its WAL file handle); for closing the connection. */
export async function closeGroupCommit(sqlite: BunDatabase): Promise<void> {
  const committer = byConnection.get(sqlite)
  byConnection.delete(sqlite)
  await committer?.close()
}
