import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { EventType, EventTypeUpdate, NewEventType } from '../../db/schema.ts'
import { contains } from '../../db/text-search.ts'

export type EventTypeRow = EventType & {
  gym_name: string
  gym_scheduler_url_path: string
  /** JSON array of its category ids, ascending; removed categories included */
  category_ids: string
}

export const categoryIdsOf = (row: EventTypeRow): number[] => JSON.parse(row.category_ids) as number[]

export interface EventTypeFilters {
  gym_id?: number
  status?: string
}

function filtered(db: Db, filters: EventTypeFilters) {
  let query = db.selectFrom('event_types').innerJoin('gyms', 'gyms.id', 'event_types.gym_id')
  if (filters.gym_id !== undefined) query = query.where('event_types.gym_id', '=', filters.gym_id)
  if (filters.status !== undefined) query = query.where(contains('event_types.status', filters.status))
  return query
}

const withGym = (query: ReturnType<typeof filtered>) =>
  query
    .selectAll('event_types')
    .select(['gyms.name as gym_name', 'gyms.scheduler_url_path as gym_scheduler_url_path'])
    .select(
      sql<string>`(SELECT json_group_array(c.event_category_id ORDER BY c.event_category_id)
        FROM event_type_categories c WHERE c.event_type_id = event_types.id)`.as('category_ids'),
    )

export const listEventTypes = (db: Db, filters: EventTypeFilters): ListSource<EventTypeRow> =>
  listFrom(filtered(db, filters), {
    order: (query) => query.orderBy('event_types.id'),
    rows: (page) => withGym(page).execute(),
  })

export const getEventType = (db: Db, id: number): Promise<EventTypeRow | undefined> =>
  withGym(filtered(db, {})).where('event_types.id', '=', id).executeTakeFirst()

export async function insertEventType(db: Db, eventType: NewEventType): Promise<number> {
  return (await db.insertInto('event_types').values(eventType).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateEventType(db: Db, id: number, changes: EventTypeUpdate): Promise<void> {
  await db.updateTable('event_types').set(changes).where('id', '=', id).execute()
}

/** Files an event type under exactly `categoryIds`, replacing the categories it had. */
export async function setEventTypeCategories(
  db: Db,
  eventTypeId: number,
  categoryIds: readonly number[],
): Promise<void> {
  await db.deleteFrom('event_type_categories').where('event_type_id', '=', eventTypeId).execute()
  if (categoryIds.length === 0) return
  await db
    .insertInto('event_type_categories')
    .values(categoryIds.map((id) => ({ event_type_id: eventTypeId, event_category_id: id })))
    .execute()
}
