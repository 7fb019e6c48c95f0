import { beforeEach, describe, expect, test } from 'bun:test'
import type { Customer, EventType } from '../../../src/db/schema.ts'
import { ONE_MINUTE_LATER } from '../../helpers/app.ts'
import { onePage } from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeEventType } from '../../helpers/factories.ts'
import { makeEvent, makeEventQuestion, makeReservation } from '../../helpers/product-factories.ts'
import { useSeededApp, useStaff } from '../../helpers/seeded.ts'
import {
  alreadyWaiting,
  answerOut,
  classRows,
  closed,
  duplicate,
  entryOut,
  expired,
  full,
  hasSpots,
  notWaiting,
  RESERVATIONS,
  reservationOut,
  SOON_END,
  SOON_START,
  TOMORROW_END,
  TOMORROW_START,
  WAITLIST,
  type Event,
} from './classes-fixture.ts'

/*
 * /api/waitlist-entries/ (core/classes/waitlist.ts): joining a full event, positions, leaving, the
 * promotion of the first waiting customer when a spot opens before the type's cutoff (by a
 * cancellation, a raised capacity of the event or of its type), promotion by hand after it, and
 * entries expiring once the event starts. The clock stands at 2026-11-22 15:04:05.123Z; "tomorrow"
 * is more than the default 2-hour cutoff away, "soon" (16:00Z today) inside it.
 */

const t = useSeededApp()
const staff = useStaff(t, 'events')

let yoga: EventType
/** Yoga tomorrow, one place, held by `holder`. */
let morning: Event
let holderReservation: number
let holder: Customer
let ashima: Customer
let brooke: Customer
let chris: Customer

beforeEach(async () => {
  yoga = await makeEventType(t.db, { name: 'Yoga' })
  morning = await yogaEvent({ name: 'Morning Yoga', capacity: 1 })
  holder = await makeCustomer(t.db, { first_name: 'Lynn', last_name: 'Hill' })
  ashima = await makeCustomer(t.db, { first_name: 'Ashima', last_name: 'Shiraishi' })
  brooke = await makeCustomer(t.db, { first_name: 'Brooke', last_name: 'Raboutou' })
  chris = await makeCustomer(t.db, { first_name: 'Chris', last_name: 'Sharma' })
  holderReservation = (await makeReservation(t.db, { event_id: morning.id, customer_id: holder.id })).id
})

const yogaEvent = (fields: Partial<Parameters<typeof makeEvent>[1]> = {}) =>
  makeEvent(t.db, {
    event_type_id: yoga.id,
    gym_id: t.seed.gym.id,
    start_at: TOMORROW_START,
    end_at: TOMORROW_END,
    ...fields,
  })

const token = () => staff.events.token
const join = (event: Event, customer: Customer, fields: Record<string, unknown> = {}) =>
  t.request('POST', WAITLIST, {
    token: token(),
    body: { event_id: event.id, customer_id: customer.id, ...fields },
  })
const joined = async (event: Event, customer: Customer, fields: Record<string, unknown> = {}) => {
  const res = await join(event, customer, fields)
  expect(res.status).toBe(201)
  return res.body.id as number
}
const action = (path: string, id: number, name: string) =>
  t.request('POST', `${path}${id}/${name}/`, { token: token() })
const readEntry = async (id: number) =>
  (await t.request('GET', `${WAITLIST}${id}/`, { token: t.seed.staffToken })).body
const readEvent = async (event: Event) =>
  (await t.request('GET', `/api/events/${event.id}/`, { token: t.seed.staffToken })).body
const readReservation = async (id: number) =>
  (await t.request('GET', `${RESERVATIONS}${id}/`, { token: t.seed.staffToken })).body
const list = async (query: string) =>
  (await t.request('GET', `${WAITLIST}?${query}`, { token: t.seed.staffToken })).body

/** The request is 400 with exactly `errors`, and no reservation, entry or voucher changed. */
async function expectRefused(send: () => Promise<{ status: number; body: unknown }>, errors: unknown) {
  const before = await classRows(t)
  const res = await send()
  expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: errors })
  expect(await classRows(t)).toEqual(before)
}

describe('joining', () => {
  test('201 with the whole entry; positions 1, 2, 3 in the order they joined', async () => {
    const res = await join(morning, ashima)
    expect(res.status).toBe(201)
    expect(res.body).toEqual(entryOut(res.body.id, morning, ashima))
    const second = await joined(morning, brooke)
    const third = await joined(morning, chris)
    expect(await list(`event_id=${morning.id}`)).toEqual(
      onePage([
        entryOut(res.body.id, morning, ashima),
        entryOut(second, morning, brooke, { position: 2 }),
        entryOut(third, morning, chris, { position: 3 }),
      ]),
    )
  })

  test('answers are checked as at booking, stored trimmed and read back', async () => {
    const level = await makeEventQuestion(t.db, {
      event_type_id: yoga.id,
      text: 'Your level?',
      kind: 'CHO',
      choices: JSON.stringify(['New', 'Regular']),
      is_required: 1,
    })
    const mat = await makeEventQuestion(t.db, { event_type_id: yoga.id, text: 'Own a mat?', kind: 'BOO' })
    await expectRefused(() => join(morning, ashima), { answers: ['"Your level?" needs an answer.'] })
    await expectRefused(
      () => join(morning, ashima, { answers: [{ question_id: level.id, answer: 'Guru' }] }),
      {
        answers: ['"Guru" is not one of the choices of "Your level?".'],
      },
    )
    const res = await join(morning, ashima, {
      answers: [
        { question_id: mat.id, answer: true },
        { question_id: level.id, answer: ' New ' },
      ],
    })
    expect(res.body).toEqual(
      entryOut(res.body.id, morning, ashima, { answers: [answerOut(mat, true), answerOut(level, 'New')] }),
    )
  })

  test('refused while the event has spots left', async () => {
    const open = await yogaEvent({ capacity: 2 })
    await makeReservation(t.db, { event_id: open.id, customer_id: holder.id })
    await expectRefused(() => join(open, ashima), hasSpots)
    const unlimited = await yogaEvent()
    await expectRefused(() => join(unlimited, ashima), hasSpots)
    // Full by its type's facility capacity: the waitlist takes it.
    await t.db.updateTable('event_types').set({ capacity: 1 }).where('id', '=', yoga.id).execute()
    await joined(unlimited, ashima)
  })

  test('refused when already waiting; after leaving, joining again goes to the end', async () => {
    const first = await joined(morning, ashima)
    await joined(morning, brooke)
    await expectRefused(() => join(morning, ashima), alreadyWaiting)
    expect((await action(WAITLIST, first, 'cancel')).status).toBe(200)
    const again = await joined(morning, ashima)
    expect(await readEntry(again)).toEqual(entryOut(again, morning, ashima, { position: 2 }))
  })

  test('refused to a customer holding a reservation for it', async () => {
    await expectRefused(() => join(morning, holder), duplicate)
  })

  test('refused for the reasons a booking is: a cancelled event, closed booking, an inactive customer', async () => {
    await t.db.updateTable('customers').set({ is_active: 0 }).where('id', '=', ashima.id).execute()
    await expectRefused(() => join(morning, ashima), { customer_id: ['This customer is inactive.'] })
    const over = await yogaEvent({ start_at: '2026-11-22T14:00:00.000Z', end_at: SOON_END, capacity: 0 })
    await expectRefused(() => join(over, brooke), closed)
    await t.db.updateTable('events').set({ is_cancelled: 1 }).where('id', '=', morning.id).execute()
    await expectRefused(() => join(morning, brooke), { event_id: ['This event is cancelled.'] })
  })

  test('refused once the event has started, even while it may still be booked', async () => {
    // Started 4 minutes ago, inside the 15-minute late window: a spot would be booked, not waited for.
    const started = await yogaEvent({ start_at: '2026-11-22T15:00:00.000Z', end_at: SOON_END, capacity: 0 })
    await expectRefused(() => join(started, ashima), expired)
  })
})

describe('leaving', () => {
  test('cancel/ of a waiting entry: CAN, no position, and the later ones move up', async () => {
    const first = await joined(morning, ashima)
    const second = await joined(morning, brooke)
    const third = await joined(morning, chris)
    t.clock.advance(60_000)
    const res = await action(WAITLIST, second, 'cancel')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      entryOut(second, morning, brooke, { status: 'CAN', position: null, updated_at: ONE_MINUTE_LATER }),
    )
    expect((await readEntry(first)).position).toBe(1)
    expect((await readEntry(third)).position).toBe(2)
    expect((await readEvent(morning)).num_waitlisted).toBe(2)
    expect(await list(`status=CAN`)).toEqual(onePage([res.body]))
  })

  test('cancel/ refused for an entry no longer waiting: left, promoted or expired', async () => {
    const left = await joined(morning, ashima)
    await action(WAITLIST, left, 'cancel')
    await expectRefused(() => action(WAITLIST, left, 'cancel'), notWaiting)
    const promoted = await joined(morning, brooke)
    await action(RESERVATIONS, holderReservation, 'cancel')
    expect((await readEntry(promoted)).status).toBe('PRO')
    await expectRefused(() => action(WAITLIST, promoted, 'cancel'), notWaiting)
    const late = await joined(morning, chris)
    t.clock.set(TOMORROW_START)
    await expectRefused(() => action(WAITLIST, late, 'cancel'), notWaiting)
  })
})

describe('promotion when a reservation is cancelled', () => {
  test('before the cutoff: the first waiting entry becomes a reservation in the same request', async () => {
    const injuries = await makeEventQuestion(t.db, { event_type_id: yoga.id, text: 'Any injuries?' })
    const first = await joined(morning, ashima, { answers: [{ question_id: injuries.id, answer: ' None ' }] })
    const second = await joined(morning, brooke)
    expect(await readEvent(morning)).toMatchObject({ num_reservations: 1, num_waitlisted: 2, spots_left: 0 })
    t.clock.advance(60_000)
    const cancelled = await action(RESERVATIONS, holderReservation, 'cancel')
    expect(cancelled.status).toBe(200)
    expect(cancelled.body).toMatchObject({ id: holderReservation, is_cancelled: true })
    const entry = await readEntry(first)
    expect(entry).toEqual(
      entryOut(first, morning, ashima, {
        status: 'PRO',
        position: null,
        reservation_id: entry.reservation_id,
        answers: [answerOut(injuries, 'None')],
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    expect(await readReservation(entry.reservation_id)).toEqual(
      reservationOut(entry.reservation_id, morning, ashima, {
        answers: [answerOut(injuries, 'None')],
        created_at: ONE_MINUTE_LATER,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    expect(await readEntry(second)).toEqual(entryOut(second, morning, brooke, { position: 1 }))
    expect(await readEvent(morning)).toMatchObject({ num_reservations: 1, num_waitlisted: 1, spots_left: 0 })
  })

  test("a place freed under the type's capacity goes to an overlapping event's waitlist too", async () => {
    // One place across the type: the morning's holder fills both it and an overlapping class.
    await t.db.updateTable('events').set({ capacity: null }).where('id', '=', morning.id).execute()
    await t.db.updateTable('event_types').set({ capacity: 1 }).where('id', '=', yoga.id).execute()
    const overlapping = await yogaEvent({
      name: 'Late Yoga',
      start_at: '2026-11-23T16:30:00.000Z',
      end_at: '2026-11-23T17:30:00.000Z',
    })
    const entry = await joined(overlapping, ashima)
    // An event of the type on another day has no share in the place freed.
    const nextDay = await yogaEvent({
      start_at: '2026-11-24T16:00:00.000Z',
      end_at: '2026-11-24T17:00:00.000Z',
      capacity: 0,
    })
    const elsewhere = await joined(nextDay, brooke)
    t.clock.advance(60_000)
    await action(RESERVATIONS, holderReservation, 'cancel')
    const promoted = await readEntry(entry)
    expect(promoted).toEqual(
      entryOut(entry, overlapping, ashima, {
        status: 'PRO',
        position: null,
        reservation_id: promoted.reservation_id,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    expect(await readEvent(overlapping)).toMatchObject({
      num_reservations: 1,
      num_waitlisted: 0,
      spots_left: 0,
    })
    expect(await readEntry(elsewhere)).toEqual(entryOut(elsewhere, nextDay, brooke))
    expect(await readEvent(morning)).toMatchObject({ num_reservations: 0, spots_left: 0 })
  })

  test("the cancelled event's own waitlist comes first", async () => {
    await t.db.updateTable('event_types').set({ capacity: 1 }).where('id', '=', yoga.id).execute()
    const overlapping = await yogaEvent({
      start_at: '2026-11-23T15:30:00.000Z',
      end_at: '2026-11-23T16:30:00.000Z',
    })
    const theirs = await joined(overlapping, ashima)
    const own = await joined(morning, brooke)
    await action(RESERVATIONS, holderReservation, 'cancel')
    expect((await readEntry(own)).status).toBe('PRO')
    expect(await readEntry(theirs)).toEqual(entryOut(theirs, overlapping, ashima))
  })

  test('a spot freed with nobody waiting stays free', async () => {
    await action(RESERVATIONS, holderReservation, 'cancel')
    expect(await readEvent(morning)).toMatchObject({ num_reservations: 0, num_waitlisted: 0, spots_left: 1 })
  })

  test('inside the cutoff nobody is promoted; promote/ does it by hand, whatever the order', async () => {
    const soon = await yogaEvent({ start_at: SOON_START, end_at: SOON_END, capacity: 1 })
    const held = await makeReservation(t.db, { event_id: soon.id, customer_id: holder.id })
    const first = await joined(soon, ashima)
    const second = await joined(soon, brooke)
    await action(RESERVATIONS, held.id, 'cancel')
    expect(await readEntry(first)).toEqual(entryOut(first, soon, ashima))
    expect(await readEvent(soon)).toMatchObject({ num_reservations: 0, num_waitlisted: 2, spots_left: 1 })
    t.clock.advance(60_000)
    const res = await action(WAITLIST, second, 'promote')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      entryOut(second, soon, brooke, {
        status: 'PRO',
        position: null,
        reservation_id: res.body.reservation_id,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    expect(await readReservation(res.body.reservation_id)).toEqual(
      reservationOut(res.body.reservation_id, soon, brooke, {
        created_at: ONE_MINUTE_LATER,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    expect(await readEntry(first)).toEqual(entryOut(first, soon, ashima))
    expect(await readEvent(soon)).toMatchObject({ num_reservations: 1, num_waitlisted: 1, spots_left: 0 })
  })

  test('a cutoff of 0: promoted automatically up to the start', async () => {
    await t.db
      .updateTable('event_types')
      .set({ waitlist_promotion_cutoff_hours: 0 })
      .where('id', '=', yoga.id)
      .execute()
    const soon = await yogaEvent({ start_at: SOON_START, end_at: SOON_END, capacity: 1 })
    const held = await makeReservation(t.db, { event_id: soon.id, customer_id: holder.id })
    const first = await joined(soon, ashima)
    await action(RESERVATIONS, held.id, 'cancel')
    expect((await readEntry(first)).status).toBe('PRO')
  })
})

describe('promotion checks the customer as a booking does', () => {
  const perDay = {
    non_field_errors: [
      'This customer already has 1 reservation of this event type on 2026-11-23, the most allowed a day.',
    ],
  }

  beforeEach(async () => {
    await t.db
      .updateTable('event_types')
      .set({ max_reservations_per_day_for_customer: 1 })
      .where('id', '=', yoga.id)
      .execute()
  })

  /** Ashima, first in line for the morning, booked since on an evening class the same local day. */
  async function bookedElsewhere() {
    const first = await joined(morning, ashima)
    const evening = await yogaEvent({
      start_at: '2026-11-24T01:00:00.000Z',
      end_at: '2026-11-24T02:00:00.000Z',
    })
    const res = await t.request('POST', RESERVATIONS, {
      token: token(),
      body: { event_id: evening.id, customer_id: ashima.id },
    })
    expect(res.status).toBe(201)
    return first
  }

  test('before the cutoff, one the per-day limit or an inactive account keeps out is passed over', async () => {
    const first = await bookedElsewhere()
    const second = await joined(morning, brooke)
    const third = await joined(morning, chris)
    await t.db.updateTable('customers').set({ is_active: 0 }).where('id', '=', brooke.id).execute()
    await action(RESERVATIONS, holderReservation, 'cancel')
    // Chris takes the place; Ashima and Brooke still wait, in their order.
    expect((await readEntry(third)).status).toBe('PRO')
    expect(await readEntry(first)).toEqual(entryOut(first, morning, ashima))
    expect(await readEntry(second)).toEqual(entryOut(second, morning, brooke, { position: 2 }))
    expect(await readEvent(morning)).toMatchObject({ num_reservations: 1, num_waitlisted: 2, spots_left: 0 })
  })

  test('by hand, refused with the reason', async () => {
    const first = await bookedElsewhere()
    const second = await joined(morning, brooke)
    await t.db.updateTable('events').set({ capacity: 2 }).where('id', '=', morning.id).execute()
    await expectRefused(() => action(WAITLIST, first, 'promote'), perDay)
    await t.db.updateTable('customers').set({ is_active: 0 }).where('id', '=', brooke.id).execute()
    await expectRefused(() => action(WAITLIST, second, 'promote'), {
      customer_id: ['This customer is inactive.'],
    })
  })

  test('by hand, refused to a customer who holds a reservation for the event already', async () => {
    await t.db
      .updateTable('event_types')
      .set({ max_reservations_per_day_for_customer: null })
      .where('id', '=', yoga.id)
      .execute()
    const first = await joined(morning, ashima)
    await t.db.updateTable('events').set({ capacity: 3 }).where('id', '=', morning.id).execute()
    // As a sale of the event on an invoice books it, past the waitlist.
    await makeReservation(t.db, { event_id: morning.id, customer_id: ashima.id })
    await expectRefused(() => action(WAITLIST, first, 'promote'), duplicate)
  })
})

describe('promote/ refused', () => {
  test('while the event is full', async () => {
    const entry = await joined(morning, ashima)
    await expectRefused(() => action(WAITLIST, entry, 'promote'), full)
  })

  test('for an entry not waiting', async () => {
    const entry = await joined(morning, ashima)
    await action(WAITLIST, entry, 'cancel')
    await t.db.updateTable('events').set({ capacity: 2 }).where('id', '=', morning.id).execute()
    await expectRefused(() => action(WAITLIST, entry, 'promote'), notWaiting)
  })

  test('once the event has started', async () => {
    const entry = await joined(morning, ashima)
    await t.db.updateTable('events').set({ capacity: 2 }).where('id', '=', morning.id).execute()
    t.clock.set(TOMORROW_START)
    await expectRefused(() => action(WAITLIST, entry, 'promote'), expired)
  })
})

describe('expiry', () => {
  test('entries still waiting once the event has started read EXP with no position', async () => {
    const first = await joined(morning, ashima)
    const second = await joined(morning, brooke)
    const left = await joined(morning, chris)
    await action(WAITLIST, left, 'cancel')
    const later = await yogaEvent({
      start_at: '2026-11-24T16:00:00.000Z',
      end_at: '2026-11-24T17:00:00.000Z',
      capacity: 0,
    })
    const other = await joined(later, ashima)
    expect(await list('status=EXP')).toEqual(onePage([]))
    t.clock.set(TOMORROW_START)
    const expiredFirst = entryOut(first, morning, ashima, { status: 'EXP', position: null })
    const expiredSecond = entryOut(second, morning, brooke, { status: 'EXP', position: null })
    expect(await readEntry(first)).toEqual(expiredFirst)
    expect(await list('status=EXP')).toEqual(onePage([expiredFirst, expiredSecond]))
    expect(await list('status=WAI')).toEqual(onePage([entryOut(other, later, ashima)]))
    expect(await list(`status=CAN&event_id=${morning.id}`)).toEqual(
      onePage([entryOut(left, morning, chris, { status: 'CAN', position: null })]),
    )
    expect((await readEvent(morning)).num_waitlisted).toBe(0)
  })
})

describe('promotion when capacity is raised', () => {
  test("raising an event's capacity by PATCH promotes as many as fit, in order", async () => {
    const first = await joined(morning, ashima)
    const second = await joined(morning, brooke)
    const third = await joined(morning, chris)
    const res = await t.request('PATCH', `/api/events/${morning.id}/`, {
      token: token(),
      body: { capacity: 3 },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ capacity: 3, num_reservations: 3, num_waitlisted: 1, spots_left: 0 })
    expect((await readEntry(first)).status).toBe('PRO')
    expect((await readEntry(second)).status).toBe('PRO')
    expect(await readEntry(third)).toEqual(entryOut(third, morning, chris))
  })

  test('a capacity of null promotes everyone waiting; inside the cutoff a raise promotes nobody', async () => {
    const first = await joined(morning, ashima)
    const second = await joined(morning, brooke)
    const soon = await yogaEvent({ start_at: SOON_START, end_at: SOON_END, capacity: 0 })
    const near = await joined(soon, chris)
    const patch = (event: Event, capacity: number | null) =>
      t.request('PATCH', `/api/events/${event.id}/`, { token: token(), body: { capacity } })
    expect((await patch(morning, null)).body).toMatchObject({
      capacity: null,
      num_reservations: 3,
      num_waitlisted: 0,
      spots_left: null,
    })
    expect((await readEntry(first)).status).toBe('PRO')
    expect((await readEntry(second)).status).toBe('PRO')
    expect((await patch(soon, 5)).body).toMatchObject({
      num_reservations: 0,
      num_waitlisted: 1,
      spots_left: 5,
    })
    expect(await readEntry(near)).toEqual(entryOut(near, soon, chris))
  })

  test("raising the type's capacity by PATCH promotes across its future events", async () => {
    await t.db.updateTable('events').set({ capacity: null }).where('id', '=', morning.id).execute()
    await t.db.updateTable('event_types').set({ capacity: 1 }).where('id', '=', yoga.id).execute()
    const nextDay = await yogaEvent({
      start_at: '2026-11-24T16:00:00.000Z',
      end_at: '2026-11-24T17:00:00.000Z',
    })
    await makeReservation(t.db, { event_id: nextDay.id, customer_id: holder.id })
    // One that has started is left alone: its entries have expired.
    const started = await yogaEvent({ start_at: '2026-11-22T15:00:00.000Z', end_at: SOON_END, capacity: 0 })
    const stale = (
      await t.db
        .insertInto('waitlist_entries')
        .values({
          event_id: started.id,
          customer_id: chris.id,
          status: 'WAI',
          created_at: '2026-11-22T14:00:00.000Z',
          updated_at: '2026-11-22T14:00:00.000Z',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
    const a1 = await joined(morning, ashima)
    const b1 = await joined(morning, brooke)
    const a2 = await joined(nextDay, ashima)
    const res = await t.request('PATCH', `/api/event-types/${yoga.id}/`, {
      token: token(),
      body: { capacity: 2 },
    })
    expect(res.status).toBe(200)
    expect((await readEntry(a1)).status).toBe('PRO')
    expect(await readEntry(b1)).toMatchObject({ status: 'WAI', position: 1 })
    expect((await readEntry(a2)).status).toBe('PRO')
    expect(await readEntry(stale)).toMatchObject({ status: 'EXP', reservation_id: null })
    expect(await readEvent(morning)).toMatchObject({ num_reservations: 2, num_waitlisted: 1, spots_left: 0 })
    expect(await readEvent(nextDay)).toMatchObject({ num_reservations: 2, num_waitlisted: 0, spots_left: 0 })
  })
})

describe('a waiting customer booked directly', () => {
  test('after a spot opened inside the cutoff, their entry reads PRO with the reservation', async () => {
    const soon = await yogaEvent({ start_at: SOON_START, end_at: SOON_END, capacity: 1 })
    const held = await makeReservation(t.db, { event_id: soon.id, customer_id: holder.id })
    const first = await joined(soon, ashima)
    const second = await joined(soon, brooke)
    await action(RESERVATIONS, held.id, 'cancel')
    const res = await t.request('POST', RESERVATIONS, {
      token: token(),
      body: { event_id: soon.id, customer_id: brooke.id },
    })
    expect(res.status).toBe(201)
    expect(await readEntry(second)).toEqual(
      entryOut(second, soon, brooke, { status: 'PRO', position: null, reservation_id: res.body.id }),
    )
    expect(await readEntry(first)).toEqual(entryOut(first, soon, ashima))
    expect(await readEvent(soon)).toMatchObject({ num_reservations: 1, num_waitlisted: 1, spots_left: 0 })
  })
})

describe('a waitlist and the event around it', () => {
  test('a waiting customer booked by a sale leaves the waitlist promoted to that reservation', async () => {
    const soon = await yogaEvent({ start_at: SOON_START, end_at: SOON_END, capacity: 1 })
    const held = await makeReservation(t.db, { event_id: soon.id, customer_id: holder.id })
    const entry = await joined(soon, ashima)
    await action(RESERVATIONS, held.id, 'cancel')
    const sale = await t.request('POST', '/api/invoices/', {
      token: t.seed.adminToken,
      body: {
        customer_id: ashima.id,
        line_items: [{ purchase_type: 'BOO', event_id: soon.id }],
      },
    })
    expect(sale.status).toBe(201)
    const reservationId = sale.body.line_items[0].reservation_id
    expect(await readEntry(entry)).toEqual(
      entryOut(entry, soon, ashima, { status: 'PRO', position: null, reservation_id: reservationId }),
    )
  })

  test('cancelling the event by PATCH cancels its waiting entries', async () => {
    const entry = await joined(morning, ashima)
    const res = await t.request('PATCH', `/api/events/${morning.id}/`, {
      token: token(),
      body: { is_cancelled: true },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ num_reservations: 1, num_waitlisted: 0 })
    expect(await readEntry(entry)).toEqual(
      entryOut(entry, morning, ashima, { status: 'CAN', position: null }),
    )
  })
})
