import { CompiledQuery, sql } from 'kysely'
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
 * also lets the driver reuse the prepared statement, and the same string each time is looked up
 * in the driver's statement cache without hashing its thousands of characters again. Every row
 * of a table has the same columns.
 */
export async function insertRows<T extends DemoTable>(db: Db, table: T, rows: DemoRows[T]): Promise<void> {
  if (rows.length === 0) return
  const columns = Object.keys(rows[0]!)
  const tuple = `(${columns.map(() => '?').join(', ')})`
  const head = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values `
  const statement = (count: number) => head + Array.from({ length: count }, () => tuple).join(', ')
  const full = statement(ROWS_PER_STATEMENT)
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const count = Math.min(ROWS_PER_STATEMENT, rows.length - i)
    const parameters: unknown[] = new Array(count * columns.length)
    let p = 0
    for (let r = i; r < i + count; r++) {
      const row = rows[r] as Record<string, unknown>
      for (const c of columns) parameters[p++] = row[c]
    }
    // Not CompiledQuery.raw(sql, parameters): it freezes the array, and a frozen array of
    // thousands of values made both the freeze and the driver's spread of it slower than SQLite.
    const sql = count === ROWS_PER_STATEMENT ? full : statement(count)
    await db.executeQuery({ ...CompiledQuery.raw(sql), parameters })
  }
}

/**
 * Runs `load` with SQLite's foreign key enforcement off, and turns it back on after. The demo
 * writes its tables in an order that satisfies every foreign key (INSERT_ORDER) and its tests
 * check the result with foreign_key_check; looking up the parents of each of the large set's
 * million sales rows as it goes in would slow the load markedly. The setting cannot change inside
 * a transaction, so this wraps the demo's one.
 */
export async function withoutForeignKeyChecks<T>(db: Db, load: () => Promise<T>): Promise<T> {
  await sql`PRAGMA foreign_keys = OFF`.execute(db)
  try {
    return await load()
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db)
  }
}

/**
 * Runs `load` with `table`'s indexes dropped, then builds each again from its own definition
 * (sqlite_master keeps every CREATE INDEX as the migrations wrote it), all inside the caller's
 * transaction. Kept up to date row by row, the check_ins indexes cost the large set several times
 * the rows themselves (the customer index takes each row at a random place); built once at the
 * end from the finished table they cost little.
 */
export async function withoutIndexes(db: Db, table: DemoTable, load: () => Promise<void>): Promise<void> {
  const { rows: indexes } = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null
  `.execute(db)
  for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(db)
  await load()
  for (const index of indexes) await sql.raw(index.sql).execute(db)
}

/**
 * Runs `load` with the trigger `name` dropped, then creates it again from its own definition and
 * runs `rebuild`, which writes at once what the trigger would have written for each row loaded.
 */
export async function withoutTrigger(
  db: Db,
  name: string,
  load: () => Promise<void>,
  rebuild: () => Promise<void>,
): Promise<void> {
  const { rows } = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'trigger' and name = ${name}
  `.execute(db)
  const [trigger] = rows
  if (!trigger) throw new Error(`no trigger ${name}`)
  await sql`drop trigger ${sql.id(name)}`.execute(db)
  await load()
  await sql.raw(trigger.sql).execute(db)
  await rebuild()
}
