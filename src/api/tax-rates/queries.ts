import type { Insertable, Selectable, Updateable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { definedChanges } from '../../db/changes.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { TaxRateTable } from '../../db/schema.ts'
import type { FieldErrorCollector } from '../../http/errors.ts'
import { lookUpReferenced } from '../../http/references.ts'

export type TaxRateRow = Selectable<TaxRateTable>

export interface TaxRateFilters {
  is_active?: boolean
}

function filtered(db: Db, filters: TaxRateFilters) {
  let query = db.selectFrom('tax_rates')
  if (filters.is_active !== undefined) query = query.where('is_active', '=', filters.is_active ? 1 : 0)
  return query
}

export const listTaxRates = (db: Db, filters: TaxRateFilters): ListSource<TaxRateRow> =>
  listFrom(filtered(db, filters), {
    order: (query) => query.orderBy('name').orderBy('id'),
    rows: (page) => page.selectAll().execute(),
  })

export const getTaxRate = (db: Db, id: number): Promise<TaxRateRow | undefined> =>
  db.selectFrom('tax_rates').selectAll().where('id', '=', id).executeTakeFirst()

/**
 * The check every product body's `tax_rate_id` gets: when an id was sent, it must name a tax rate
 * (a retired one too: retiring a rate does not change what products already charge), else DRF's
 * "Invalid pk" on that field.
 */
export const lookUpTaxRate = (
  db: Db,
  errors: FieldErrorCollector,
  field: string,
  id: number | null | undefined,
) => lookUpReferenced(errors, field, id, (taxRateId) => getTaxRate(db, taxRateId))

export async function insertTaxRate(db: Db, row: Insertable<TaxRateTable>): Promise<number> {
  return (await db.insertInto('tax_rates').values(row).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateTaxRate(db: Db, id: number, changes: Updateable<TaxRateTable>): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('tax_rates').set(set).where('id', '=', id).execute()
}
