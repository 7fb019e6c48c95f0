import { Kysely } from 'kysely'
import { bunSqliteDialect } from '../../src/db/bun-sqlite-dialect.ts'
import { openDatabase, type Connection, type Db } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'

/**
 * A migrated in-memory database, and the same database through a Kysely that records each
 * statement it sends, so a test can ask SQLite how it plans what a query function runs. The plans
 * are SQLite's without statistics, as on the box: the appliance never runs ANALYZE.
 */
export interface QueryPlans {
  connection: Connection
  /** Runs statements like connection.db, and records each of them. */
  db: Db
  /** The plan lines of every statement `run` sends through `db`, one string per statement. */
  plansOf(run: () => Promise<unknown>): Promise<string[]>
}

export async function openQueryPlans(): Promise<QueryPlans> {
  const connection = openDatabase(':memory:')
  await migrateToLatest(connection.db)
  const statements: Array<{ sql: string; parameters: readonly unknown[] }> = []
  const db = new Kysely({
    dialect: bunSqliteDialect(connection.sqlite),
    log: (event) => {
      statements.push({ sql: event.query.sql, parameters: event.query.parameters })
    },
  }) as Db
  async function plansOf(run: () => Promise<unknown>): Promise<string[]> {
    statements.length = 0
    await run()
    return statements.map(({ sql, parameters }) =>
      (
        connection.sqlite.query(`EXPLAIN QUERY PLAN ${sql}`).all(...(parameters as never[])) as Array<{
          detail: string
        }>
      )
        .map((row) => row.detail)
        .join('\n'),
    )
  }
  return { connection, db, plansOf }
}
