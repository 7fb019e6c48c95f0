import { SQLiteError } from 'bun:sqlite'
import { resolve } from 'node:path'
import {
  CompiledQuery,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely'
import type { Db } from './connection.ts'
import type { Database } from './schema.ts'
import { readerWorkerUrl } from '../worker-urls.ts'

/**
 * The read-only reader (Deps.reader): a Kysely whose queries run on a second thread, so a long
 * back-office read (the members report, a customer search, each running in SQLite to its end)
 * never holds the server's one JavaScript thread, where door scans would wait behind it. The worker
 * (reader-worker.ts) holds its own read-only connection to the same file; in WAL mode it sees every
 * committed write and never blocks the writer. Use it only for reads that need no uncommitted
 * writes of the request's own transaction.
 */

/**
 * Main thread -> worker. The first message opens the file; each later one is a compiled query, whose
 * rows come back as they are (`query`) or, when each is one value of JSON text, as the UTF-8 bytes
 * of the JSON array of them, written into the output buffer lent with it (`jsonArray`).
 */
export type ReaderRequest =
  | { type: 'open'; path: string }
  | { type: 'query'; id: number; sql: string; parameters: readonly unknown[] }
  | { type: 'jsonArray'; id: number; sql: string; parameters: readonly unknown[]; into: SharedArrayBuffer }
  /**
   * The output buffer is no longer kept, a run of reports being over: collect this thread's garbage,
   * so its hold on the buffer goes too, and give back the connection's cached pages.
   */
  | { type: 'collect' }
  | { type: 'close' }

/** An error as plain data, so it crosses threads and can be rebuilt as the same error class. */
export interface ErrorData {
  name: string
  message: string
  code?: string
  errno?: number
  byteOffset?: number
}

const CLOSE_TIMEOUT_MS = 2_000

/** Worker -> main thread. */
export type ReaderReply =
  | { type: 'ready' }
  | { type: 'closed' }
  | { type: 'failed'; error: ErrorData }
  | { type: 'rows'; id: number; rows: unknown[] }
  /** A jsonArray's bytes: the first `length` of `written`, the buffer lent or a larger one. */
  | { type: 'json'; id: number; written: SharedArrayBuffer; length: number }
  | { type: 'changes'; id: number; changes: number; lastInsertRowid: number }
  | { type: 'error'; id: number; error: ErrorData }

/**
 * The same error the main connection would have thrown: a bun:sqlite SQLiteError keeps its class,
 * `code`, `errno` and `byteOffset` (callers check `code`, e.g. SQLITE_CONSTRAINT_UNIQUE), anything
 * else becomes an Error with its name and message. The stack is this thread's, which is the useful one.
 */
export function rebuildError(data: ErrorData): Error {
  const error = new Error(data.message)
  if (data.name === 'SQLiteError') {
    Object.setPrototypeOf(error, SQLiteError.prototype)
    Object.assign(error, { name: data.name, code: data.code, errno: data.errno, byteOffset: data.byteOffset })
  } else if (data.name !== 'Error') error.name = data.name
  return error
}

/** Rows from which a result is handed over only after the event loop has had a turn. */
const LARGE_RESULT = 500

interface Pending {
  resolve(result: QueryResult<any>): void
  reject(error: Error): void
  /** The output buffer a jsonArray query was lent, given back if it fails. */
  lent?: SharedArrayBuffer
}

/** The first size of an output buffer; one grows in place to the largest array written into it. */
const FIRST_OUTPUT_BYTES = 64 * 1024
/** How far an output buffer can grow in place: address space reserved, not memory. */
const OUTPUT_RESERVED_BYTES = 1024 * 1024 * 1024
/** A buffer grown past this by an unusually large array is not kept: idle, it would hold too much. */
const LARGEST_KEPT_OUTPUT_BYTES = 32 * 1024 * 1024
/** How long the kept buffer outlives the last array written into it, when no other needs it. */
export const KEPT_OUTPUT_IDLE_MS = 1_000

/**
 * The memory the worker writes JSON arrays into (readJsonArray), kept from one array to the next.
 * A full members report is megabytes of JSON: written into new memory each time, touching its pages
 * for the first time cost more than SQLite's reading of the rows, and the memory went back to the
 * system after each report, to be touched afresh by the next one. One buffer is kept, grown to the
 * largest array so far; it is lent to one query at a time and given back once its bytes were copied
 * out, so a second report running meanwhile writes into a buffer of its own, dropped after it.
 */
class OutputBuffers {
  private kept: SharedArrayBuffer | undefined
  private dropping: Timer | undefined

  /** `dropped` runs once the kept buffer is let go, so that the worker lets go of it too. */
  constructor(private readonly dropped: () => void) {}

  lend(): SharedArrayBuffer {
    const buffer =
      this.kept ?? new SharedArrayBuffer(FIRST_OUTPUT_BYTES, { maxByteLength: OUTPUT_RESERVED_BYTES })
    this.kept = undefined
    return buffer
  }

  giveBack(buffer: SharedArrayBuffer): void {
    if (buffer.byteLength <= LARGEST_KEPT_OUTPUT_BYTES && buffer.byteLength > (this.kept?.byteLength ?? 0))
      this.kept = buffer
    // Reports come in runs (a list filtered again, paged, exported): kept through a run, the buffer
    // saves each report the first touch of its pages; between runs an idle server holds none of it.
    clearTimeout(this.dropping)
    this.dropping = setTimeout(() => {
      if (this.kept === undefined) return
      this.kept = undefined
      this.dropped()
    }, KEPT_OUTPUT_IDLE_MS)
    this.dropping.unref()
  }

  close(): void {
    clearTimeout(this.dropping)
  }
}

/** One worker thread and its connection; Kysely's SqliteAdapter makes it run one query at a time. */
class WorkerConnection implements DatabaseConnection {
  private readonly pending = new Map<number, Pending>()
  private readonly outputs = new OutputBuffers(() => {
    // Its memory goes back only once neither thread holds an object for it. On this thread that is
    // a full collection, which also takes the last reports' Blobs, megabytes each: an idle server
    // allocates too little to start one itself, and would hold them for as long as it stays idle.
    if (!this.gone) this.worker.postMessage({ type: 'collect' } satisfies ReaderRequest)
    Bun.gc(true)
  })
  private nextId = 1
  /** Set once the worker is gone: every later query fails at once instead of waiting forever. */
  private gone: Error | undefined

  private constructor(private readonly worker: Worker) {
    worker.addEventListener('message', (event: MessageEvent<ReaderReply>) => this.receive(event.data))
    // A worker that dies takes its connection with it: fail what it was running, loudly.
    worker.addEventListener('error', (event) => this.failAll(new Error(`reader worker: ${event.message}`)))
    worker.addEventListener('close', () => this.failAll(new Error('the reader worker has stopped')))
    // Idle, the worker must not keep a CLI command or a test process alive; a query in flight does.
    worker.unref()
  }

  static async open(path: string): Promise<WorkerConnection> {
    const worker = new Worker(readerWorkerUrl)
    const opened = new Promise<void>((resolve, reject) => {
      const onMessage = (event: MessageEvent<ReaderReply>) => {
        worker.removeEventListener('message', onMessage)
        if (event.data.type === 'ready') resolve()
        else if (event.data.type === 'failed') reject(rebuildError(event.data.error))
      }
      worker.addEventListener('message', onMessage)
      worker.addEventListener('error', (event) => reject(new Error(`reader worker: ${event.message}`)))
    })
    worker.postMessage({ type: 'open', path } satisfies ReaderRequest)
    try {
      await opened
    } catch (error) {
      worker.terminate()
      throw error
    }
    return new WorkerConnection(worker)
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.send(jsonArrayQueries.has(query) ? 'jsonArray' : 'query', query) as Promise<QueryResult<R>>
  }

  private send(type: 'query' | 'jsonArray', query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (this.gone) return Promise.reject(this.gone)
    const id = this.nextId++
    const lent = type === 'jsonArray' ? this.outputs.lend() : undefined
    const result = new Promise<QueryResult<unknown>>((resolve, reject) =>
      this.pending.set(id, { resolve, reject, lent }),
    )
    if (this.pending.size === 1) this.worker.ref()
    const { sql, parameters } = query
    const request: ReaderRequest = lent
      ? { type: 'jsonArray', id, sql, parameters, into: lent }
      : { type: 'query', id, sql, parameters }
    this.worker.postMessage(request)
    return result
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('the reader does not stream; use execute()')
  }

  private settle(id: number): Pending | undefined {
    const pending = this.pending.get(id)
    this.pending.delete(id)
    if (this.pending.size === 0) this.worker.unref()
    return pending
  }

  private receive(reply: ReaderReply): void {
    if (reply.type === 'rows') {
      // Receiving a large result (copying it onto this thread) already took a while; let waiting
      // requests run before the caller goes on to build its response from it.
      const pending = this.settle(reply.id)
      if (reply.rows.length < LARGE_RESULT) pending?.resolve({ rows: reply.rows })
      else setImmediate(() => pending?.resolve({ rows: reply.rows }))
    } else if (reply.type === 'json') {
      const { written, length } = reply
      const array = new JsonArray(new Uint8Array(written, 0, length), () => this.outputs.giveBack(written))
      this.settle(reply.id)?.resolve({ rows: [array] })
    } else if (reply.type === 'changes')
      this.settle(reply.id)?.resolve({
        numAffectedRows: BigInt(reply.changes),
        insertId: BigInt(reply.lastInsertRowid),
        rows: [],
      })
    else if (reply.type === 'error') {
      const pending = this.settle(reply.id)
      if (pending?.lent) this.outputs.giveBack(pending.lent)
      pending?.reject(rebuildError(reply.error))
    }
  }

  private failAll(error: Error): void {
    this.gone ??= error
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error)
  }

  /**
   * Closes the worker's connection and waits for that before ending the thread: until it is closed
   * the serving connection is not the last one, and the shutdown checkpoint could not empty the WAL.
   */
  async close(): Promise<void> {
    this.failAll(new Error('the reader was closed'))
    this.outputs.close()
    const closed = new Promise<void>((resolve) => {
      this.worker.addEventListener('message', (event: MessageEvent<ReaderReply>) => {
        if (event.data.type === 'closed') resolve()
      })
      this.worker.addEventListener('close', () => resolve())
      setTimeout(resolve, CLOSE_TIMEOUT_MS).unref()
    })
    this.worker.ref()
    this.worker.postMessage({ type: 'close' } satisfies ReaderRequest)
    await closed
    this.worker.terminate()
  }
}

/** Kysely's SQLite dialect with the driver swapped for one that runs each query on the worker. */
class ReaderDriver implements Driver {
  constructor(private readonly connection: WorkerConnection) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'))
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'))
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'))
  }
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {
    await this.connection.close()
  }
}

export interface Reader {
  db: Db
  close(): Promise<void>
}

/** The queries readJsonArray runs: on the worker they come back as one JsonArray. */
const jsonArrayQueries = new WeakSet<CompiledQuery>()

/** The result of a readJsonArray query run on the worker: its bytes, in a lent output buffer. */
class JsonArray {
  constructor(
    readonly bytes: Uint8Array,
    readonly giveBack: () => void,
  ) {}
}

/**
 * Runs `query`, whose rows are each one value of JSON text, on `db` (Deps.reader, or a transaction
 * of it) and gives the JSON array of those values, in order, as a Blob of its UTF-8 bytes (a
 * Response sends a Blob as it is). On the reader's worker the array is written there, into one of
 * the reader's output buffers, and copied once into the Blob: a large report's rows never become
 * objects or strings on the server's thread. On the main connection (':memory:', tests) the same
 * array is written here.
 */
export async function readJsonArray(db: Db, query: CompiledQuery): Promise<Blob> {
  jsonArrayQueries.add(query)
  const { rows } = await db.executeQuery<Record<string, string>>(query)
  const [first] = rows
  if (!(first instanceof JsonArray))
    return new Blob([`[${rows.map((row) => Object.values(row)[0]).join(',')}]`])
  try {
    // A copy (a Blob's bytes never change), so the buffer can be lent again at once; a Response
    // given the bytes themselves would copy them all the same.
    return new Blob([first.bytes])
  } finally {
    first.giveBack()
  }
}

/**
 * Opens the reader for the database file at `path` (resolves once the worker has opened it, so a
 * bad path fails here). `main` is the serving connection's Kysely: an in-memory database cannot be
 * shared with another thread, so ':memory:' gets `main` itself (tests read their own writes).
 */
export async function openReader(path: string, main: Db): Promise<Reader> {
  if (path === ':memory:') return { db: main, close: async () => {} }
  const connection = await WorkerConnection.open(resolve(path))
  const dialect: Dialect = {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ReaderDriver(connection),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  }
  const db = new Kysely<Database>({ dialect })
  return { db, close: () => db.destroy() }
}
