import type { Insertable, Updateable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { definedChanges } from '../../db/changes.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { EventCategory, EventCategoryTable } from '../../db/schema.ts'

export type EventCategoryRow = EventCategory

/** The categories in use: a removed one is gone from the API, though event types keep its id. */
const inUse = (db: Db) => db.selectFrom('event_categories').where('is_removed', '=', 0)

export const listEventCategories = (db: Db): ListSource<EventCategoryRow> =>
  listFrom(inUse(db), {
    order: (query) => query.orderBy('name').orderBy('id'),
    rows: (page) => page.selectAll().execute(),
  })

export const getEventCategory = (db: Db, id: number): Promise<EventCategoryRow | undefined> =>
  inUse(db).selectAll().where('id', '=', id).executeTakeFirst()

/** Which of `ids` name a category in use. */
export async function listEventCategoryIdsInUse(db: Db, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const rows = await inUse(db).select('id').where('id', 'in', ids).execute()
  return new Set(rows.map((row) => row.id))
}

export async function insertEventCategory(db: Db, row: Insertable<EventCategoryTable>): Promise<number> {
  return (await db.insertInto('event_categories').values(row).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateEventCategory(
  db: Db,
  id: number,
  changes: Updateable<EventCategoryTable>,
): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('event_categories').set(set).where('id', '=', id).execute()
}
