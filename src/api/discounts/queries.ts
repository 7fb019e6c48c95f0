import type { Insertable, Selectable, Updateable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { definedChanges } from '../../db/changes.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { DiscountTable } from '../../db/schema.ts'
import { searchTerms } from '../../db/text-search.ts'

export type DiscountRow = Selectable<DiscountTable>

export interface DiscountFilters {
  code?: string
  is_active?: boolean
  search?: string
}

// The code column compares without case (COLLATE NOCASE), so `=` finds SPRING10 for spring10.
function filtered(db: Db, filters: DiscountFilters) {
  let query = db.selectFrom('discounts')
  if (filters.code !== undefined) query = query.where('code', '=', filters.code)
  if (filters.is_active !== undefined) query = query.where('is_active', '=', filters.is_active ? 1 : 0)
  if (filters.search !== undefined) {
    const search = filters.search
    query = query.where((eb) => searchTerms(eb, ['code', 'name', 'display_name'], search))
  }
  return query
}

export const listDiscounts = (db: Db, filters: DiscountFilters): ListSource<DiscountRow> =>
  listFrom(filtered(db, filters), {
    order: (query) => query.orderBy('code').orderBy('id'),
    rows: (page) => page.selectAll().execute(),
  })

export const getDiscount = (db: Db, id: number): Promise<DiscountRow | undefined> =>
  db.selectFrom('discounts').selectAll().where('id', '=', id).executeTakeFirst()

/** The discount whose code is `code` in any case. */
export const findDiscountByCode = (db: Db, code: string): Promise<DiscountRow | undefined> =>
  db.selectFrom('discounts').selectAll().where('code', '=', code).executeTakeFirst()

export async function insertDiscount(db: Db, row: Insertable<DiscountTable>): Promise<number> {
  return (await db.insertInto('discounts').values(row).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateDiscount(db: Db, id: number, changes: Updateable<DiscountTable>): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('discounts').set(set).where('id', '=', id).execute()
}
