import type { Database as BunDatabase } from 'bun:sqlite'
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type RootOperationNode,
} from 'kysely'
import { prepared, runStatement } from './statements.ts'
import { writeTransactionHookOf } from './write-hooks.ts'
import { durableWalOf } from './wal-sync.ts'

/**
 * Kysely over bun:sqlite. bun:sqlite was chosen over better-sqlite3 because it is built into the
 * runtime: the compiled executable needs no native .node file beside it (see src/README.md,
 * "Why bun:sqlite"). Statements come from the connection's statement cache (statements.ts), so a
 * repeated query is compiled once.
 *
 * Its writes never wait for the disk on the server's thread. With `synchronous=FULL` a COMMIT holds
 * the one JavaScript thread for an fsync (as long as the disk takes, and far longer when it
 * stalls), and every door scan arriving meanwhile waits too. So, as group commit does for the door (see
 * group-commit.ts and wal-sync.ts), a write transaction, or a lone INSERT, UPDATE or DELETE, commits
 * under `synchronous=NORMAL` and the caller is answered once the connection's WalSync has made the
 * WAL durable on another thread. The connection's lock is let go before that wait, so the door's
 * next batch need not wait for this commit's sync (its own sync, which covers the whole WAL, comes
 * after it). Anything else (DDL, PRAGMAs, VACUUM outside a transaction) runs at the connection's own
 * level.
 */
export function bunSqliteDialect(sqlite: BunDatabase): SqliteDialect {
  return new BunSqliteDialect(sqlite)
}

class BunSqliteDialect extends SqliteDialect {
  constructor(private readonly sqlite: BunDatabase) {
    // Kysely's SqliteDialect wants a database; the driver below replaces the one it would build.
    super({ database: {} as never })
  }

  override createDriver(): Driver {
    return new BunSqliteDriver(this.sqlite)
  }

  override createAdapter() {
    return new OwnLockSqliteAdapter()
  }
}

/**
 * Kysely serializes a one-connection dialect with a lock it lets go only after the driver's
 * releaseConnection has returned; the driver below keeps its own lock instead, so that it can let go
 * of the connection before waiting for the commit's sync. (Kysely asks the adapter only whether to
 * add its lock; everything else is SQLite's.)
 */
class OwnLockSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true
  }
}

/** First come, first served: the one connection's lock. */
class Lock {
  private tail: Promise<void> = Promise.resolve()
  private releaseHeld: (() => void) | undefined

  async acquire(): Promise<void> {
    const previous = this.tail
    let release!: () => void
    this.tail = new Promise<void>((resolve) => (release = resolve))
    await previous
    this.releaseHeld = release
  }

  release(): void {
    const release = this.releaseHeld
    this.releaseHeld = undefined
    release?.()
  }
}

const WRITE_NODES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode'])

class BunSqliteDriver implements Driver {
  private readonly lock = new Lock()
  private readonly connection: BunSqliteConnection
  /** A commit under NORMAL happened while the connection was held: wait for its sync on release. */
  private committedUnsynced = false

  constructor(private readonly sqlite: BunDatabase) {
    this.connection = new BunSqliteConnection(
      sqlite,
      () => this.durableLevel(),
      () => {
        this.committedUnsynced = true
      },
    )
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.lock.acquire()
    return this.connection
  }

  async beginTransaction(): Promise<void> {
    const level = this.durableLevel()
    if (level !== undefined) this.sqlite.run('PRAGMA synchronous = NORMAL')
    try {
      prepared(this.sqlite, 'BEGIN').run()
      writeTransactionHookOf(this.sqlite)?.()
    } catch (error) {
      if (this.sqlite.inTransaction) prepared(this.sqlite, 'ROLLBACK').run()
      this.restore(level)
      throw error
    }
  }

  async commitTransaction(): Promise<void> {
    const level = this.durableLevel()
    try {
      prepared(this.sqlite, 'COMMIT').run()
    } finally {
      // COMMIT failed: SQLite may still be in the transaction; Kysely rolls back next.
      if (!this.sqlite.inTransaction) this.restore(level)
    }
    if (level !== undefined) this.committedUnsynced = true
  }

  async rollbackTransaction(): Promise<void> {
    try {
      if (this.sqlite.inTransaction) prepared(this.sqlite, 'ROLLBACK').run()
    } finally {
      this.restore(this.durableLevel())
    }
  }

  async releaseConnection(): Promise<void> {
    const mustSync = this.committedUnsynced
    this.committedUnsynced = false
    this.lock.release()
    // Answered only once what it committed is on disk; a failed sync fails the caller.
    if (mustSync) await durableWalOf(this.sqlite)!.walSync.sync()
  }

  async destroy(): Promise<void> {
    // As Kysely's own SQLite driver does. SQLite lets the file go once the statements cached on it
    // are finalized too (connection.ts does that next).
    this.sqlite.close()
  }

  /** The level to return to after a commit under NORMAL, or undefined where commits sync themselves. */
  private durableLevel(): number | undefined {
    return durableWalOf(this.sqlite)?.synchronous
  }

  private restore(level: number | undefined): void {
    if (level !== undefined) this.sqlite.run(`PRAGMA synchronous = ${level}`)
  }
}

class BunSqliteConnection implements DatabaseConnection {
  constructor(
    private readonly sqlite: BunDatabase,
    private readonly durableLevel: () => number | undefined,
    private readonly committedUnsynced: () => void,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const loneWrite = this.isLoneWrite(compiled.query)
    const hook = loneWrite ? writeTransactionHookOf(this.sqlite) : undefined
    if (hook) return this.runInOwnTransaction<R>(compiled, hook)
    const level = loneWrite ? this.durableLevel() : undefined
    if (level === undefined) return this.run<R>(compiled)
    // A write outside a transaction commits by itself: under NORMAL, synced before the answer.
    this.sqlite.run('PRAGMA synchronous = NORMAL')
    let result: QueryResult<R>
    try {
      result = this.run<R>(compiled)
    } finally {
      this.sqlite.run(`PRAGMA synchronous = ${level}`)
    }
    // Only a statement that ran has committed something to wait for (a failed one rolled back).
    this.committedUnsynced()
    return result
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const statement = prepared(this.sqlite, compiled.sql)
    for (const row of statement.iterate(...(compiled.parameters as never[]))) yield { rows: [row as R] }
  }

  /**
   * A lone write on a connection with a write-transaction hook: the hook and the write commit
   * together, once (two lone commits would cost two syncs).
   */
  private runInOwnTransaction<R>(compiled: CompiledQuery, hook: () => void): QueryResult<R> {
    const level = this.durableLevel()
    if (level !== undefined) this.sqlite.run('PRAGMA synchronous = NORMAL')
    try {
      prepared(this.sqlite, 'BEGIN').run()
      try {
        hook()
        const result = this.run<R>(compiled)
        prepared(this.sqlite, 'COMMIT').run()
        if (level !== undefined) this.committedUnsynced()
        return result
      } catch (error) {
        if (this.sqlite.inTransaction) prepared(this.sqlite, 'ROLLBACK').run()
        throw error
      }
    } finally {
      if (level !== undefined) this.sqlite.run(`PRAGMA synchronous = ${level}`)
    }
  }

  private isLoneWrite(query: RootOperationNode | undefined): boolean {
    return query !== undefined && WRITE_NODES.has(query.kind) && !this.sqlite.inTransaction
  }

  private run<R>({ sql, parameters }: CompiledQuery): QueryResult<R> {
    const result = runStatement(this.sqlite, sql, parameters)
    if (result.rows !== undefined) return { rows: result.rows as R[] }
    return {
      insertId: BigInt(result.lastInsertRowid),
      numAffectedRows: BigInt(result.changes),
      rows: [],
    }
  }
}
