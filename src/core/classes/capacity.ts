import type { Db } from '../../db/connection.ts'

/*
 * How full an event is. Two limits apply (classes.md): the event's own `capacity` (its live
 * reservations), and its type's facility `capacity` (the live reservations at any moment across the
 * type's overlapping events). Two events overlap when one starts before the other ends; back to
 * back do not. `spots_left` is how many more bookings the event would accept now: the smaller of
 * the two room left, or null when neither limits it.
 */

export interface EventForBooking {
  id: number
  event_type_id: number
  gym_id: number
  start_at: string
  end_at: string
  is_cancelled: 0 | 1
  capacity: number | null
  type_status: 'DRA' | 'ACT' | 'RET'
  type_capacity: number | null
  late_booking_window_minutes: number
  max_reservations_per_day_for_customer: number | null
  waitlist_promotion_cutoff_hours: number
}

export const loadEventForBooking = (db: Db, eventId: number): Promise<EventForBooking | undefined> =>
  db
    .selectFrom('events as e')
    .innerJoin('event_types as t', 't.id', 'e.event_type_id')
    .select([
      'e.id',
      'e.event_type_id',
      'e.gym_id',
      'e.start_at',
      'e.end_at',
      'e.is_cancelled',
      'e.capacity',
      't.status as type_status',
      't.capacity as type_capacity',
      't.late_booking_window_minutes',
      't.max_reservations_per_day_for_customer',
      't.waitlist_promotion_cutoff_hours',
    ])
    .where('e.id', '=', eventId)
    .executeTakeFirst()

export async function liveReservationCount(db: Db, eventId: number): Promise<number> {
  const { n } = await db
    .selectFrom('reservations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('event_id', '=', eventId)
    .where('is_cancelled', '=', 0)
    .executeTakeFirstOrThrow()
  return n
}

/**
 * The most live reservations held at one moment of the event's time across its type's events
 * (itself included). The count only rises where an event starts, so the moments to look at are the
 * event's start and the starts of the others that fall within it.
 */
async function peakTypeLoad(db: Db, event: EventForBooking): Promise<number> {
  const overlapping = await db
    .selectFrom('events as e')
    .select((eb) => [
      'e.start_at',
      'e.end_at',
      eb
        .selectFrom('reservations as r')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('r.event_id', '=', 'e.id')
        .where('r.is_cancelled', '=', 0)
        .as('live'),
    ])
    .where('e.event_type_id', '=', event.event_type_id)
    .where('e.is_cancelled', '=', 0)
    .where('e.start_at', '<', event.end_at)
    .where('e.end_at', '>', event.start_at)
    .execute()
  const moments = [event.start_at, ...overlapping.map((e) => e.start_at).filter((at) => at > event.start_at)]
  let peak = 0
  for (const moment of moments) {
    let load = 0
    for (const e of overlapping) if (e.start_at <= moment && moment < e.end_at) load += Number(e.live ?? 0)
    peak = Math.max(peak, load)
  }
  return peak
}

/**
 * How many more bookings the event would accept now; null when nothing limits it. `live`: its live
 * reservations, when the caller has counted them already.
 */
export async function spotsLeft(db: Db, event: EventForBooking, live?: number): Promise<number | null> {
  const limits: number[] = []
  if (event.capacity !== null)
    limits.push(event.capacity - (live ?? (await liveReservationCount(db, event.id))))
  if (event.type_capacity !== null) limits.push(event.type_capacity - (await peakTypeLoad(db, event)))
  return limits.length === 0 ? null : Math.max(0, Math.min(...limits))
}

export const hasSpot = (spots: number | null) => spots === null || spots > 0

export interface EventLoad {
  num_reservations: number
  num_waitlisted: number
  spots_left: number | null
}

/**
 * How full an event is as the API reads it: its live reservations, the customers waiting (none
 * once it has started: their entries have expired), and its spots left.
 */
export async function eventLoad(db: Db, eventId: number, now: Date): Promise<EventLoad> {
  const event = (await loadEventForBooking(db, eventId))!
  const { n: waiting } = await db
    .selectFrom('waitlist_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('event_id', '=', eventId)
    .where('status', '=', 'WAI')
    .executeTakeFirstOrThrow()
  const live = await liveReservationCount(db, eventId)
  return {
    num_reservations: live,
    num_waitlisted: now.toISOString() < event.start_at ? waiting : 0,
    spots_left: await spotsLeft(db, event, live),
  }
}
