import type { Insertable, Selectable, Updateable } from 'kysely'
import { definedChanges } from '../../db/changes.ts'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { CustomerAlertTable } from '../../db/schema.ts'

export type AlertRow = Selectable<CustomerAlertTable>

export interface AlertFilters {
  is_active?: boolean
  prevents_check_in?: boolean
}

function filtered(db: Db, customerId: number, filters: AlertFilters) {
  let query = db.selectFrom('customer_alerts').where('customer_id', '=', customerId)
  if (filters.is_active !== undefined) query = query.where('is_active', '=', filters.is_active ? 1 : 0)
  if (filters.prevents_check_in !== undefined)
    query = query.where('prevents_check_in', '=', filters.prevents_check_in ? 1 : 0)
  return query
}

export const listAlerts = (db: Db, customerId: number, filters: AlertFilters): ListSource<AlertRow> =>
  listFrom(filtered(db, customerId, filters), {
    order: (query) => query.orderBy('id'),
    rows: (page) => page.selectAll().execute(),
  })

/** One alert of one customer: another customer's alert is not found. */
export const getAlert = (db: Db, customerId: number, id: number): Promise<AlertRow | undefined> =>
  filtered(db, customerId, {}).selectAll().where('id', '=', id).executeTakeFirst()

export async function insertAlert(db: Db, alert: Insertable<CustomerAlertTable>): Promise<number> {
  return (await db.insertInto('customer_alerts').values(alert).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateAlert(
  db: Db,
  id: number,
  changes: Updateable<CustomerAlertTable>,
): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('customer_alerts').set(set).where('id', '=', id).execute()
}
