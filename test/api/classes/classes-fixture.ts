import type { Selectable } from 'kysely'
import type { Customer, EventType } from '../../../src/db/schema.ts'
import type { EventTable } from '../../../src/db/tables/products.ts'
import { ORIGIN, START } from '../../helpers/app.ts'
import { countRows } from '../../helpers/factories.ts'
import type { SeededApp } from '../../helpers/seeded.ts'

/*
 * What the classes tests (booking, capacity, the waitlist) share: the times their events take, and
 * the whole bodies the API answers for a reservation, a waitlist entry and an event. The test app's
 * clock stands at START, 2026-11-22 15:04:05.123Z (08:04 in the seeded gym's America/Denver).
 */

/** Tomorrow 09:00-10:00 in Denver: more than the default 2-hour promotion cutoff away. */
export const TOMORROW_START = '2026-11-23T16:00:00.000Z'
export const TOMORROW_END = '2026-11-23T17:00:00.000Z'

/** Today 09:00-10:00 in Denver: under an hour away, inside the default 2-hour cutoff. */
export const SOON_START = '2026-11-22T16:00:00.000Z'
export const SOON_END = '2026-11-22T17:00:00.000Z'

export type Event = Selectable<EventTable>

export const RESERVATIONS = '/api/reservations/'
export const WAITLIST = '/api/waitlist-entries/'

export const full = { non_field_errors: ['The event is full.'] }
export const closed = { non_field_errors: ['Booking for this event has closed.'] }
export const hasSpots = { non_field_errors: ['The event has spots left: book it instead.'] }
export const notWaiting = { non_field_errors: ['This entry is no longer waiting.'] }
export const duplicate = { non_field_errors: ['This customer already has a reservation for this event.'] }
export const alreadyWaiting = {
  non_field_errors: ['This customer is already on the waitlist for this event.'],
}
export const expired = { non_field_errors: ['This event has started: its waitlist has expired.'] }

/** An answer as read back: the question's id and text, and the answer. */
export const answerOut = (question: { id: number; text: string }, answer: string | boolean) => ({
  question_id: question.id,
  question_text: question.text,
  answer,
})

/** A reservation as the API answers it: `customer` on `event`, live, no answers, made at START. */
export function reservationOut(
  id: number,
  event: Event,
  customer: Customer,
  fields: Record<string, unknown> = {},
) {
  return {
    id,
    url: `${ORIGIN}/api/reservations/${id}/`,
    event_id: event.id,
    event_url: `${ORIGIN}/api/events/${event.id}/`,
    event_name: event.name,
    event_start_at: event.start_at,
    event_end_at: event.end_at,
    gym_id: event.gym_id,
    customer_id: customer.id,
    customer_url: `${ORIGIN}/api/customers/${customer.id}/`,
    customer_first_name: customer.first_name,
    customer_last_name: customer.last_name,
    includes_entry: true,
    is_cancelled: false,
    checked_in: false,
    answers: [],
    event_voucher_id: null,
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

/** A waitlist entry as the API answers it: `customer` waiting for `event`, joined at START. */
export function entryOut(id: number, event: Event, customer: Customer, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/waitlist-entries/${id}/`,
    event_id: event.id,
    event_url: `${ORIGIN}/api/events/${event.id}/`,
    customer_id: customer.id,
    customer_url: `${ORIGIN}/api/customers/${customer.id}/`,
    customer_first_name: customer.first_name,
    customer_last_name: customer.last_name,
    position: 1,
    status: 'WAI',
    reservation_id: null,
    answers: [],
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

/** An event as the API answers it, of `type` at the seeded gym, with nothing booked. */
export function eventOut(event: Event, type: EventType, fields: Record<string, unknown> = {}) {
  return {
    id: event.id,
    url: `${ORIGIN}/api/events/${event.id}/`,
    event_type_id: type.id,
    event_type_name: type.name,
    event_type_url: `${ORIGIN}/api/event-types/${type.id}/`,
    gym_id: event.gym_id,
    gym_name: 'Boulder Barn Downtown',
    gym_url: `${ORIGIN}/api/gyms/${event.gym_id}/`,
    name: event.name,
    start_at: event.start_at,
    end_at: event.end_at,
    includes_entry: true,
    is_cancelled: false,
    capacity: event.capacity,
    num_reservations: 0,
    num_waitlisted: 0,
    spots_left: null,
    schedule_id: null,
    price: '0.00',
    tax_rate_id: null,
    revenue_account_code: '',
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

/**
 * Everything a booking or a waitlist request may write: the reservations, the waitlist entries and
 * the event vouchers, whole, to compare before and after a refusal.
 */
export const classRows = async (t: SeededApp) => ({
  reservations: await t.db.selectFrom('reservations').selectAll().orderBy('id').execute(),
  entries: await t.db.selectFrom('waitlist_entries').selectAll().orderBy('id').execute(),
  vouchers: await t.db.selectFrom('customer_event_vouchers').selectAll().orderBy('id').execute(),
})

export const reservationCount = (t: SeededApp) => countRows(t.db, 'reservations')
export const entryCount = (t: SeededApp) => countRows(t.db, 'waitlist_entries')
