import type { Insertable, Updateable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { definedChanges } from '../../db/changes.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { EventTable } from '../../db/schema.ts'
import { eventLoad, type EventLoad } from '../../core/classes/capacity.ts'

export interface EventFilters {
  gym_id?: number
  event_type_id?: number
  /** UTC ISO instants: start_at >= starts_after, start_at < starts_before */
  starts_after?: string
  starts_before?: string
}

function filtered(db: Db, filters: EventFilters) {
  let query = db
    .selectFrom('events as e')
    .innerJoin('event_types as et', 'et.id', 'e.event_type_id')
    .innerJoin('gyms as g', 'g.id', 'e.gym_id')
  if (filters.gym_id !== undefined) query = query.where('e.gym_id', '=', filters.gym_id)
  if (filters.event_type_id !== undefined) query = query.where('e.event_type_id', '=', filters.event_type_id)
  if (filters.starts_after !== undefined) query = query.where('e.start_at', '>=', filters.starts_after)
  if (filters.starts_before !== undefined) query = query.where('e.start_at', '<', filters.starts_before)
  return query
}

const withNames = (query: ReturnType<typeof filtered>) =>
  query.selectAll('e').select(['et.name as event_type_name', 'g.name as gym_name'])

export type EventRow = NonNullable<Awaited<ReturnType<typeof getEvent>>>

/** In start order, then by id. */
export const listEvents = (db: Db, filters: EventFilters): ListSource<EventRow> =>
  listFrom(filtered(db, filters), {
    order: (query) => query.orderBy('e.start_at').orderBy('e.id'),
    rows: (page) => withNames(page).execute(),
  })

export const getEvent = (db: Db, id: number) =>
  withNames(filtered(db, {})).where('e.id', '=', id).executeTakeFirst()

export type EventWithLoad = EventRow & EventLoad

/** Events as the API reads them: with how full each is at `now` (core/classes/capacity.ts). */
export const withLoads = (db: Db, rows: EventRow[], now: Date): Promise<EventWithLoad[]> =>
  Promise.all(rows.map(async (row) => ({ ...row, ...(await eventLoad(db, row.id, now)) })))

export function listEventsWithLoads(db: Db, filters: EventFilters, now: Date): ListSource<EventWithLoad> {
  const list = listEvents(db, filters)
  return {
    count: list.count,
    rows: async (limit, offset) => withLoads(db, await list.rows(limit, offset), now),
  }
}

export async function getEventWithLoad(db: Db, id: number, now: Date): Promise<EventWithLoad | undefined> {
  const row = await getEvent(db, id)
  return row && (await withLoads(db, [row], now))[0]
}

export async function insertEvent(db: Db, row: Insertable<EventTable>): Promise<number> {
  return (await db.insertInto('events').values(row).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateEvent(db: Db, id: number, changes: Updateable<EventTable>): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('events').set(set).where('id', '=', id).execute()
}
