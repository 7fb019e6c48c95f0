import { sql, type Insertable, type Updateable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { definedChanges } from '../../db/changes.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { CustomerEntryPassTable } from '../../db/schema.ts'

export interface CustomerEntryPassFilters {
  owner_id?: number
}

function filtered(db: Db, filters: CustomerEntryPassFilters) {
  let query = db
    .selectFrom('customer_entry_passes as p')
    .innerJoin('entry_pass_types as ept', 'ept.id', 'p.entry_pass_type_id')
    .leftJoin('customers as purchaser', 'purchaser.id', 'p.purchaser_id')
  if (filters.owner_id !== undefined) query = query.where('p.owner_id', '=', filters.owner_id)
  return query
}

/** A pass's columns, with its type's and its purchaser's names. */
const withNames = (query: ReturnType<typeof filtered>) =>
  query.selectAll('p').select([
    'ept.name as entry_pass_name',
    'purchaser.first_name as purchaser_first_name',
    'purchaser.last_name as purchaser_last_name',
    // Passes are usable through the end of their expiry day in the organization's zone.
    sql<string>`(SELECT time_zone FROM organization LIMIT 1)`.as('time_zone'),
  ])

export type CustomerEntryPassRow = NonNullable<Awaited<ReturnType<typeof getCustomerEntryPass>>>

export const listCustomerEntryPasses = (
  db: Db,
  filters: CustomerEntryPassFilters,
): ListSource<CustomerEntryPassRow> =>
  listFrom(filtered(db, filters), {
    order: (query) => query.orderBy('p.id'),
    rows: (page) => withNames(page).execute(),
  })

export const getCustomerEntryPass = (db: Db, id: number) =>
  withNames(filtered(db, {})).where('p.id', '=', id).executeTakeFirst()

export async function insertCustomerEntryPass(
  db: Db,
  row: Insertable<CustomerEntryPassTable>,
): Promise<number> {
  return (await db.insertInto('customer_entry_passes').values(row).returning('id').executeTakeFirstOrThrow())
    .id
}

export async function updateCustomerEntryPass(
  db: Db,
  id: number,
  changes: Updateable<CustomerEntryPassTable>,
): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('customer_entry_passes').set(set).where('id', '=', id).execute()
}
