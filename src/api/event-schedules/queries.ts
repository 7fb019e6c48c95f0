import type { Insertable, Selectable, Updateable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { definedChanges } from '../../db/changes.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { EventScheduleTable } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { getEventType } from '../event-types/queries.ts'

export type ScheduleRow = Selectable<EventScheduleTable>

/**
 * The parent of the collections under /api/event-types/<id>/ (schedules, schedule exceptions): 404
 * for an event type that does not exist. Its parameter is `id`, as the event type's own path names
 * that position.
 */
export const eventTypeParent = {
  param: 'id',
  description: "The event type's id",
  exists: async (deps: Pick<Deps, 'db'>, id: number) => (await getEventType(deps.db, id)) !== undefined,
}

const ofType = (db: Db, eventTypeId: number) =>
  db.selectFrom('event_schedules').where('event_type_id', '=', eventTypeId)

/** The event type's schedules, by id. */
export const listSchedules = (db: Db, eventTypeId: number): ListSource<ScheduleRow> =>
  listFrom(ofType(db, eventTypeId), {
    order: (query) => query.orderBy('id'),
    rows: (page) => page.selectAll().execute(),
  })

/** Undefined for no such schedule, and for another event type's. */
export const getSchedule = (db: Db, eventTypeId: number, id: number): Promise<ScheduleRow | undefined> =>
  ofType(db, eventTypeId).selectAll().where('id', '=', id).executeTakeFirst()

export async function insertSchedule(db: Db, row: Insertable<EventScheduleTable>): Promise<number> {
  return (await db.insertInto('event_schedules').values(row).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateSchedule(
  db: Db,
  id: number,
  changes: Updateable<EventScheduleTable>,
): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('event_schedules').set(set).where('id', '=', id).execute()
}
