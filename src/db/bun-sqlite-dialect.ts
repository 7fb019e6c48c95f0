import type { Database as BunDatabase } from 'bun:sqlite'
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely'

/**
 * Kysely's SqliteDialect speaks a better-sqlite3-shaped interface; this adapts bun:sqlite to it.
 * bun:sqlite was chosen over better-sqlite3 because it is built into the runtime: the compiled
 * executable needs no native .node file beside it (see README, "Why bun:sqlite").
 * `query()` caches each distinct SQL text's prepared statement, so repeated queries skip compiling.
 */
export function bunSqliteDialect(sqlite: BunDatabase): SqliteDialect {
  const adapter: SqliteDatabase = {
    close: () => sqlite.close(),
    prepare(sqlText: string): SqliteStatement {
      const statement = sqlite.query(sqlText)
      const params = (parameters: ReadonlyArray<unknown>) => parameters as never[]
      return {
        reader: statement.columnNames.length > 0,
        all: (parameters) => statement.all(...params(parameters)),
        run: (parameters) => statement.run(...params(parameters)),
        iterate: (parameters) => statement.iterate(...params(parameters)),
      }
    },
  }
  return new SqliteDialect({ database: adapter })
}
