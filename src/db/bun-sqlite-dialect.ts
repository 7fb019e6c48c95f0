import type { Database as BunDatabase } from 'bun:sqlite'
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely'
import { prepared } from './statements.ts'

/**
 * Kysely's SqliteDialect speaks a better-sqlite3-shaped interface; this adapts bun:sqlite to it.
 * bun:sqlite was chosen over better-sqlite3 because it is built into the runtime: the compiled
 * executable needs no native .node file beside it (see README, "Why bun:sqlite").
 * Statements come from the connection's statement cache (statements.ts), so a repeated query is
 * compiled once.
 */
export function bunSqliteDialect(sqlite: BunDatabase): SqliteDialect {
  const adapter: SqliteDatabase = {
    close: () => sqlite.close(),
    prepare(sqlText: string): SqliteStatement {
      const statement = prepared(sqlite, sqlText)
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
