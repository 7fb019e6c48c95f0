import type { Insertable, Updateable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { definedChanges } from '../../db/changes.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { ReservationTable } from '../../db/schema.ts'
import { answersWithText } from '../../core/classes/answers.ts'

export interface ReservationFilters {
  customer_id?: number
  event_id?: number
}

function filtered(db: Db, filters: ReservationFilters) {
  let query = db
    .selectFrom('reservations as r')
    .innerJoin('events as e', 'e.id', 'r.event_id')
    .innerJoin('customers as c', 'c.id', 'r.customer_id')
  if (filters.customer_id !== undefined) query = query.where('r.customer_id', '=', filters.customer_id)
  if (filters.event_id !== undefined) query = query.where('r.event_id', '=', filters.event_id)
  return query
}

const withNames = (query: ReturnType<typeof filtered>) =>
  query
    .selectAll('r')
    .select([
      'e.name as event_name',
      'e.start_at as event_start_at',
      'e.end_at as event_end_at',
      'e.gym_id',
      'c.first_name as customer_first_name',
      'c.last_name as customer_last_name',
      answersWithText('r.answers').as('answers_out'),
    ])

export type ReservationRow = NonNullable<Awaited<ReturnType<typeof getReservation>>>

export const listReservations = (db: Db, filters: ReservationFilters): ListSource<ReservationRow> =>
  listFrom(filtered(db, filters), {
    order: (query) => query.orderBy('r.id'),
    rows: (page) => withNames(page).execute(),
  })

export const getReservation = (db: Db, id: number) =>
  withNames(filtered(db, {})).where('r.id', '=', id).executeTakeFirst()

export async function insertReservation(db: Db, row: Insertable<ReservationTable>): Promise<number> {
  return (await db.insertInto('reservations').values(row).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateReservation(
  db: Db,
  id: number,
  changes: Updateable<ReservationTable>,
): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('reservations').set(set).where('id', '=', id).execute()
}

/**
 * For the door: the customer's reservations at `gymId` whose event is on at `nowIso` (a UTC ISO
 * instant as the clock gives it: start_at <= now < end_at), leaving out cancelled reservations and
 * cancelled events. Entry is granted only where both `includes_entry` and `event_includes_entry`
 * are 1 (the door decides; both are returned). Earliest start first.
 */
export const listReservationsHappeningNow = (db: Db, customerId: number, gymId: number, nowIso: string) =>
  db
    .selectFrom('reservations as r')
    .innerJoin('events as e', 'e.id', 'r.event_id')
    .select([
      'r.id',
      'r.event_id',
      'r.customer_id',
      'r.includes_entry',
      'r.checked_in',
      'e.event_type_id',
      'e.gym_id',
      'e.name as event_name',
      'e.start_at',
      'e.end_at',
      'e.includes_entry as event_includes_entry',
    ])
    .where('r.customer_id', '=', customerId)
    .where('r.is_cancelled', '=', 0)
    .where('e.is_cancelled', '=', 0)
    .where('e.gym_id', '=', gymId)
    .where('e.start_at', '<=', nowIso)
    .where('e.end_at', '>', nowIso)
    .orderBy('e.start_at')
    .orderBy('r.id')
    .execute()

export type ReservationHappeningNow = Awaited<ReturnType<typeof listReservationsHappeningNow>>[number]
