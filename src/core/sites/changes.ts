import type { Database as BunDatabase } from 'bun:sqlite'
import { prepared } from '../../db/statements.ts'
import type { CapturedTable } from './capture.ts'

/**
 * One committed local transaction's row changes on replicated tables, as it travels to the other
 * sites and is applied there in one transaction: a sale arrives whole or not at all.
 */
export interface Change {
  /** The site that made it. */
  site: string
  /** Its sequence at that site: the first outbox row's; never reused, so applying is idempotent. */
  seq: number
  /** The last outbox row it holds (the publisher deletes up to it once the hub has it). */
  lastSeq: number
  /** When it was made, by the site's hybrid logical clock. */
  hlc: string
  /** How many migrations the site had applied: a site behind that level stops applying. */
  level: number
  rows: RowChange[]
}

export interface RowChange {
  table: string
  op: 'insert' | 'update' | 'delete'
  /** The row's key values, in the declaration's key order. */
  key: unknown[]
  /** Insert: every sent column. Update: the changed columns but the counters. */
  values?: Record<string, unknown>
  /** Update: how much each changed counter moved, added where it is applied. */
  deltas?: Record<string, number>
}

interface OutboxRow {
  seq: number
  tx: number
  hlc: string
  table_name: string
  op: RowChange['op']
  row_key: string
  old_values: string | null
  new_values: string | null
}

/**
 * The oldest unsent changes, from at most about `maxRows` outbox rows after `acknowledgedThrough`
 * (rows the hub has, not yet forgotten): the rows grouped by the transaction that wrote them (a
 * transaction's rows are consecutive: one writer at a time). A group the row limit may have cut is
 * left for the next call, unless it is the only one, which is then read whole: a change is never
 * split.
 */
export function unsentChanges(
  sqlite: BunDatabase,
  tables: ReadonlyMap<string, CapturedTable>,
  origin: { site: string; level: number },
  maxRows: number,
  acknowledgedThrough = 0,
): Change[] {
  const columns = 'seq, tx, hlc, table_name, op, row_key, old_values, new_values'
  let rows = prepared(sqlite, `SELECT ${columns} FROM sync_outbox WHERE seq > ? ORDER BY seq LIMIT ?`).all(
    acknowledgedThrough,
    maxRows + 1,
  ) as OutboxRow[]
  if (rows.length > maxRows) {
    const lastTx = rows.at(-1)!.tx
    const whole = rows.filter((row) => row.tx !== lastTx)
    rows =
      whole.length > 0
        ? whole
        : (prepared(sqlite, `SELECT ${columns} FROM sync_outbox WHERE tx = ? ORDER BY seq`).all(
            lastTx,
          ) as OutboxRow[])
  }
  const changes: Change[] = []
  let tx: number | undefined
  for (const row of rows) {
    if (row.tx !== tx) {
      tx = row.tx
      changes.push({
        site: origin.site,
        seq: row.seq,
        lastSeq: row.seq,
        hlc: row.hlc,
        level: origin.level,
        rows: [],
      })
    }
    const change = changes.at(-1)!
    change.lastSeq = row.seq
    change.rows.push(toRowChange(row, tables.get(row.table_name)))
  }
  return changes
}

/** The hub has the changes up to `change`: their rows leave the outbox. */
export function forgetSent(sqlite: BunDatabase, change: Pick<Change, 'lastSeq'>): void {
  prepared(sqlite, 'DELETE FROM sync_outbox WHERE seq <= ?').run(change.lastSeq)
}

/**
 * How many row changes wait to be sent (after `acknowledgedThrough`, as unsentChanges), and since
 * when (the oldest's timestamp).
 */
export function unsentBacklog(
  sqlite: BunDatabase,
  acknowledgedThrough = 0,
): { rows: number; oldestHlc: string | null } {
  const row = prepared(sqlite, 'SELECT count(*) AS n, min(hlc) AS oldest FROM sync_outbox WHERE seq > ?').get(
    acknowledgedThrough,
  ) as {
    n: number
    oldest: string | null
  }
  return { rows: row.n, oldestHlc: row.oldest }
}

function toRowChange(row: OutboxRow, table: CapturedTable | undefined): RowChange {
  const key = JSON.parse(row.row_key) as unknown[]
  if (row.op === 'delete') return { table: row.table_name, op: 'delete', key }
  const after = JSON.parse(row.new_values!) as Record<string, unknown>
  // A table no longer replicated since the row was captured (an upgrade changed the list): sent
  // as it was captured.
  if (row.op === 'insert' || !table) return { table: row.table_name, op: row.op, key, values: after }
  const before = JSON.parse(row.old_values!) as Record<string, unknown>
  const counters = new Set(table.counters ?? [])
  const values: Record<string, unknown> = {}
  const deltas: Record<string, number> = {}
  for (const column of Object.keys(after)) {
    if (sameJson(before[column], after[column])) continue
    if (counters.has(column) && typeof before[column] === 'number' && typeof after[column] === 'number')
      deltas[column] = (after[column] as number) - (before[column] as number)
    else values[column] = after[column]
  }
  const change: RowChange = { table: row.table_name, op: 'update', key, values }
  if (Object.keys(deltas).length > 0) change.deltas = deltas
  return change
}

const sameJson = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b))
