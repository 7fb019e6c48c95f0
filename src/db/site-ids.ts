import type { Database as BunDatabase } from 'bun:sqlite'
import {
  ColumnNode,
  InsertQueryNode,
  PrimitiveValueListNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
  type KyselyPlugin,
  type RootOperationNode,
} from 'kysely'

/**
 * Ids only this box can allocate, on a box that is a site of a hub (src/core/sites/): every box
 * makes rows, and the rows travel with their ids (the API's URLs are built from them), so two boxes
 * must never pick the same id. Site number n allocates ids congruent to n modulo 1024, above every
 * id its table holds: the ids a box had before it became a site stay as they were.
 *
 * SQLite would pick max(id) + 1 by itself; on a site, each insert into a table allocated here is
 * given its id first: by the Kysely plugin below for the API's inserts, and by `nextSiteId` for the
 * statements compiled once (the door's check-in). A box without a hub registers nothing, and its
 * inserts are exactly as before.
 */
export const SITE_ID_MODULUS = 1024

interface SiteIds {
  siteNumber: number
  tables: ReadonlySet<string>
  /** The last id given per table, so two inserts built before either runs get two ids. */
  last: Map<string, number>
}

const allocators = new WeakMap<BunDatabase, SiteIds>()

export function allocateSiteIds(sqlite: BunDatabase, siteNumber: number, tables: Iterable<string>): void {
  if (!Number.isInteger(siteNumber) || siteNumber < 1 || siteNumber >= SITE_ID_MODULUS)
    throw new Error(`a site number is 1 to ${SITE_ID_MODULUS - 1}, not ${siteNumber}`)
  allocators.set(sqlite, { siteNumber, tables: new Set(tables), last: new Map() })
}

export function stopAllocatingSiteIds(sqlite: BunDatabase): void {
  allocators.delete(sqlite)
}

/** The smallest id above `above` that is the site's: congruent to its number modulo 1024. */
export function siteIdAbove(above: number, siteNumber: number): number {
  const base = above - (((above % SITE_ID_MODULUS) + SITE_ID_MODULUS) % SITE_ID_MODULUS)
  const candidate = base + siteNumber
  return candidate > above ? candidate : candidate + SITE_ID_MODULUS
}

/**
 * The next id of `table` for this site, or null on a box that is not one (or for a table whose
 * ids it does not allocate): SQLite then picks as it always has.
 */
export function nextSiteId(sqlite: BunDatabase, table: string): number | null {
  const ids = allocators.get(sqlite)
  if (!ids || !ids.tables.has(table)) return null
  const { max } = sqlite.query(`SELECT coalesce(max(id), 0) AS max FROM "${table}"`).get() as { max: number }
  const id = siteIdAbove(Math.max(max, ids.last.get(table) ?? 0), ids.siteNumber)
  ids.last.set(table, id)
  return id
}

/** Gives each row of an INSERT ... VALUES into an allocated table its site id, unless it names one. */
export function siteIdsPlugin(sqlite: BunDatabase): KyselyPlugin {
  return {
    transformQuery: ({ node }) => (allocators.has(sqlite) ? withSiteIds(sqlite, node) : node),
    transformResult: async ({ result }) => result,
  }
}

function withSiteIds(sqlite: BunDatabase, node: RootOperationNode): RootOperationNode {
  if (!InsertQueryNode.is(node) || !node.into || !node.columns || !node.values) return node
  if (!ValuesNode.is(node.values)) return node
  const table = node.into.table.identifier.name
  if (!allocators.get(sqlite)?.tables.has(table)) return node
  if (node.columns.some((column) => column.column.name === 'id')) return node
  const rows = node.values.values.map((row) => {
    const id = nextSiteId(sqlite, table)!
    return PrimitiveValueListNode.is(row)
      ? PrimitiveValueListNode.create([...row.values, id])
      : ValueListNode.create([...row.values, ValueNode.create(id)])
  })
  return InsertQueryNode.cloneWith(node, {
    columns: [...node.columns, ColumnNode.create('id')],
    values: ValuesNode.create(rows),
  })
}
