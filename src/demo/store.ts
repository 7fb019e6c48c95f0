import { CompiledQuery } from 'kysely'
import type { Db } from '../db/connection.ts'
import type { DemoRows, DemoTable } from './context.ts'

/** The demo's own database access: an emptiness check and bulk inserts. */

export async function countAllCustomers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('customers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

const ROWS_PER_STATEMENT = 100

/**
 * Multi-row INSERTs of ROWS_PER_STATEMENT rows, as precompiled statements run through Kysely's
 * driver (so they join the transaction). Building 30,000-value queries with Kysely's builder
 * spent more time compiling than SQLite spent inserting; one SQL text per table and batch size
 * also lets the driver reuse the prepared statement. Every row of a table has the same columns.
 */
export async function insertRows<T extends DemoTable>(db: Db, table: T, rows: DemoRows[T]): Promise<void> {
  if (rows.length === 0) return
  const columns = Object.keys(rows[0]!)
  const tuple = `(${columns.map(() => '?').join(', ')})`
  const head = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values `
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const batch = rows.slice(i, i + ROWS_PER_STATEMENT) as Record<string, unknown>[]
    const parameters: unknown[] = []
    for (const row of batch) for (const c of columns) parameters.push(row[c])
    const sql = head + Array.from({ length: batch.length }, () => tuple).join(', ')
    // Not CompiledQuery.raw(sql, parameters): it freezes the array, and a frozen array of
    // thousands of values made both the freeze and the driver's spread of it slower than SQLite.
    await db.executeQuery({ ...CompiledQuery.raw(sql), parameters })
  }
}
