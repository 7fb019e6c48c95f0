import { sql, type Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { SyncConflictTable } from '../../db/tables/sites.ts'

export type ConflictRow = Selectable<SyncConflictTable>

export interface ConflictFilters {
  table?: string
  lost_site?: string
  customer_id?: number
}

/** A customer's row key as sync_conflicts stores it: the JSON array of the key, `[id]`. */
const customerKey = (id: number | ReturnType<typeof sql.ref>) => sql<string>`json_array(${id})`

function filtered(db: Db, filters: ConflictFilters) {
  let query = db.selectFrom('sync_conflicts')
  if (filters.table !== undefined) query = query.where('table_name', '=', filters.table)
  if (filters.lost_site !== undefined) query = query.where('lost_site', '=', filters.lost_site)
  if (filters.customer_id !== undefined)
    query = query
      .where('table_name', '=', 'customers')
      .where('lost_row_key', '=', customerKey(filters.customer_id))
  return query
}

/** Newest first: conflicts are numbered as this box meets them. */
export const listConflicts = (db: Db, filters: ConflictFilters): ListSource<ConflictRow> =>
  listFrom(filtered(db, filters), {
    order: (query) => query.orderBy('id', 'desc'),
    rows: (page) => page.selectAll().execute(),
  })

export const getConflict = (db: Db, id: number): Promise<ConflictRow | undefined> =>
  db.selectFrom('sync_conflicts').selectAll().where('id', '=', id).executeTakeFirst()

export async function countConflicts(db: Db): Promise<number> {
  const row = await db
    .selectFrom('sync_conflicts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** One barcode a customer lost to another customer, as the customer's record shows it. */
export interface CustomerConflict {
  value: string
  site: string
  detected_at: string
  kept_by_customer_id: number
  kept_by_customer_name: string | null
}

/**
 * The barcodes customers lost to another customer and have not been given a new one since, one row
 * per such customer (`customer_id`, `conflicts`: a JSON array), to be joined to the customers read.
 * One pass over the customers' conflicts per statement, however many customers it reads: the table
 * is empty on a box without a hub, and holds a few rows on a site.
 */
export const lostCustomerValues = (db: Db) => {
  const keptId = sql<number>`json_extract(sync_conflicts.kept_row_key, '$[0]')`
  const lostId = sql<number>`json_extract(sync_conflicts.lost_row_key, '$[0]')`
  return (
    db
      .selectFrom('sync_conflicts')
      .select([
        lostId.as('customer_id'),
        sql<string>`json_group_array(json_object(
        'value', sync_conflicts.value,
        'site', sync_conflicts.lost_site,
        'detected_at', sync_conflicts.detected_at,
        'kept_by_customer_id', ${keptId},
        'kept_by_customer_name', (
          SELECT trim(kept.first_name || ' ' || kept.last_name) FROM customers AS kept WHERE kept.id = ${keptId}
        )
      ) ORDER BY sync_conflicts.id)`.as('conflicts'),
      ])
      .where('sync_conflicts.table_name', '=', 'customers')
      // Settled once the customer holds a barcode again: the desk gave them a new card.
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('customers as lost')
            .select(sql.lit(1).as('one'))
            .where('lost.id', '=', lostId)
            .where('lost.barcode', 'is', null),
        ),
      )
      .groupBy('customer_id')
  )
}
