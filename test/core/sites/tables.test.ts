import type { Database as BunDatabase } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import {
  isSqliteOwnTable,
  replicatedTables,
  tableDeclaration,
  TABLES,
  tablesWithRole,
  type NamedReplicatedTable,
} from '../../../src/core/sites/tables.ts'
import type { Connection } from '../../../src/db/connection.ts'
import { openMigratedMemory } from '../../helpers/migrated-memory.ts'

/*
 * The declaration of every table for replication (src/core/sites/tables.ts) read against the
 * migrated schema itself: no table is left undeclared, and what a replicated table's declaration
 * names (its key, counters, derived columns, unique values) is what its table holds.
 */

let connection: Connection
let sqlite: BunDatabase
beforeAll(async () => {
  connection = await openMigratedMemory()
  sqlite = connection.sqlite
})
afterAll(() => connection.close())

const WHERE_TO_DECLARE = 'declare them in src/core/sites/tables.ts as replicated, derived or local'
const UNIQUE_ENTRY = 'give each a `unique` entry, with its loser, in src/core/sites/tables.ts'

/** The schema's tables (virtual tables and their shadow tables included), SQLite's own left out. */
const schemaTables = (): string[] =>
  sqlite
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => row.name)
    .filter((name) => !isSqliteOwnTable(name))

interface ColumnInfo {
  name: string
  type: string
  notnull: number
  pk: number
}
const columnsOf = (table: string): ColumnInfo[] =>
  sqlite.query<ColumnInfo, [string]>('SELECT name, type, "notnull", pk FROM pragma_table_info(?)').all(table)

/** The primary key's columns, in the key's order. */
const primaryKeyOf = (table: string): string[] =>
  columnsOf(table)
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name)

interface UniqueIndex {
  name: string
  /** 'pk' for a primary key's own index, 'u' for a UNIQUE constraint, 'c' for CREATE UNIQUE INDEX */
  origin: string
  columns: string[]
}
const uniqueIndexesOf = (table: string): UniqueIndex[] =>
  sqlite
    .query<{ name: string; origin: string }, [string]>(
      'SELECT name, origin FROM pragma_index_list(?) WHERE "unique" = 1 ORDER BY name',
    )
    .all(table)
    .map(({ name, origin }) => ({
      name,
      origin,
      columns: sqlite
        .query<{ name: string }, [string]>('SELECT name FROM pragma_index_info(?) ORDER BY seqno')
        .all(name)
        .map((c) => c.name),
    }))

const sameColumns = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join()

const namedColumns = (t: NamedReplicatedTable) => [
  ...t.key,
  ...(t.counters ?? []),
  ...(t.derivedColumns ?? []),
  ...(t.unique ?? []).flatMap((u) => u.columns),
]

describe('every table is declared', () => {
  test('every table of the schema is declared replicated, derived or local', () => {
    const undeclared = schemaTables().filter((name) => tableDeclaration(name) === undefined)
    expect(undeclared, `Undeclared tables: ${undeclared.join(', ')}; ${WHERE_TO_DECLARE}`).toEqual([])
  })

  test('every declared table exists', () => {
    const tables = new Set(schemaTables())
    expect(Object.keys(TABLES).filter((name) => !tables.has(name))).toEqual([])
  })

  test('the full-text search table and the tables SQLite keeps it in are derived', () => {
    const virtual = sqlite
      .query<{ name: string }, []>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name",
      )
      .all()
      .map((row) => row.name)
    expect(virtual).toEqual(['invoice_search'])
    const fts = schemaTables().filter(
      (name) => name === 'invoice_search' || name.startsWith('invoice_search_'),
    )
    expect(fts).toEqual([
      'invoice_search',
      'invoice_search_config',
      'invoice_search_data',
      'invoice_search_docsize',
      'invoice_search_idx',
    ])
    expect(fts.map((name) => tableDeclaration(name)?.role)).toEqual(fts.map(() => 'derived'))
  })

  test('SQLite’s own tables are left out, and only they', () => {
    const own = sqlite
      .query<{ name: string }, []>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'sqlite\\_%' ESCAPE '\\'",
      )
      .all()
      .map((row) => row.name)
    // webhook_events' AUTOINCREMENT keeps its highest id there.
    expect(own).toEqual(['sqlite_sequence'])
    expect(isSqliteOwnTable('sqlite_stat1')).toBe(true)
    expect(isSqliteOwnTable('sites')).toBe(false)
  })

  test('each role lists its tables, and the three together are every declared table', () => {
    const roles = ['replicated', 'derived', 'local'] as const
    expect(roles.flatMap((role) => tablesWithRole(role)).sort()).toEqual(Object.keys(TABLES).sort())
    expect(replicatedTables().map((t) => t.name)).toEqual(tablesWithRole('replicated'))
    expect(tablesWithRole('local')).toEqual([
      'auth_sessions',
      'auth_tokens',
      'import_progress',
      'schema_migrations',
      'sync_applied',
      'sync_clocks',
      'sync_outbox',
      'sync_state',
      'webhook_deliveries',
      'webhook_events',
    ])
  })
})

describe('a replicated table’s declaration matches its table', () => {
  test('every column named in a declaration is a column of its table', () => {
    const unknown = replicatedTables().flatMap((t) => {
      const columns = new Set(columnsOf(t.name).map((c) => c.name))
      return namedColumns(t)
        .filter((column) => !columns.has(column))
        .map((column) => `${t.name}.${column}`)
    })
    expect(unknown).toEqual([])
  })

  test('every key is its table’s primary key or one of its unique indexes', () => {
    const notKeys = replicatedTables()
      .filter((t) => {
        const primaryKey = primaryKeyOf(t.name)
        const isPrimaryKey = primaryKey.length === t.key.length && primaryKey.every((c, i) => c === t.key[i])
        return !isPrimaryKey && !uniqueIndexesOf(t.name).some((index) => sameColumns(index.columns, t.key))
      })
      .map((t) => `${t.name} (${t.key.join(', ')})`)
    expect(notKeys).toEqual([])
  })

  test('every unique index is the key or a declared unique value, and every unique value an index', () => {
    const undeclared = replicatedTables().flatMap((t) =>
      uniqueIndexesOf(t.name)
        .filter((index) => !sameColumns(index.columns, t.key))
        .filter((index) => !(t.unique ?? []).some((u) => sameColumns(u.columns, index.columns)))
        .map((index) => `${t.name}: ${index.name} (${index.columns.join(', ')})`),
    )
    expect(undeclared, `Unique indexes without a unique entry (${UNIQUE_ENTRY})`).toEqual([])
    const notIndexed = replicatedTables().flatMap((t) =>
      (t.unique ?? [])
        .filter((u) => !uniqueIndexesOf(t.name).some((index) => sameColumns(index.columns, u.columns)))
        .map((u) => `${t.name} (${u.columns.join(', ')})`),
    )
    expect(notIndexed).toEqual([])
  })

  test('a unique value is cleared only from nullable columns', () => {
    const notNullCleared = replicatedTables().flatMap((t) => {
      const notNull = new Set(
        columnsOf(t.name)
          .filter((c) => c.notnull === 1 || c.pk > 0)
          .map((c) => c.name),
      )
      return (t.unique ?? [])
        .filter((u) => u.loser === 'clear')
        .flatMap((u) => u.columns.filter((c) => notNull.has(c)).map((c) => `${t.name}.${c}`))
    })
    expect(notNullCleared).toEqual([])
  })

  test('counters are numbers, neither key nor derived', () => {
    const notNumbers = replicatedTables().flatMap((t) => {
      const types = new Map(columnsOf(t.name).map((c) => [c.name, c.type]))
      return (t.counters ?? [])
        .filter((c) => !['INTEGER', 'REAL'].includes(types.get(c) ?? ''))
        .map((c) => `${t.name}.${c}`)
    })
    expect(notNumbers).toEqual([])
    const alsoKeyOrDerived = replicatedTables().flatMap((t) =>
      (t.counters ?? [])
        .filter((c) => t.key.includes(c) || (t.derivedColumns ?? []).includes(c))
        .map((c) => `${t.name}.${c}`),
    )
    expect(alsoKeyOrDerived).toEqual([])
  })
})

const ROOT = resolve(import.meta.dir, '../../..')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return path.endsWith('/web') ? [] : sourceFiles(path)
    return name.endsWith('.ts') ? [path] : []
  })
}

/**
 * Every `table.column` a statement in `text` adds to or takes from in place: Kysely's
 * `eb('column', '+' | '-', ...)` under the nearest `updateTable('table')` before it, and SQL's
 * `column = column + ...` under the nearest `UPDATE table` or `INSERT INTO table`.
 */
function inPlaceArithmetic(text: string): string[] {
  const found = new Set<string>()
  const pattern =
    /updateTable\('(\w+)'\)|\b(?<!DO\s+)(?:UPDATE|INSERT\s+INTO)\s+(\w+)|eb\('(\w+)', '[-+]'|\b(\w+)\s*=\s*(\w+)\s*[-+]/g
  let table: string | undefined
  for (const m of text.matchAll(pattern)) {
    if (m[1] !== undefined || m[2] !== undefined) table = m[1] ?? m[2]
    else if (m[3] !== undefined && table) found.add(`${table}.${m[3]}`)
    else if (m[4] !== undefined && m[4] === m[5] && table) found.add(`${table}.${m[4]}`)
  }
  return [...found]
}

describe('counters are the columns the code changes in place', () => {
  test('reading a statement finds the column it adds to, under its table', () => {
    expect(
      inPlaceArithmetic(`db.updateTable('customers').set((eb) => ({ check_in_count: eb('check_in_count', '+', 1) }))
        sql\`INSERT INTO check_in_day_counts VALUES (1) ON CONFLICT DO UPDATE SET check_ins = check_ins + 1\``),
    ).toEqual(['customers.check_in_count', 'check_in_day_counts.check_ins'])
  })

  test('every column of a replicated table that the code adds to or takes from is a counter, and only they', () => {
    const changedInPlace = sourceFiles(join(ROOT, 'src'))
      .flatMap((path) => inPlaceArithmetic(readFileSync(path, 'utf8')))
      .filter((column) => tableDeclaration(column.split('.')[0]!)?.role === 'replicated')
    const counters = replicatedTables().flatMap((t) => (t.counters ?? []).map((c) => `${t.name}.${c}`))
    expect([...new Set(changedInPlace)].sort()).toEqual(counters.sort())
    expect(counters.sort()).toEqual([
      'customer_credits.amount_remaining_cents',
      'customer_entry_passes.entries_remaining',
      'customer_event_vouchers.number_of_uses_remaining',
      'customers.check_in_count',
      'payments.amount_refunded_cents',
    ])
  })
})

interface TriggerWrite {
  table: string
  kind: 'update' | 'insert' | 'delete'
  /** the columns an UPDATE sets */
  columns: string[]
}

const STATEMENT_END = new Set(['WHERE', 'FROM', 'RETURNING', 'ORDER', 'LIMIT', ';'])
const unquote = (token: string) => token.replace(/^["'`[](.*)["'`\]]$/, '$1')

/**
 * The tables a trigger's body writes, and the columns its UPDATEs set (an upsert's DO UPDATE
 * writes the table it inserts into, so it is the INSERT's). Read token by token, so names
 * in strings, subqueries and CASE expressions are not taken for assignments.
 */
function triggerWrites(sql: string): TriggerWrite[] {
  const tokens = sql.replace(/--[^\n]*/g, '').match(/'(?:[^']|'')*'|"[^"]*"|[A-Za-z_][\w$]*|\S/g) ?? []
  const upper = (i: number) => tokens[i]?.toUpperCase()
  const writes: TriggerWrite[] = []
  let i = tokens.findIndex((token) => token.toUpperCase() === 'BEGIN')
  if (i < 0) return writes
  for (i += 1; i < tokens.length; i++) {
    if (upper(i) === 'DELETE' && upper(i + 1) === 'FROM') {
      writes.push({ table: unquote(tokens[i + 2]!), kind: 'delete', columns: [] })
    } else if ((upper(i) === 'INSERT' || upper(i) === 'REPLACE') && upper(i - 1) !== 'OR') {
      let j = i + 1
      while (j < tokens.length && upper(j) !== 'INTO') j++
      writes.push({ table: unquote(tokens[j + 1]!), kind: 'insert', columns: [] })
    } else if (upper(i) === 'UPDATE' && upper(i - 1) !== 'DO') {
      let j = i + 1
      if (upper(j) === 'OR') j += 2
      const table = unquote(tokens[j]!)
      if (upper(j + 1) !== 'SET') continue
      const columns: string[] = []
      let k = j + 2
      // One assignment after another: `column = expression` or `(columns) = (expressions)`.
      for (;;) {
        if (tokens[k] === '(') {
          for (k += 1; tokens[k] !== ')'; k++) if (tokens[k] !== ',') columns.push(unquote(tokens[k]!))
        } else columns.push(unquote(tokens[k]!))
        let depth = 0
        let cases = 0
        for (k += 2; k < tokens.length; k++) {
          const token = upper(k)!
          if (token === '(') depth++
          else if (token === ')') depth--
          else if (token === 'CASE') cases++
          else if (token === 'END' && cases > 0) cases--
          else if (
            depth === 0 &&
            cases === 0 &&
            (token === ',' || token === 'END' || STATEMENT_END.has(token))
          )
            break
        }
        if (tokens[k] !== ',') break
        k += 1
      }
      writes.push({ table, kind: 'update', columns })
      i = k
    }
  }
  return writes
}

describe('triggers keep only derived tables and derived columns', () => {
  test('reading a trigger finds each table it writes and the columns its updates set', () => {
    const sql = `CREATE TRIGGER t AFTER UPDATE OF customer_id, local_date ON check_ins BEGIN
      -- UPDATE gyms SET name = 'x'
      UPDATE customers SET latest_check_in_date = CASE WHEN new.local_date > 'a, b' THEN new.local_date END,
        (first_name, "last_name") = (SELECT first_name, last_name FROM staff_users WHERE id = 1)
        WHERE id = new.customer_id;
      INSERT OR REPLACE INTO invoice_search (rowid) SELECT id FROM invoices WHERE id = new.id;
      INSERT INTO check_in_day_counts (day) VALUES (new.local_date)
        ON CONFLICT DO UPDATE SET check_ins = check_ins + 1;
      DELETE FROM same_day_check_ins WHERE check_in_id = old.id;
      UPDATE OR IGNORE "gifts" SET code = upper(code);
    END`
    expect(triggerWrites(sql)).toEqual([
      { table: 'customers', kind: 'update', columns: ['latest_check_in_date', 'first_name', 'last_name'] },
      { table: 'invoice_search', kind: 'insert', columns: [] },
      { table: 'check_in_day_counts', kind: 'insert', columns: [] },
      { table: 'same_day_check_ins', kind: 'delete', columns: [] },
      { table: 'gifts', kind: 'update', columns: ['code'] },
    ])
  })

  const triggers = () =>
    sqlite
      .query<{ name: string; sql: string }, []>(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name",
      )
      .all()

  test('the schema’s triggers write only derived tables', () => {
    const written = [...new Set(triggers().flatMap((t) => triggerWrites(t.sql).map((w) => w.table)))].sort()
    expect(written).toEqual([
      'check_in_day_counts',
      'check_in_local_times',
      'check_in_metrics_late',
      'check_in_metrics_state',
      'customer_first_visit_days',
      'invoice_search',
      'membership_rollup_state',
      'revenue_entries',
      'same_day_check_ins',
    ])
    expect(written.map((table) => tableDeclaration(table)?.role)).toEqual(written.map(() => 'derived'))
  })

  test('a trigger writes a replicated table only in its derived columns, never whole rows', () => {
    const breaches = triggers().flatMap((trigger) =>
      triggerWrites(trigger.sql).flatMap((write) => {
        const declared = tableDeclaration(write.table)
        if (declared?.role !== 'replicated') return []
        if (write.kind !== 'update') return [`${trigger.name}: ${write.kind} on ${write.table}`]
        return write.columns
          .filter((column) => !(declared.derivedColumns ?? []).includes(column))
          .map((column) => `${trigger.name}: ${write.table}.${column} is not in its derivedColumns`)
      }),
    )
    expect(breaches).toEqual([])
  })
})
