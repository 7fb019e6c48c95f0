import type { Db } from '../../db/connection.ts'
import { classMessages, reservationMessages } from '../../domain/reservations.ts'
import { Refused } from '../../domain/refused.ts'
import { storedAnswers, type Answer } from './answers.ts'
import { cancelIn, placeIn, promotionProblems, waitlistProblems } from './booking.ts'
import { hasSpot, loadEventForBooking, spotsLeft, type EventForBooking } from './capacity.ts'

/*
 * The waitlist of a full event (classes.md). An entry waits (WAI) in the order it joined. When a
 * spot opens and the event starts more than its type's `waitlist_promotion_cutoff_hours` from now,
 * the first waiting entries are promoted (PRO) in the same transaction: each becomes a reservation
 * with its answers. Later than that, entries wait for staff to promote them by hand. An entry still
 * waiting once the event has started reads EXP; that is worked out when it is read (entryStatus),
 * so no job has to run at the start.
 */

export type EntryStatus = 'WAI' | 'PRO' | 'CAN' | 'EXP'

/** What an entry reads as at `now`: a waiting entry of an event that has started has expired. */
export const entryStatus = (stored: 'WAI' | 'PRO' | 'CAN', eventStartAt: string, now: Date): EntryStatus =>
  stored === 'WAI' && now.toISOString() >= eventStartAt ? 'EXP' : stored

/** Joins the waitlist inside the caller's transaction; throws Refused with nothing written. */
export async function joinIn(
  trx: Db,
  request: { eventId: number; customerId: number; answers: Answer[] },
  now: Date,
): Promise<number> {
  const event = (await loadEventForBooking(trx, request.eventId))!
  const errors = await waitlistProblems(trx, event, request, now)
  const waiting = await trx
    .selectFrom('waitlist_entries')
    .select('id')
    .where('event_id', '=', event.id)
    .where('customer_id', '=', request.customerId)
    .where('status', '=', 'WAI')
    .executeTakeFirst()
  if (waiting) (errors.non_field_errors ??= []).push(classMessages.alreadyWaiting)
  // Within the late window after the start the event may still be booked, but an entry made then
  // would read EXP at once: there is nothing left to wait for.
  if (Object.keys(errors).length === 0 && now.toISOString() >= event.start_at)
    errors.non_field_errors = [classMessages.expired]
  if (Object.keys(errors).length === 0 && hasSpot(await spotsLeft(trx, event)))
    errors.non_field_errors = [classMessages.hasSpots]
  if (Object.keys(errors).length > 0) throw new Refused(errors)
  const at = now.toISOString()
  const { id } = await trx
    .insertInto('waitlist_entries')
    .values({
      event_id: event.id,
      customer_id: request.customerId,
      answers: storedAnswers(request.answers),
      status: 'WAI',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return id
}

/** The event's waiting entries in the order they joined (their positions). */
const waitingInOrder = (trx: Db, eventId: number) =>
  trx
    .selectFrom('waitlist_entries')
    .select(['id', 'customer_id', 'answers'])
    .where('event_id', '=', eventId)
    .where('status', '=', 'WAI')
    .orderBy('created_at')
    .orderBy('id')
    .execute()

type Entry = Awaited<ReturnType<typeof waitingInOrder>>[number]

async function promote(trx: Db, event: EventForBooking, entry: Entry, now: Date): Promise<number> {
  const reservationId = await placeIn(
    trx,
    event,
    {
      eventId: event.id,
      customerId: entry.customer_id,
      answers: JSON.parse(entry.answers) as Answer[],
      eventVoucherId: null,
      includesEntry: true,
    },
    now,
  )
  // placeIn marked the customer's waiting entry promoted to the reservation: this one.
  return reservationId
}

/** Whether the waitlist still promotes by itself: the event starts later than the cutoff from now. */
export const promotesAutomatically = (event: EventForBooking, now: Date) =>
  Date.parse(event.start_at) - now.getTime() > event.waitlist_promotion_cutoff_hours * 3_600_000

/**
 * After a spot opened at the event (a cancellation, a raised capacity), inside that transaction:
 * promotes the first waiting entries while spots are left, when the event is still before its
 * cutoff. An entry whose customer a booking would refuse now (inactive, at the type's per-day
 * limit, booked on it already) is passed over and keeps its place in the line. Returns the
 * reservations made.
 */
export async function promoteWaitingIn(trx: Db, eventId: number, now: Date): Promise<number[]> {
  const event = await loadEventForBooking(trx, eventId)
  if (!event || event.is_cancelled === 1 || !promotesAutomatically(event, now)) return []
  const made: number[] = []
  for (const entry of await waitingInOrder(trx, event.id)) {
    if (!hasSpot(await spotsLeft(trx, event))) break
    if (Object.keys(await promotionProblems(trx, event, entry.customer_id)).length > 0) continue
    made.push(await promote(trx, event, entry, now))
  }
  return made
}

/**
 * Staff promoting an entry by hand (after the cutoff, or at any time): refused when it is not
 * waiting, its event has started, a booking of its customer would be refused (promotionProblems),
 * or the event has no spot. Returns the reservation made.
 */
export async function promoteByHandIn(trx: Db, entryId: number, now: Date): Promise<number> {
  const entry = await trx
    .selectFrom('waitlist_entries')
    .select(['id', 'event_id', 'customer_id', 'answers', 'status'])
    .where('id', '=', entryId)
    .executeTakeFirstOrThrow()
  const event = (await loadEventForBooking(trx, entry.event_id))!
  const refuse = (message: string) => {
    throw new Refused({ non_field_errors: [message] })
  }
  if (entry.status !== 'WAI') refuse(classMessages.notWaiting)
  if (now.toISOString() >= event.start_at) refuse(classMessages.expired)
  if (event.is_cancelled === 1) refuse(reservationMessages.eventCancelled)
  const problems = await promotionProblems(trx, event, entry.customer_id)
  if (Object.keys(problems).length > 0) throw new Refused(problems)
  if (!hasSpot(await spotsLeft(trx, event))) refuse(reservationMessages.full)
  return promote(trx, event, entry, now)
}

/** Leaving the waitlist: refused unless the entry is waiting (an expired one cannot be left either). */
export async function leaveIn(trx: Db, entryId: number, now: Date): Promise<void> {
  const entry = await trx
    .selectFrom('waitlist_entries as w')
    .innerJoin('events as e', 'e.id', 'w.event_id')
    .select(['w.status', 'e.start_at'])
    .where('w.id', '=', entryId)
    .executeTakeFirstOrThrow()
  if (entryStatus(entry.status, entry.start_at, now) !== 'WAI')
    throw new Refused({ non_field_errors: [classMessages.notWaiting] })
  await trx
    .updateTable('waitlist_entries')
    .set({ status: 'CAN', updated_at: now.toISOString() })
    .where('id', '=', entryId)
    .execute()
}

/**
 * After a place was freed at the event (a reservation cancelled), inside that transaction: offers
 * it to the event's own waitlist first; then, when the type's facility capacity limits its events,
 * to the waitlists of the type's other events overlapping it, earliest first, since the place freed
 * counted against theirs too. Each is promoted only before its own cutoff.
 */
export async function promoteAroundIn(trx: Db, eventId: number, now: Date): Promise<void> {
  await promoteWaitingIn(trx, eventId, now)
  const event = await loadEventForBooking(trx, eventId)
  if (!event || event.type_capacity === null) return
  const overlapping = await trx
    .selectFrom('waitlist_entries as w')
    .innerJoin('events as e', 'e.id', 'w.event_id')
    .select(['e.id', 'e.start_at'])
    .distinct()
    .where('e.event_type_id', '=', event.event_type_id)
    .where('e.id', '!=', event.id)
    .where('e.start_at', '<', event.end_at)
    .where('e.end_at', '>', event.start_at)
    .where('e.start_at', '>', now.toISOString())
    .where('w.status', '=', 'WAI')
    .orderBy('e.start_at')
    .orderBy('e.id')
    .execute()
  for (const other of overlapping) await promoteWaitingIn(trx, other.id, now)
}

/** Cancels a reservation and offers its place to the waitlists (promoteAroundIn), in one transaction. */
export const cancelAndPromote = (db: Db, reservationId: number, now: Date) =>
  db.transaction().execute(async (trx) => {
    const eventId = await cancelIn(trx, reservationId, now)
    await promoteAroundIn(trx, eventId, now)
  })

/**
 * After an event type's limits changed (a raised facility capacity, a later cutoff), inside that
 * transaction: offers the spots now open at its events still to come, earliest first.
 */
export async function promoteForTypeIn(trx: Db, eventTypeId: number, now: Date): Promise<void> {
  const events = await trx
    .selectFrom('waitlist_entries as w')
    .innerJoin('events as e', 'e.id', 'w.event_id')
    .select(['e.id', 'e.start_at'])
    .distinct()
    .where('e.event_type_id', '=', eventTypeId)
    .where('w.status', '=', 'WAI')
    .where('e.start_at', '>', now.toISOString())
    .orderBy('e.start_at')
    .orderBy('e.id')
    .execute()
  for (const event of events) await promoteWaitingIn(trx, event.id, now)
}
