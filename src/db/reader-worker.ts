/**
 * The reader's thread (see reader.ts): why it exists is that SQLite runs a query to the end on the
 * thread that calls it, and a members report takes 30-150 ms; here that time is spent beside the
 * server's JavaScript thread instead of on it. It holds a read-only connection to the same file and
 * runs each compiled query it is sent with bun:sqlite, exactly as the main connection's dialect
 * (bun-sqlite-dialect.ts) would, and posts back the rows or the error as plain data.
 *
 * Built into the executable as its own entrypoint (build/build.ts): keep its imports to bun:sqlite.
 */
import { Database } from 'bun:sqlite'
import type { ErrorData, ReaderReply, ReaderRequest } from './reader.ts'
import { forgetStatements, runStatement } from './statements.ts'

declare const self: Worker

let db: Database | undefined

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
  return connection
}

self.onmessage = ({ data }: MessageEvent<ReaderRequest>) => {
  if (data.type === 'close') {
    if (db) forgetStatements(db)
    db?.close()
    db = undefined
    reply({ type: 'closed' })
    return
  }
  if (data.type === 'open') {
    try {
      db = open(data.path)
      reply({ type: 'ready' })
    } catch (error) {
      reply({ type: 'failed', error: errorData(error) })
    }
    return
  }
  const { id, sql, parameters } = data
  try {
    // The same statement cache as the main connection's (bun:sqlite's own query() keeps only 20).
    const result = runStatement(db!, sql, parameters)
    if (result.rows !== undefined) reply({ type: 'rows', id, rows: result.rows })
    else {
      const { changes, lastInsertRowid } = result
      reply({ type: 'changes', id, changes, lastInsertRowid: Number(lastInsertRowid) })
    }
  } catch (error) {
    reply({ type: 'error', id, error: errorData(error) })
  }
}
