import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import { answersWithText } from '../../core/classes/answers.ts'
import { entryStatus, type EntryStatus } from '../../core/classes/waitlist.ts'

export interface WaitlistFilters {
  event_id?: number
  customer_id?: number
  /** as read: WAI, PRO, CAN or EXP */
  status?: EntryStatus
}

/** The filters at `now`: a waiting entry of an event that has started reads EXP. */
function filtered(db: Db, filters: WaitlistFilters, now: Date) {
  const at = now.toISOString()
  let query = db
    .selectFrom('waitlist_entries as w')
    .innerJoin('events as e', 'e.id', 'w.event_id')
    .innerJoin('customers as c', 'c.id', 'w.customer_id')
  if (filters.event_id !== undefined) query = query.where('w.event_id', '=', filters.event_id)
  if (filters.customer_id !== undefined) query = query.where('w.customer_id', '=', filters.customer_id)
  if (filters.status === 'EXP') query = query.where('w.status', '=', 'WAI').where('e.start_at', '<=', at)
  else if (filters.status === 'WAI') query = query.where('w.status', '=', 'WAI').where('e.start_at', '>', at)
  else if (filters.status !== undefined) query = query.where('w.status', '=', filters.status)
  return query
}

const columns = (query: ReturnType<typeof filtered>) =>
  query.selectAll('w').select([
    'e.start_at as event_start_at',
    'c.first_name as customer_first_name',
    'c.last_name as customer_last_name',
    answersWithText('w.answers').as('answers_out'),
    // Among those waiting for the event, in the order they joined.
    sql<number>`(SELECT count(*) FROM waitlist_entries AS o
        WHERE o.event_id = w.event_id AND o.status = 'WAI'
          AND (o.created_at < w.created_at OR (o.created_at = w.created_at AND o.id <= w.id)))`.as('place'),
  ])

type StoredRow = Awaited<ReturnType<ReturnType<typeof columns>['execute']>>[number]

/** An entry as the API reads it at a moment: its status then, and its position while waiting. */
export type WaitlistEntryRow = StoredRow & { read_status: EntryStatus; position: number | null }

const atMoment = (row: StoredRow, now: Date): WaitlistEntryRow => {
  const read_status = entryStatus(row.status, row.event_start_at, now)
  return { ...row, read_status, position: read_status === 'WAI' ? row.place : null }
}

/** In the order they joined (by id). */
export const listWaitlistEntries = (
  db: Db,
  filters: WaitlistFilters,
  now: Date,
): ListSource<WaitlistEntryRow> =>
  listFrom(filtered(db, filters, now), {
    order: (query) => query.orderBy('w.id'),
    rows: async (page) => (await columns(page).execute()).map((row) => atMoment(row, now)),
  })

export async function getWaitlistEntry(db: Db, id: number, now: Date): Promise<WaitlistEntryRow | undefined> {
  const row = await columns(filtered(db, {}, now))
    .where('w.id', '=', id)
    .executeTakeFirst()
  return row && atMoment(row, now)
}
