import type { Database as BunDatabase } from 'bun:sqlite'
import { prepared } from '../../db/statements.ts'
import { setWriteTransactionHook } from '../../db/write-hooks.ts'
import type { Hlc } from '../../lib/hlc.ts'
import type { ReplicatedTable } from './tables.ts'

/*
 * Capture: every change to a replicated row is recorded in sync_outbox by a trigger, inside the
 * transaction that makes it, so nothing can write around it and nothing committed goes unsent.
 *
 * - The triggers exist only while the box is a site (installCapture at each start with a hub,
 *   after the migrations: a migration that adds a column gets it captured from then on), and
 *   record nothing while a remote change is applied (sync_state.applying), so an applied change is
 *   not sent back.
 * - Each captured row carries the local transaction it belongs to and that transaction's
 *   hybrid-logical-clock timestamp, both set in sync_state at the start of every write transaction
 *   (the write-transaction hook below): the publisher sends one transaction's rows as one change.
 * - An insert or delete records the row whole (its columns but the derived ones), an update its
 *   changed columns before and after: the publisher sends a counter's change as a delta
 *   (changes.ts). An update of counters alone (the door's count of a customer's check-ins) has a
 *   trigger of its own, which records the counters without comparing the row column by column.
 * - The clock of each column an update sets, and of each unique value an insert sets, is kept in
 *   sync_clocks: a remote write older than it loses (apply.ts).
 */

/** A replicated table as the capture and apply code use it: its declaration and its columns. */
export interface CapturedTable extends ReplicatedTable {
  readonly name: string
  /** Every column sent: the table's columns but its derived ones, in the table's order. */
  readonly columns: readonly string[]
  /** The columns SQLite stores as BLOB: sent as hex text (JSON holds no bytes). */
  readonly blobColumns: readonly string[]
  /**
   * Whether its key is an `id INTEGER PRIMARY KEY`, which the site allocates (db/site-ids.ts); not
   * an add-on's id, which staff choose.
   */
  readonly siteAllocatesIds: boolean
}

const TRIGGER_PREFIX = 'sync_capture_'

/** The columns of each replicated table as this database has them (PRAGMA table_info). */
export function capturedTables(
  sqlite: BunDatabase,
  declared: Readonly<Record<string, ReplicatedTable>>,
): CapturedTable[] {
  return Object.entries(declared).map(([name, table]) => {
    const info = sqlite.query(`PRAGMA table_info(${quoteName(name)})`).all() as {
      name: string
      type: string
    }[]
    if (info.length === 0) throw new Error(`replicated table ${name} does not exist`)
    const derived = new Set(table.derivedColumns ?? [])
    const sent = info.filter((column) => !derived.has(column.name))
    return {
      ...table,
      name,
      columns: sent.map((column) => column.name),
      blobColumns: sent.filter((column) => column.type.toUpperCase() === 'BLOB').map((column) => column.name),
      siteAllocatesIds:
        table.key.length === 1 &&
        table.key[0] === 'id' &&
        info.find((column) => column.name === 'id')?.type.toUpperCase() === 'INTEGER',
    }
  })
}

/** Drops the capture triggers and makes them again for the tables as they are now. */
export function installCapture(sqlite: BunDatabase, tables: readonly CapturedTable[]): void {
  sqlite.transaction(() => {
    dropCaptureTriggers(sqlite)
    for (const table of tables) for (const statement of captureTriggers(table)) sqlite.run(statement)
  })()
}

export function dropCaptureTriggers(sqlite: BunDatabase): void {
  const triggers = sqlite
    .query(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '${TRIGGER_PREFIX}%'`)
    .all() as { name: string }[]
  for (const { name } of triggers) sqlite.run(`DROP TRIGGER ${quoteName(name)}`)
}

/**
 * Marks the start of each write transaction on `sqlite` (db/write-hooks.ts): a new transaction
 * number and a timestamp from the site's clock, which the capture triggers copy into each row.
 */
export function markWriteTransactions(sqlite: BunDatabase, clock: Hlc): void {
  setWriteTransactionHook(sqlite, () => {
    prepared(sqlite, 'UPDATE sync_state SET tx = tx + 1, hlc = ? WHERE id = 1').run(clock.now())
  })
}

export function stopMarkingWriteTransactions(sqlite: BunDatabase): void {
  setWriteTransactionHook(sqlite, undefined)
}

/**
 * The triggers of one table: insert, update and delete, and for a table with counters its counters'
 * own update (exported for the tests that read them).
 */
export function captureTriggers(table: CapturedTable): string[] {
  const name = quoteName(table.name)
  const literal = quoteText(table.name)
  const rowKey = (row: 'NEW' | 'OLD') =>
    `json_array(${table.key.map((k) => `${row}.${quoteName(k)}`).join(', ')})`
  const values = (row: 'NEW' | 'OLD') =>
    `json_object(${table.columns.map((c) => `${quoteText(c)}, ${columnValue(table, row, c)}`).join(', ')})`
  const notApplying = `(SELECT applying FROM sync_state WHERE id = 1) = 0`
  // An update records its changed columns alone, before and after: a customer's email changed at
  // the desk is one column of a wide row.
  const changedValues = (row: 'NEW' | 'OLD') =>
    `(SELECT json_group_object(name, value) FROM (${table.columns
      .map(
        (c) =>
          `SELECT ${quoteText(c)} AS name, ${columnValue(table, row, c)} AS value
           WHERE OLD.${quoteName(c)} IS NOT NEW.${quoteName(c)}`,
      )
      .join(' UNION ALL ')}))`
  const counters = new Set(table.counters ?? [])
  const anyChanged = (columns: readonly string[]) =>
    columns.length === 0
      ? '0'
      : columns.map((c) => `OLD.${quoteName(c)} IS NOT NEW.${quoteName(c)}`).join(' OR ')
  const counterColumns = table.columns.filter((c) => counters.has(c))
  const counterValues = (row: 'NEW' | 'OLD') =>
    `json_object(${counterColumns.map((c) => `${quoteText(c)}, ${row}.${quoteName(c)}`).join(', ')})`
  const otherChanged = anyChanged(table.columns.filter((c) => !counters.has(c)))
  const uniqueColumns = [...new Set((table.unique ?? []).flatMap((u) => u.columns))]
  // The clocks of the columns set, in one statement: a statement a column would run every one of
  // them (a table's forty, for the door's one) on every update.
  const clocksOf = (columns: readonly string[], when: (column: string) => string) =>
    columns.length === 0
      ? ''
      : `INSERT OR REPLACE INTO sync_clocks (table_name, row_key, column_name, hlc, site)
      SELECT ${literal}, ${rowKey('NEW')}, set_columns.name, sync_state.hlc, sync_state.site
      FROM sync_state JOIN (${columns
        .map((c) => `SELECT ${quoteText(c)} AS name WHERE ${when(c)}`)
        .join(' UNION ALL ')}) AS set_columns
      WHERE sync_state.id = 1;`
  const insertClocks = clocksOf(uniqueColumns, (c) => `NEW.${quoteName(c)} IS NOT NULL`)
  const updateClocks = clocksOf(
    table.columns.filter((c) => !counters.has(c) && !table.key.includes(c)),
    (c) => `OLD.${quoteName(c)} IS NOT NEW.${quoteName(c)}`,
  )
  const record = (op: string, key: string, oldValues: string, newValues: string) =>
    `INSERT INTO sync_outbox (tx, hlc, table_name, op, row_key, old_values, new_values)
      SELECT tx, hlc, ${literal}, '${op}', ${key}, ${oldValues}, ${newValues} FROM sync_state WHERE id = 1;`
  return [
    `CREATE TRIGGER ${quoteName(`${TRIGGER_PREFIX}${table.name}_insert`)} AFTER INSERT ON ${name}
    WHEN ${notApplying} BEGIN
      ${record('insert', rowKey('NEW'), 'NULL', values('NEW'))}
      ${insertClocks}
    END`,
    `CREATE TRIGGER ${quoteName(`${TRIGGER_PREFIX}${table.name}_update`)} AFTER UPDATE ON ${name}
    WHEN ${notApplying} AND (${otherChanged}) BEGIN
      ${record('update', rowKey('NEW'), changedValues('OLD'), changedValues('NEW'))}
      ${updateClocks}
    END`,
    // The door's update: its counters alone (a customer's check-in count). They travel as deltas
    // and keep no clock, so they are recorded alone, without the row's columns compared one by one.
    ...(counterColumns.length === 0
      ? []
      : [
          `CREATE TRIGGER ${quoteName(`${TRIGGER_PREFIX}${table.name}_update_counters`)}
          AFTER UPDATE OF ${counterColumns.map(quoteName).join(', ')} ON ${name}
          WHEN ${notApplying} AND (${anyChanged(counterColumns)}) AND NOT (${otherChanged}) BEGIN
            ${record('update', rowKey('NEW'), counterValues('OLD'), counterValues('NEW'))}
          END`,
        ]),
    `CREATE TRIGGER ${quoteName(`${TRIGGER_PREFIX}${table.name}_delete`)} AFTER DELETE ON ${name}
    WHEN ${notApplying} BEGIN
      ${record('delete', rowKey('OLD'), values('OLD'), 'NULL')}
      DELETE FROM sync_clocks WHERE table_name = ${literal} AND row_key = ${rowKey('OLD')};
    END`,
  ]
}

/** A column's value in JSON: a BLOB column's bytes as hex text (JSON holds no bytes). */
function columnValue(table: CapturedTable, row: 'NEW' | 'OLD', column: string): string {
  const value = `${row}.${quoteName(column)}`
  return table.blobColumns.includes(column)
    ? `CASE WHEN ${value} IS NULL THEN NULL ELSE hex(${value}) END`
    : value
}

export const quoteName = (name: string): string => `"${name.replaceAll('"', '""')}"`
const quoteText = (text: string): string => `'${text.replaceAll("'", "''")}'`
