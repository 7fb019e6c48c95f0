import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { EventType, EventTypeUpdate, NewEventType } from '../../db/schema.ts'
import { contains } from '../../db/text-search.ts'

export type EventTypeRow = EventType & { gym_name: string; gym_scheduler_url_path: string }

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
