import type { Database as BunDatabase, SQLQueryBindings } from 'bun:sqlite'
import { prepared } from '../../db/statements.ts'
import { quoteName, type CapturedTable } from './capture.ts'
import type { Change, RowChange } from './changes.ts'

/*
 * Apply: another site's change, made here in the transaction the caller holds, with nothing
 * captured (sync_state.applying), so it is not sent back. Every site applies the same stream in the
 * same order and decides each step from the rows and clocks alone, so every site ends with the
 * same rows:
 *
 * - an update sets a column only when its write is newer than the one that set the column here
 *   (hybrid logical clock, then site name: the last writer wins per column); a counter's delta is
 *   added, so two sites' decrements both count;
 * - an update or delete of a row that is not here (deleted here first) does nothing: a delete beats
 *   the updates it meets;
 * - a unique value two sites gave to two rows while apart stays with the row whose write was
 *   earlier; the other row's value is cleared (or the row refused), and a conflict is recorded.
 */

export type ApplyOutcome = 'applied' | 'already applied' | 'newer level'

export interface ApplyContext {
  sqlite: BunDatabase
  tables: ReadonlyMap<string, CapturedTable>
  /** This box's migration level: a change from a newer one is not applied. */
  level: number
  /** When, for the conflicts recorded. */
  now: string
}

/** Applies `change` inside the caller's write transaction. */
export function applyChange(context: ApplyContext, change: Change): ApplyOutcome {
  const { sqlite } = context
  if (change.level > context.level) return 'newer level'
  const applied = prepared(sqlite, 'SELECT change_seq FROM sync_applied WHERE site = ?').get(change.site) as {
    change_seq: number
  } | null
  if (applied && applied.change_seq >= change.seq) return 'already applied'
  prepared(sqlite, 'UPDATE sync_state SET applying = 1 WHERE id = 1').run()
  try {
    for (const row of change.rows) {
      const table = context.tables.get(row.table)
      // A table this level no longer replicates: its rows are not this box's to keep.
      if (!table) continue
      applyRow(context, table, change, row)
    }
    prepared(
      sqlite,
      `INSERT INTO sync_applied (site, change_seq) VALUES (?, ?)
       ON CONFLICT (site) DO UPDATE SET change_seq = excluded.change_seq`,
    ).run(change.site, change.seq)
  } finally {
    prepared(sqlite, 'UPDATE sync_state SET applying = 0 WHERE id = 1').run()
  }
  return 'applied'
}

/**
 * One row change, undone alone when the rows here refuse it (a constraint this site's rows break,
 * such as a refund above what is left of a payment both sites refunded while apart): recorded as a
 * conflict, and the stream goes on. Stopping there would hold every later change back for good.
 */
function applyRow(context: ApplyContext, table: CapturedTable, change: Change, row: RowChange): void {
  const { sqlite } = context
  prepared(sqlite, 'SAVEPOINT apply_row').run()
  try {
    if (row.op === 'insert') applyInsert(context, table, change, row)
    else if (row.op === 'update') applyUpdate(context, table, change, row)
    else deleteRow(sqlite, table, row.key)
  } catch (error) {
    if (!(
      error instanceof Error && String((error as { code?: string }).code).startsWith('SQLITE_CONSTRAINT')
    ))
      throw error
    prepared(sqlite, 'ROLLBACK TO apply_row').run()
    recordConflict(context, {
      table: table.name,
      columns: Object.keys({ ...row.values, ...row.deltas }),
      value: error.message,
      keptKey: row.key,
      lostKey: row.key,
      lostSite: change.site,
      resolution: 'not applied',
    })
  } finally {
    prepared(sqlite, 'RELEASE apply_row').run()
  }
}

function applyInsert(context: ApplyContext, table: CapturedTable, change: Change, row: RowChange): void {
  const { sqlite } = context
  if (rowExists(sqlite, table, row.key)) return applyUpdate(context, table, change, row)
  const values = decodeBlobs(table, { ...row.values })
  for (const unique of table.unique ?? []) {
    const kept = resolveUnique(context, table, change, row.key, unique, values)
    if (kept === 'refused') return
  }
  const columns = table.columns.filter((column) => column in values)
  prepared(
    sqlite,
    `INSERT INTO ${quoteName(table.name)} (${columns.map(quoteName).join(', ')})
     VALUES (${columns.map(() => '?').join(', ')})`,
  ).run(...columns.map((column) => values[column] as SQLQueryBindings))
  for (const column of new Set((table.unique ?? []).flatMap((unique) => unique.columns)))
    if (values[column] !== null && values[column] !== undefined)
      setClock(sqlite, table, row.key, column, change)
}

function applyUpdate(context: ApplyContext, table: CapturedTable, change: Change, row: RowChange): void {
  const { sqlite } = context
  if (!rowExists(sqlite, table, row.key)) return
  const incoming = decodeBlobs(table, { ...row.values })
  const newer: Record<string, unknown> = {}
  for (const column of Object.keys(incoming)) {
    if (!table.columns.includes(column) || table.key.includes(column)) continue
    if (isNewer(change, clockOf(sqlite, table, row.key, column))) newer[column] = incoming[column]
  }
  for (const unique of table.unique ?? []) {
    if (!unique.columns.some((column) => column in newer)) continue
    const after = { ...currentValues(sqlite, table, row.key, unique.columns), ...newer }
    if (resolveUnique(context, table, change, row.key, unique, after) === 'refused') {
      for (const column of unique.columns) delete newer[column]
    } else for (const column of unique.columns) if (column in newer) newer[column] = after[column]
  }
  const deltas = Object.entries(row.deltas ?? {}).filter(([column]) => table.columns.includes(column))
  const sets = [
    ...Object.keys(newer).map((column) => `${quoteName(column)} = ?`),
    // Every counter counts something left or used (entries, credit, uses, refunds): never below
    // zero. Two sites that both took the last entry while apart end at zero everywhere.
    ...deltas.map(([column]) => `${quoteName(column)} = max(${quoteName(column)} + ?, 0)`),
  ]
  if (sets.length === 0) return
  prepared(sqlite, `UPDATE ${quoteName(table.name)} SET ${sets.join(', ')} WHERE ${keyWhere(table)}`).run(
    ...(Object.values(newer) as SQLQueryBindings[]),
    ...deltas.map(([, delta]) => delta),
    ...(row.key as SQLQueryBindings[]),
  )
  for (const column of Object.keys(newer)) setClock(sqlite, table, row.key, column, change)
}

function deleteRow(sqlite: BunDatabase, table: CapturedTable, key: unknown[]): void {
  prepared(sqlite, `DELETE FROM ${quoteName(table.name)} WHERE ${keyWhere(table)}`).run(
    ...(key as SQLQueryBindings[]),
  )
  prepared(sqlite, 'DELETE FROM sync_clocks WHERE table_name = ? AND row_key = ?').run(
    table.name,
    JSON.stringify(key),
  )
}

/**
 * A unique value the incoming row is given, already held by another row here: the earlier write
 * keeps it. `values` is changed in place when the incoming row loses it ('clear'); 'refused' when
 * the incoming row may not be written at all.
 */
function resolveUnique(
  context: ApplyContext,
  table: CapturedTable,
  change: Change,
  key: unknown[],
  unique: NonNullable<CapturedTable['unique']>[number],
  values: Record<string, unknown>,
): 'kept' | 'cleared' | 'refused' {
  const { sqlite } = context
  const wanted = unique.columns.map((column) => values[column])
  if (wanted.some((value) => value === null || value === undefined)) return 'kept'
  const holder = prepared(
    sqlite,
    `SELECT json_array(${table.key.map(quoteName).join(', ')}) AS row_key FROM ${quoteName(table.name)}
     WHERE ${unique.columns.map((column) => `${quoteName(column)} = ?`).join(' AND ')}
       AND NOT (${keyWhere(table)})`,
  ).get(...(wanted as SQLQueryBindings[]), ...(key as SQLQueryBindings[])) as { row_key: string } | null
  if (!holder) return 'kept'
  const holderKey = JSON.parse(holder.row_key) as unknown[]
  const holderClock = clockOf(sqlite, table, holderKey, unique.columns[0]!)
  const incomingEarlier =
    holderClock !== null &&
    isNewer(
      { hlc: holderClock.hlc, site: holderClock.site },
      {
        hlc: change.hlc,
        site: change.site,
      },
    )
  const record = (keptKey: unknown[], lostKey: unknown[], lostSite: string, resolution: Resolution) =>
    recordConflict(context, {
      table: table.name,
      columns: unique.columns,
      value: wanted.map(String).join(', '),
      keptKey,
      lostKey,
      lostSite,
      resolution,
    })
  if (!incomingEarlier) {
    // The row here was given the value first: the incoming one loses it.
    if (unique.loser === 'refuse') {
      record(holderKey, key, change.site, 'refused')
      return 'refused'
    }
    for (const column of unique.columns) values[column] = null
    record(holderKey, key, change.site, 'cleared')
    return 'cleared'
  }
  // The incoming row was given it first: the row here loses it, at every site alike.
  const lostSite = holderClock!.site
  if (unique.loser === 'refuse') {
    deleteRow(sqlite, table, holderKey)
    record(key, holderKey, lostSite, 'refused')
  } else {
    prepared(
      sqlite,
      `UPDATE ${quoteName(table.name)} SET ${unique.columns.map((c) => `${quoteName(c)} = NULL`).join(', ')}
       WHERE ${keyWhere(table)}`,
    ).run(...(holderKey as SQLQueryBindings[]))
    record(key, holderKey, lostSite, 'cleared')
  }
  return 'kept'
}

type Resolution = 'cleared' | 'refused' | 'not applied'

function recordConflict(
  context: ApplyContext,
  conflict: {
    table: string
    columns: readonly string[]
    value: string
    keptKey: unknown[]
    lostKey: unknown[]
    lostSite: string
    resolution: Resolution
  },
): void {
  prepared(
    context.sqlite,
    `INSERT INTO sync_conflicts
       (detected_at, table_name, column_names, value, kept_row_key, lost_row_key, lost_site, resolution)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    context.now,
    conflict.table,
    JSON.stringify(conflict.columns),
    conflict.value,
    JSON.stringify(conflict.keptKey),
    JSON.stringify(conflict.lostKey),
    conflict.lostSite,
    conflict.resolution,
  )
}

interface Stamp {
  hlc: string
  site: string
}

/** Whether `write` is later than `than` (none: the row's insert, older than any update). */
const isNewer = (write: Stamp, than: Stamp | null): boolean =>
  than === null || write.hlc > than.hlc || (write.hlc === than.hlc && write.site > than.site)

function clockOf(sqlite: BunDatabase, table: CapturedTable, key: unknown[], column: string): Stamp | null {
  return prepared(
    sqlite,
    'SELECT hlc, site FROM sync_clocks WHERE table_name = ? AND row_key = ? AND column_name = ?',
  ).get(table.name, JSON.stringify(key), column) as Stamp | null
}

function setClock(
  sqlite: BunDatabase,
  table: CapturedTable,
  key: unknown[],
  column: string,
  at: Stamp,
): void {
  prepared(
    sqlite,
    `INSERT OR REPLACE INTO sync_clocks (table_name, row_key, column_name, hlc, site) VALUES (?, ?, ?, ?, ?)`,
  ).run(table.name, JSON.stringify(key), column, at.hlc, at.site)
}

function rowExists(sqlite: BunDatabase, table: CapturedTable, key: unknown[]): boolean {
  return (
    prepared(sqlite, `SELECT 1 AS found FROM ${quoteName(table.name)} WHERE ${keyWhere(table)}`).get(
      ...(key as SQLQueryBindings[]),
    ) !== null
  )
}

function currentValues(
  sqlite: BunDatabase,
  table: CapturedTable,
  key: unknown[],
  columns: readonly string[],
): Record<string, unknown> {
  return prepared(
    sqlite,
    `SELECT ${columns.map(quoteName).join(', ')} FROM ${quoteName(table.name)} WHERE ${keyWhere(table)}`,
  ).get(...(key as SQLQueryBindings[])) as Record<string, unknown>
}

const keyWhere = (table: CapturedTable): string => table.key.map((k) => `${quoteName(k)} = ?`).join(' AND ')

/** A BLOB column's bytes travel as hex text (capture.ts). */
function decodeBlobs(table: CapturedTable, values: Record<string, unknown>): Record<string, unknown> {
  for (const column of table.blobColumns) {
    const value = values[column]
    if (typeof value === 'string') values[column] = Buffer.from(value, 'hex')
  }
  return values
}
