import { sql, type ExpressionBuilder, type Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { Database } from '../../db/schema.ts'
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
 * For the customer of the outer query (`customers`): the values it lost to another customer, as a
 * JSON array (`[]` for none), only while it holds no barcode, so giving it a new card settles them.
 * A correlated subquery over sync_conflicts, which is empty on a box without a hub and holds a few
 * rows on a site.
 */
export const customerConflicts = (eb: ExpressionBuilder<Database, 'customers'>) => {
  const keptId = sql`json_extract(sync_conflicts.kept_row_key, '$[0]')`
  return eb
    .selectFrom('sync_conflicts')
    .select(
      sql<string>`json_group_array(json_object(
        'value', sync_conflicts.value,
        'site', sync_conflicts.lost_site,
        'detected_at', sync_conflicts.detected_at,
        'kept_by_customer_id', ${keptId},
        'kept_by_customer_name', (
          SELECT trim(kept.first_name || ' ' || kept.last_name) FROM customers AS kept WHERE kept.id = ${keptId}
        )
      ) ORDER BY sync_conflicts.id)`.as('conflicts'),
    )
    .where('sync_conflicts.table_name', '=', 'customers')
    .where('sync_conflicts.lost_row_key', '=', customerKey(sql.ref('customers.id')))
    .where('customers.barcode', 'is', null)
    .$asScalar()
}
