import type { Insertable, Selectable, Updateable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { definedChanges } from '../../db/changes.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { AddOnTable } from '../../db/schema.ts'
import { contains } from '../../db/text-search.ts'

export type AddOnRow = Selectable<AddOnTable>

export interface AddOnFilters {
  name?: string
  is_visible?: boolean
}

function filtered(db: Db, filters: AddOnFilters) {
  let query = db.selectFrom('add_ons')
  if (filters.name !== undefined) query = query.where(contains('name', filters.name))
  if (filters.is_visible !== undefined) query = query.where('is_visible', '=', filters.is_visible ? 1 : 0)
  return query
}

export const listAddOns = (db: Db, filters: AddOnFilters): ListSource<AddOnRow> =>
  listFrom(filtered(db, filters), {
    order: (query) => query.orderBy('name').orderBy('id'),
    rows: (page) => page.selectAll().execute(),
  })

export const getAddOn = (db: Db, id: string): Promise<AddOnRow | undefined> =>
  db.selectFrom('add_ons').selectAll().where('id', '=', id).executeTakeFirst()

/** Which of `ids` name add-ons. */
export async function listExistingAddOnIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const rows = await db.selectFrom('add_ons').select('id').where('id', 'in', ids).execute()
  return new Set(rows.map((r) => r.id))
}

/** Ids starting with `prefix`, to pick a free one when making an id from a name. */
export async function listAddOnIdsStartingWith(db: Db, prefix: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('add_ons')
    .select('id')
    .where('id', '>=', prefix)
    .where('id', '<', `${prefix}\uffff`)
    .execute()
  return new Set(rows.map((r) => r.id))
}

export async function insertAddOn(db: Db, row: Insertable<AddOnTable>): Promise<string> {
  return (await db.insertInto('add_ons').values(row).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateAddOn(db: Db, id: string, changes: Updateable<AddOnTable>): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('add_ons').set(set).where('id', '=', id).execute()
}
