import type { Db } from '../../db/connection.ts'
import { classMessages, reservationMessages } from '../../domain/reservations.ts'
import { Refused } from '../../domain/refused.ts'
import { endOfLocalDay, localDate, startOfLocalDay } from '../../lib/local-time.ts'
import { answerProblems, storedAnswers, type Answer } from './answers.ts'
import { hasSpot, loadEventForBooking, spotsLeft, type EventForBooking } from './capacity.ts'

/*
 * Booking a customer on an event, and cancelling (classes.md). The checks and the write run in one
 * transaction, which holds the one connection: of any number of bookings of the last spot made at
 * once, the first to reach it takes it and the others find the event full. A waitlist's promotion
 * (waitlist.ts) books through the same path.
 */

export interface BookingRequest {
  eventId: number
  customerId: number
  answers: Answer[]
  eventVoucherId: number | null
  includesEntry: boolean
}

class Problems {
  readonly errors: Record<string, string[]> = {}
  add(field: string, message: string) {
    ;(this.errors[field] ??= []).push(message)
  }
  get any() {
    return Object.keys(this.errors).length > 0
  }
}

const gymZone = async (db: Db, gymId: number) =>
  (await db.selectFrom('gyms').select('time_zone').where('id', '=', gymId).executeTakeFirstOrThrow())
    .time_zone

/** Whether booking of the event has closed: now is later than its start plus the late window. */
const bookingClosed = (event: EventForBooking, now: Date) =>
  now.getTime() > Date.parse(event.start_at) + event.late_booking_window_minutes * 60_000

/**
 * What stands between the customer and a place at the event, apart from its spots, the answers and
 * the voucher: the event and its type open, the customer active and not booked on it already, and
 * the type's per-day limit. A promotion from the waitlist (waitlist.ts) is held to these too.
 */
async function checkPlaceFor(db: Db, event: EventForBooking, customerId: number, problems: Problems) {
  if (event.is_cancelled === 1) problems.add('event_id', reservationMessages.eventCancelled)
  else if (event.type_status !== 'ACT')
    problems.add('event_id', reservationMessages.typeNotActive(event.type_status))
  const customer = await db
    .selectFrom('customers')
    .select('is_active')
    .where('id', '=', customerId)
    .executeTakeFirstOrThrow()
  if (customer.is_active !== 1) problems.add('customer_id', reservationMessages.customerInactive)
  if (await liveReservationOf(db, customerId, event.id))
    problems.add('non_field_errors', reservationMessages.duplicate)
  if (event.max_reservations_per_day_for_customer !== null) {
    const limit = event.max_reservations_per_day_for_customer
    const zone = await gymZone(db, event.gym_id)
    const day = localDate(new Date(event.start_at), zone)
    const { n } = await db
      .selectFrom('reservations as r')
      .innerJoin('events as e', 'e.id', 'r.event_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('r.customer_id', '=', customerId)
      .where('r.is_cancelled', '=', 0)
      // A cancelled event's reservations stay live (cancelling an event leaves them) but hold no
      // place that day, as they hold none of the type's capacity (capacity.ts).
      .where('e.is_cancelled', '=', 0)
      .where('e.event_type_id', '=', event.event_type_id)
      .where('e.start_at', '>=', new Date(startOfLocalDay(day, zone)).toISOString())
      .where('e.start_at', '<', new Date(endOfLocalDay(day, zone)).toISOString())
      .executeTakeFirstOrThrow()
    if (n >= limit) problems.add('non_field_errors', reservationMessages.perDayLimit(limit, day))
  }
}

/**
 * What stands between the customer and a place at the event, apart from its spots: checkPlaceFor,
 * the answers, and the voucher (a waitlist entry takes none: eventVoucherId null).
 */
async function checkCustomerFor(
  db: Db,
  event: EventForBooking,
  request: Omit<BookingRequest, 'includesEntry'>,
  now: Date,
  problems: Problems,
): Promise<void> {
  await checkPlaceFor(db, event, request.customerId, problems)
  for (const message of await answerProblems(db, event.event_type_id, request.answers))
    problems.add('answers', message)
  if (request.eventVoucherId !== null) await checkVoucher(db, event, request, now, problems)
}

async function checkVoucher(
  db: Db,
  event: EventForBooking,
  request: Omit<BookingRequest, 'includesEntry'>,
  now: Date,
  problems: Problems,
): Promise<void> {
  const voucher = await db
    .selectFrom('customer_event_vouchers')
    .select(['event_type_id', 'number_of_uses_remaining', 'expiry_date', 'is_removed'])
    .where('id', '=', request.eventVoucherId)
    .where('customer_id', '=', request.customerId)
    .executeTakeFirst()
  const field = 'event_voucher_id'
  if (!voucher) return problems.add(field, classMessages.doesNotExist(request.eventVoucherId!))
  if (voucher.is_removed === 1) problems.add(field, classMessages.voucherRemoved)
  else if (voucher.event_type_id !== event.event_type_id) problems.add(field, classMessages.voucherOtherType)
  else if (voucher.number_of_uses_remaining < 1) problems.add(field, classMessages.voucherUsedUp)
  else if (
    voucher.expiry_date !== null &&
    localDate(now, await gymZone(db, event.gym_id)) > voucher.expiry_date
  )
    problems.add(field, classMessages.voucherExpired)
}

export const liveReservationOf = (db: Db, customerId: number, eventId: number) =>
  db
    .selectFrom('reservations')
    .select('id')
    .where('customer_id', '=', customerId)
    .where('event_id', '=', eventId)
    .where('is_cancelled', '=', 0)
    .executeTakeFirst()

/**
 * Why the event cannot take one more booking now, whoever books: booking has closed, or it is full.
 * Undefined when it can. Judged inside the booking's transaction (here, and a sale's BOO line).
 */
export async function placeRefusal(trx: Db, event: EventForBooking, now: Date): Promise<string | undefined> {
  if (bookingClosed(event, now)) return reservationMessages.closed
  if (!hasSpot(await spotsLeft(trx, event))) return reservationMessages.full
  return undefined
}

/**
 * Books inside the caller's transaction: every check of classes.md, then the reservation, the
 * voucher's use, and the customer's waiting entry for the event (if any) marked promoted to it.
 * Throws Refused with nothing written. The event must exist.
 */
export async function bookIn(trx: Db, request: BookingRequest, now: Date): Promise<number> {
  const event = (await loadEventForBooking(trx, request.eventId))!
  const problems = new Problems()
  await checkCustomerFor(trx, event, request, now, problems)
  if (!problems.any) {
    const refusal = await placeRefusal(trx, event, now)
    if (refusal !== undefined) problems.add('non_field_errors', refusal)
  }
  if (problems.any) throw new Refused(problems.errors)
  return placeIn(trx, event, request, now)
}

/** Writes the reservation a checked booking (or a promotion) gives. */
export async function placeIn(
  trx: Db,
  event: { id: number },
  request: BookingRequest,
  now: Date,
): Promise<number> {
  const at = now.toISOString()
  const { id } = await trx
    .insertInto('reservations')
    .values({
      event_id: event.id,
      customer_id: request.customerId,
      includes_entry: request.includesEntry ? 1 : 0,
      is_cancelled: 0,
      checked_in: 0,
      answers: storedAnswers(request.answers),
      event_voucher_id: request.eventVoucherId,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  if (request.eventVoucherId !== null)
    await trx
      .updateTable('customer_event_vouchers')
      .set((eb) => ({ number_of_uses_remaining: eb('number_of_uses_remaining', '-', 1), updated_at: at }))
      .where('id', '=', request.eventVoucherId)
      .execute()
  await leaveWaitlistBooked(trx, event.id, request.customerId, id, at)
  return id
}

/**
 * A customer booked on an event they were waiting for (directly, by a sale or by promotion): their
 * waiting entry is promoted to that reservation.
 */
export const leaveWaitlistBooked = (
  trx: Db,
  eventId: number,
  customerId: number,
  reservationId: number,
  at: string,
) =>
  trx
    .updateTable('waitlist_entries')
    .set({ status: 'PRO', reservation_id: reservationId, updated_at: at })
    .where('event_id', '=', eventId)
    .where('customer_id', '=', customerId)
    .where('status', '=', 'WAI')
    .execute()

/** An event cancelled: nobody waits for it any more (its entries read CAN). */
export const closeWaitlistIn = (trx: Db, eventId: number, at: string) =>
  trx
    .updateTable('waitlist_entries')
    .set({ status: 'CAN', updated_at: at })
    .where('event_id', '=', eventId)
    .where('status', '=', 'WAI')
    .execute()

/** Books in a transaction of its own. */
export const book = (db: Db, request: BookingRequest, now: Date) =>
  db.transaction().execute((trx) => bookIn(trx, request, now))

/** The checks a waitlist entry must pass (all but the spots and the voucher), for waitlist.ts. */
export async function waitlistProblems(
  trx: Db,
  event: EventForBooking,
  request: { eventId: number; customerId: number; answers: Answer[] },
  now: Date,
): Promise<Record<string, string[]>> {
  const problems = new Problems()
  await checkCustomerFor(trx, event, { ...request, eventVoucherId: null }, now, problems)
  if (!problems.any && bookingClosed(event, now)) problems.add('non_field_errors', reservationMessages.closed)
  return problems.errors
}

/**
 * What keeps a waiting customer from being promoted to the event (waitlist.ts), its spots apart:
 * the checks of a booking but the answers (given when they joined, not asked again) and a voucher.
 */
export async function promotionProblems(
  trx: Db,
  event: EventForBooking,
  customerId: number,
): Promise<Record<string, string[]>> {
  const problems = new Problems()
  await checkPlaceFor(trx, event, customerId, problems)
  return problems.errors
}

/**
 * Cancels a live reservation inside the caller's transaction: its spot is free at once, and a
 * voucher use it took is given back when the event has not started. Returns the event's id, for
 * the caller to offer the spot to its waitlist (waitlist.ts, promoteWaiting).
 */
export async function cancelIn(trx: Db, reservationId: number, now: Date): Promise<number> {
  const at = now.toISOString()
  const reservation = await trx
    .selectFrom('reservations as r')
    .innerJoin('events as e', 'e.id', 'r.event_id')
    .select(['r.event_id', 'r.event_voucher_id', 'e.start_at'])
    .where('r.id', '=', reservationId)
    .executeTakeFirstOrThrow()
  await trx
    .updateTable('reservations')
    .set({ is_cancelled: 1, updated_at: at })
    .where('id', '=', reservationId)
    .execute()
  if (reservation.event_voucher_id !== null && at < reservation.start_at)
    await trx
      .updateTable('customer_event_vouchers')
      .set((eb) => ({ number_of_uses_remaining: eb('number_of_uses_remaining', '+', 1), updated_at: at }))
      .where('id', '=', reservation.event_voucher_id)
      .execute()
  return reservation.event_id
}

/**
 * Cancels an event inside the caller's transaction (a schedule exception's date, a schedule
 * deactivated): the event is kept with `is_cancelled`, its live reservations are cancelled with
 * their voucher uses given back, and its waiting entries cancelled.
 */
export async function cancelEventIn(trx: Db, eventId: number, now: Date): Promise<void> {
  const at = now.toISOString()
  await trx.updateTable('events').set({ is_cancelled: 1, updated_at: at }).where('id', '=', eventId).execute()
  const live = await trx
    .selectFrom('reservations')
    .select('id')
    .where('event_id', '=', eventId)
    .where('is_cancelled', '=', 0)
    .execute()
  for (const { id } of live) await cancelIn(trx, id, now)
  await closeWaitlistIn(trx, eventId, at)
}
