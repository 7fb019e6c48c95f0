import type { Insertable, Selectable, Updateable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { definedChanges } from '../../db/changes.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { EntryPassTypeTable } from '../../db/schema.ts'
import { contains } from '../../db/text-search.ts'

export type EntryPassTypeRow = Selectable<EntryPassTypeTable>

export interface EntryPassTypeFilters {
  status?: string
}

function filtered(db: Db, filters: EntryPassTypeFilters) {
  let query = db.selectFrom('entry_pass_types')
  if (filters.status !== undefined) query = query.where(contains('status', filters.status))
  return query
}

export const listEntryPassTypes = (db: Db, filters: EntryPassTypeFilters): ListSource<EntryPassTypeRow> =>
  listFrom(filtered(db, filters), {
    order: (query) => query.orderBy('id'),
    rows: (page) => page.selectAll().execute(),
  })

export const getEntryPassType = (db: Db, id: number): Promise<EntryPassTypeRow | undefined> =>
  db.selectFrom('entry_pass_types').selectAll().where('id', '=', id).executeTakeFirst()

export async function insertEntryPassType(db: Db, row: Insertable<EntryPassTypeTable>): Promise<number> {
  return (await db.insertInto('entry_pass_types').values(row).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateEntryPassType(
  db: Db,
  id: number,
  changes: Updateable<EntryPassTypeTable>,
): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('entry_pass_types').set(set).where('id', '=', id).execute()
}
