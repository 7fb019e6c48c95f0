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
  const insert = multiRowInsert(table, columns)
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const count = Math.min(ROWS_PER_STATEMENT, rows.length - i)
    const parameters: unknown[] = new Array(count * columns.length)
    let p = 0
    for (let r = i; r < i + count; r++) {
      const row = rows[r] as Record<string, unknown>
      for (const c of columns) parameters[p++] = row[c]
    }
    await insert(db, count, parameters)
  }
}

/**
 * insertRows for rows given as one flat list of values, `columns` of each row in turn: for the
 * large set's million and a half check-ins, where an object per row, and reading each one's values
 * back out by name, cost more than SQLite's insert of them.
 */
export async function insertValues(
  db: Db,
  table: DemoTable,
  columns: readonly string[],
  values: readonly unknown[],
): Promise<void> {
  const insert = multiRowInsert(table, columns)
  const rowCount = values.length / columns.length
  for (let i = 0; i < rowCount; i += ROWS_PER_STATEMENT) {
    const count = Math.min(ROWS_PER_STATEMENT, rowCount - i)
    await insert(db, count, values.slice(i * columns.length, (i + count) * columns.length))
  }
}

/** Runs the INSERT of `count` rows of `columns` into `table` with their values in row order. */
function multiRowInsert(
  table: DemoTable,
  columns: readonly string[],
): (db: Db, count: number, parameters: unknown[]) => Promise<unknown> {
  const tuple = `(${columns.map(() => '?').join(', ')})`
  const head = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values `
  const statement = (count: number) => head + Array.from({ length: count }, () => tuple).join(', ')
  const full = statement(ROWS_PER_STATEMENT)
  // Not CompiledQuery.raw(sql, parameters): it freezes the array, which for thousands of values
  // is work of its own on every statement.
  return (db, count, parameters) =>
    db.executeQuery({
      ...CompiledQuery.raw(count === ROWS_PER_STATEMENT ? full : statement(count)),
      parameters,
    })
}

/**
 * The connection's settings for the demo's one bulk write, each set back after to what it was.
 * Foreign keys are not enforced: the demo writes its tables in an order that satisfies every one
 * (INSERT_ORDER) and its tests check the result with foreign_key_check, while looking up the
 * parents of each of the large set's million sales rows as it goes in would slow the load
 * markedly. A rollback journal instead of WAL writes each page into the file once, where WAL would
 * write the whole set twice (into the log, then back into the file) and every page the cache lets
 * go before the commit into the log again each time it changes; a new file's rollback journal
 * holds almost nothing, as only pages that were there before the load are copied into it. Nothing
 * is synced: the load is one transaction into a file nothing else uses, so a crash leaves the file
 * as it was or, at worst, a file to delete and seed again. A bigger page cache than the
 * connection's own lets the index builds sort in memory (SQLite sizes a sort's memory by it); one
 * that held the whole large set took as much CPU and most of a gigabyte more memory. A sort that
 * outgrows it spills its sorted runs to temporary storage, kept in memory too: the check-ins'
 * indexes each spill tens of megabytes, which as temporary files cost a system call for every page
 * written and read back. None of
 * these can change inside a transaction, so this wraps the demo's one.
 */
export async function withBulkLoadSettings<T>(db: Db, load: () => Promise<T>): Promise<T> {
  const saved: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(BULK_LOAD_SETTINGS)) {
    const { rows } = await sql<Record<string, unknown>>`PRAGMA ${sql.raw(name)}`.execute(db)
    saved[name] = rows[0]?.[name]
    await sql`PRAGMA ${sql.raw(name)} = ${sql.raw(value)}`.execute(db)
  }
  try {
    return await load()
  } finally {
    for (const [name, value] of Object.entries(saved).toReversed())
      await sql`PRAGMA ${sql.raw(name)} = ${sql.raw(String(value))}`.execute(db)
  }
}

const BULK_LOAD_SETTINGS: Record<string, string> = {
  foreign_keys: 'OFF',
  journal_mode: 'DELETE',
  synchronous: 'OFF',
  // In KiB, as a negative number.
  cache_size: String(-64 * 1024),
  temp_store: 'MEMORY',
}

/**
 * Runs `load` with the indexes of `tables` dropped, then builds each again from its own definition
 * (sqlite_master keeps every CREATE INDEX as the migrations wrote it), all inside the caller's
 * transaction. Kept up to date row by row, an index costs the large set's big tables several
 * times the rows themselves (the check-ins' customer index takes each row at a random place);
 * built once at the end from the finished table it costs little. The indexes SQLite makes for
 * UNIQUE and PRIMARY KEY constraints stay (they have no CREATE INDEX of their own).
 */
export async function withoutIndexes(
  db: Db,
  tables: readonly DemoTable[],
  load: () => Promise<void>,
): Promise<void> {
  const { rows: indexes } = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master
    where type = 'index' and tbl_name in (${sql.join(tables)}) and sql is not null
  `.execute(db)
  for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(db)
  await load()
  for (const index of indexes) await sql.raw(index.sql).execute(db)
}

/**
 * Runs `load` with the triggers `names` dropped, then creates each again from its own definition.
 * The caller then writes at once what they would have written for each row loaded.
 */
export async function withoutTriggers(
  db: Db,
  names: readonly string[],
  load: () => Promise<void>,
): Promise<void> {
  const { rows: triggers } = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master where type = 'trigger' and name in (${sql.join(names)})
  `.execute(db)
  const missing = names.filter((name) => !triggers.some((t) => t.name === name))
  if (missing.length > 0) throw new Error(`no trigger ${missing.join(', ')}`)
  for (const trigger of triggers) await sql`drop trigger ${sql.id(trigger.name)}`.execute(db)
  await load()
  for (const trigger of triggers) await sql.raw(trigger.sql).execute(db)
}

/** The CREATE TABLE statement of `table`, as sqlite_master keeps it. */
export async function tableDefinition(db: Db, table: DemoTable): Promise<string> {
  const { rows } = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'table' and name = ${table}
  `.execute(db)
  if (!rows[0]) throw new Error(`no table ${table}`)
  return rows[0].sql
}

/**
 * Runs `load` with the database file `path` attached to the connection as `schema`, and detaches
 * it after. SQLite attaches only outside a transaction, so this wraps the demo's one; what another
 * connection writes into the file meanwhile is there to read once it has committed.
 */
export async function withAttached<T>(
  db: Db,
  path: string,
  schema: string,
  load: () => Promise<T>,
): Promise<T> {
  await sql`attach database ${path} as ${sql.id(schema)}`.execute(db)
  try {
    return await load()
  } finally {
    await sql`detach database ${sql.id(schema)}`.execute(db)
  }
}

/** Copies every row of `table` in the attached `schema` into the same table of the main database. */
export async function copyTable(db: Db, table: DemoTable, schema: string): Promise<void> {
  await sql`insert into main.${sql.id(table)} select * from ${sql.id(schema)}.${sql.id(table)}`.execute(db)
}
