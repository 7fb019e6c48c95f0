/**
 * The reader's thread (see reader.ts): why it exists is that SQLite runs a query to the end on the
 * thread that calls it, and a members report reads every customer and membership; here that time is
 * spent beside the server's JavaScript thread instead of on it. It holds a read-only connection to the same file and
 * runs each compiled query it is sent with bun:sqlite, exactly as the main connection's dialect
 * (bun-sqlite-dialect.ts) would, and posts back the rows or the error as plain data.
 *
 * Built into the executable as its own entrypoint (build/build.ts): keep its imports to bun:sqlite.
 */
import { Database } from 'bun:sqlite'
import type { ErrorData, ReaderReply, ReaderRequest } from './reader.ts'
import { forgetStatements, prepared, runStatement } from './statements.ts'
import { lowerThreadPriority } from '../lib/thread-priority.ts'

declare const self: Worker

let db: Database | undefined

/**
 * This thread's niceness. Reports run here while the door is answered on the server's thread; on a
 * box with few cores the two want the same core whenever a report runs, and a scan that waits for a
 * report's time slice to end is late by that slice. Lowered, this thread gives way to the door at
 * once, and still has the whole core whenever the door leaves it idle.
 */
const READER_NICENESS = 10

/** The reader's page cache, in KiB (it holds only pages that were read, up to this). */
const READER_CACHE_KIB = 8 * 1024

const reply = (message: ReaderReply) => self.postMessage(message)

function errorData(error: unknown): ErrorData {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) }
  const { code, errno, byteOffset } = error as Partial<ErrorData>
  return { name: error.name, message: error.message, code, errno, byteOffset }
}

function open(path: string): Database {
  // readonly: a write sent here by mistake fails (SQLITE_READONLY) instead of racing the writer.
  const connection = new Database(path, { readonly: true, strict: true })
  // Durability is the writer's business, but every connection keeps the same settings.
  connection.run('PRAGMA synchronous = FULL')
  connection.run('PRAGMA busy_timeout = 5000')
  // The long reads go through here: the members report visits every customer and membership, which
  // SQLite's default 2 MB of pages cannot hold, so each report read most of them from the file again.
  connection.run(`PRAGMA cache_size = -${READER_CACHE_KIB}`)
  return connection
}

/**
 * Writes the UTF-8 JSON array of the rows' `column`, each JSON text, into `into` from its start, and
 * gives the buffer it ends in (`into`, grown, or a larger one that took its place when the array
 * outgrew what `into` can grow to) and the bytes used. Each row is encoded into the array as it is
 * read, so no string of the whole array is ever made: a large report's text would otherwise stay in
 * this thread's heap, idle after it, until a collection that may not come. Buffer#write encodes in
 * place; a TextEncoder's encodeInto needs a view of the rest of the buffer for every row, and made
 * the encoding several times slower than reading the rows.
 *
 * `into` is the output buffer the reader lent (reader.ts), kept from one array to the next and
 * grown to the largest so far: the rows are written into memory this process has already touched,
 * not into new pages that the system must first map, one fault at a time.
 */
function writeJsonArray(
  rows: Iterable<Record<string, unknown>>,
  column: string,
  into: SharedArrayBuffer,
): { written: SharedArrayBuffer; length: number } {
  let written = into
  let bytes = Buffer.from(written)
  let used = 0
  const write = (text: string) => {
    // A UTF-16 code unit is at most 3 bytes of UTF-8, so a text this much smaller than the room
    // left is written whole.
    if (bytes.length - used < text.length * 3) {
      const needed = Math.max(bytes.length * 2, used + text.length * 3)
      // In place while the buffer's reserved room lasts: nothing to copy, and no smaller buffer left
      // behind for this thread's collector to find.
      if (written.growable && needed <= written.maxByteLength) written.grow(needed)
      else {
        written = new SharedArrayBuffer(needed)
        Buffer.from(written).set(bytes.subarray(0, used))
      }
      bytes = Buffer.from(written)
    }
    used += bytes.write(text, used)
  }
  write('[')
  let first = true
  for (const row of rows) {
    write(first ? String(row[column]) : `,${row[column]}`)
    first = false
  }
  write(']')
  return { written, length: used }
}

/** Rows posted since this thread's last collection, and how many make it collect again. */
let rowsSinceCollection = 0
const ROWS_BETWEEN_COLLECTIONS = 4_000

/**
 * An export reads thousands of chunks of rows here, each a fresh array of objects copied to the
 * server's thread and garbage at once. This thread is collected every few chunks' worth of rows (a
 * few milliseconds each: little lives here), as the server's thread is during an export
 * (http/csv-export.ts): the two together held an export of every check-in of the large demo to a
 * peak RSS of 127 MB (collecting every chunk) to 151 MB (every four), against 242 MB left to itself.
 */
function collectAfterLargeResults(rows: number): void {
  rowsSinceCollection += rows
  if (rowsSinceCollection < ROWS_BETWEEN_COLLECTIONS) return
  rowsSinceCollection = 0
  Bun.gc(true)
}

self.onmessage = ({ data }: MessageEvent<ReaderRequest>) => {
  if (data.type === 'close') {
    if (db) forgetStatements(db)
    db?.close()
    db = undefined
    reply({ type: 'closed' })
    return
  }
  if (data.type === 'collect') {
    // The cache is refilled by the next run's first report, from the file the system still caches;
    // kept, it would hold its megabytes for as long as the server stays idle.
    db?.run('PRAGMA shrink_memory')
    Bun.gc(true)
    return
  }
  if (data.type === 'open') {
    try {
      db = open(data.path)
      lowerThreadPriority(READER_NICENESS)
      reply({ type: 'ready' })
    } catch (error) {
      reply({ type: 'failed', error: errorData(error) })
    }
    return
  }
  const { id, sql, parameters } = data
  if (data.type === 'jsonArray') {
    try {
      const statement = prepared(db!, sql)
      const column = statement.columnNames[0]!
      const { written, length } = writeJsonArray(
        statement.iterate(...(parameters as never[])) as Iterable<Record<string, unknown>>,
        column,
        data.into,
      )
      // Shared, not copied: the server's thread reads the array where it was written.
      reply({ type: 'json', id, written, length })
    } catch (error) {
      reply({ type: 'error', id, error: errorData(error) })
    }
    return
  }
  try {
    // The same statement cache as the main connection's (bun:sqlite's own query() keeps only 20).
    const result = runStatement(db!, sql, parameters)
    if (result.rows !== undefined) {
      reply({ type: 'rows', id, rows: result.rows })
      collectAfterLargeResults(result.rows.length)
    } else {
      const { changes, lastInsertRowid } = result
      reply({ type: 'changes', id, changes, lastInsertRowid: Number(lastInsertRowid) })
    }
  } catch (error) {
    reply({ type: 'error', id, error: errorData(error) })
  }
}
