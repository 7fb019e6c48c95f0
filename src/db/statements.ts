import type { Database as BunDatabase, SQLQueryBindings, Statement } from 'bun:sqlite'

/**
 * Prepared statements by SQL text, one cache per connection.
 *
 * bun:sqlite's own `query()` cache keeps only 20 statements (Database.MAX_QUERY_CACHE_SIZE). The API
 * runs a few hundred distinct statements (every Kysely query shape and the door's own), so that
 * cache thrashed: the door's three-table membership read, compiled again on every scan, cost more
 * than twice what it costs from a held statement. This one holds enough for
 * the whole API and forgets the least recently used beyond that (statements built from a variable
 * number of parameters, such as IN lists, come and go).
 *
 * Evicted statements are not finalized here: one may still be iterating for a caller; bun:sqlite
 * finalizes it when it is garbage-collected.
 */
const CAPACITY = 512

const caches = new WeakMap<BunDatabase, Map<string, Statement<any, any>>>()

export function prepared<Row = unknown, Params extends SQLQueryBindings | SQLQueryBindings[] = any[]>(
  sqlite: BunDatabase,
  sql: string,
): Statement<Row, Params extends any[] ? Params : [Params]> {
  let cache = caches.get(sqlite)
  if (cache === undefined) caches.set(sqlite, (cache = new Map()))
  const known = cache.get(sql)
  if (known !== undefined) {
    // Most recently used last: a Map iterates in insertion order, so the first key is the oldest.
    cache.delete(sql)
    cache.set(sql, known)
    return known
  }
  const statement = sqlite.prepare<Row, Params>(sql)
  if (cache.size >= CAPACITY) cache.delete(cache.keys().next().value!)
  cache.set(sql, statement)
  return statement
}

/**
 * Statements compiled once by a module (db/compiled-statement.ts) are few and fixed, and some run
 * several times in every door scan: each connection holds them for its life, by the number each was
 * given, without the bookkeeping the cache above does on every use. forgetStatements finalizes them
 * with the others.
 */
const held = new WeakMap<BunDatabase, Statement<any, any>[]>()

export function heldStatement(sqlite: BunDatabase, slot: number, sql: string): Statement<any, any> {
  let statements = held.get(sqlite)
  if (statements === undefined) held.set(sqlite, (statements = []))
  return (statements[slot] ??= sqlite.prepare(sql))
}

/** What one statement gave: its rows if it returns any (a SELECT, or RETURNING), else its changes. */
export type StatementResult =
  { rows: unknown[] } | { rows?: undefined; changes: number; lastInsertRowid: number | bigint }

/**
 * Runs `sql` from the connection's cache with `parameters`: the one way both Kysely drivers (the
 * serving connection's and the reader worker's) execute a compiled query.
 */
export function runStatement(
  sqlite: BunDatabase,
  sql: string,
  parameters: readonly unknown[],
): StatementResult {
  const statement = prepared(sqlite, sql)
  // The values go as one array, which bun:sqlite binds in order: spread into thousands of
  // arguments (a multi-row INSERT's) they took longer to pass than SQLite took to insert the rows.
  const values = parameters as never
  if (statement.columnNames.length > 0) return { rows: statement.all(values) }
  const { changes, lastInsertRowid } = statement.run(values)
  return { changes, lastInsertRowid }
}

/**
 * Finalizes the connection's cached statements, once it is closed: SQLite keeps a closed
 * connection's file open until every statement prepared on it is finalized.
 */
export function forgetStatements(sqlite: BunDatabase): void {
  const cache = caches.get(sqlite)
  caches.delete(sqlite)
  for (const statement of cache?.values() ?? []) statement.finalize()
  const statements = held.get(sqlite)
  held.delete(sqlite)
  for (const statement of statements ?? []) statement?.finalize()
}
