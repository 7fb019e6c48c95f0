import { beforeEach, describe, expect, test } from 'bun:test'
import type { Customer, EventType } from '../../../src/db/schema.ts'
import { ONE_MINUTE_LATER } from '../../helpers/app.ts'
import { doesNotExist } from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeEventVoucher } from '../../helpers/customer-record-factories.ts'
import { makeEventType } from '../../helpers/factories.ts'
import { makeEvent, makeEventQuestion, makeReservation } from '../../helpers/product-factories.ts'
import { useSeededApp, useStaff } from '../../helpers/seeded.ts'
import {
  answerOut,
  classRows,
  closed,
  duplicate,
  full,
  RESERVATIONS,
  reservationCount,
  reservationOut,
  SOON_END,
  TOMORROW_END,
  TOMORROW_START,
  type Event,
} from './classes-fixture.ts'

/*
 * POST /api/reservations/ (core/classes/booking.ts, capacity.ts): every refusal with its whole body
 * and nothing written; vouchers taken and given back; answers stored and read back; and the
 * capacity holding under simultaneous bookings. The seeded gym is in America/Denver (UTC-7 in
 * November); the clock stands at 2026-11-22 08:04 there.
 */

const t = useSeededApp()
const staff = useStaff(t, 'events')

let yoga: EventType
/** Yoga tomorrow 09:00-10:00 Denver, no capacity of its own. */
let morning: Event
let climber: Customer
let friend: Customer

beforeEach(async () => {
  yoga = await makeEventType(t.db, { name: 'Yoga' })
  morning = await yogaEvent({ name: 'Morning Yoga' })
  climber = await makeCustomer(t.db, { first_name: 'Ashima', last_name: 'Shiraishi' })
  friend = await makeCustomer(t.db, { first_name: 'Brooke', last_name: 'Raboutou' })
})

const yogaEvent = (fields: Partial<Parameters<typeof makeEvent>[1]> = {}) =>
  makeEvent(t.db, {
    event_type_id: yoga.id,
    gym_id: t.seed.gym.id,
    start_at: TOMORROW_START,
    end_at: TOMORROW_END,
    ...fields,
  })

const post = (body: unknown) => t.request('POST', RESERVATIONS, { token: staff.events.token, body })
const book = (event: Event, customer: Customer, fields: Record<string, unknown> = {}) =>
  post({ event_id: event.id, customer_id: customer.id, ...fields })
const cancel = (id: number) =>
  t.request('POST', `${RESERVATIONS}${id}/cancel/`, { token: staff.events.token })

/** `count` more customers, each booked on `event` straight in the database. */
async function fill(event: Event, count: number) {
  for (let i = 0; i < count; i++) {
    const customer = await makeCustomer(t.db, { first_name: `Filler ${i}` })
    await makeReservation(t.db, { event_id: event.id, customer_id: customer.id })
  }
}

/** The POST is 400 with exactly `errors`, and no reservation, entry or voucher changed. */
async function expectRefused(body: Record<string, unknown>, errors: unknown) {
  const before = await classRows(t)
  const res = await post(body)
  expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: errors })
  expect(await classRows(t)).toEqual(before)
}

const expectBooked = async (event: Event, customer: Customer, fields: Record<string, unknown> = {}) => {
  const res = await book(event, customer, fields)
  expect(res.status).toBe(201)
  return res.body as { id: number }
}

describe('POST /api/reservations/ refused: capacity', () => {
  test("full by the event's own capacity", async () => {
    await t.db.updateTable('events').set({ capacity: 2 }).where('id', '=', morning.id).execute()
    await fill(morning, 2)
    await expectRefused({ event_id: morning.id, customer_id: climber.id }, full)
    expect(await reservationCount(t)).toBe(2)
  })

  test('a capacity of 0 takes no booking: waitlist only', async () => {
    await t.db.updateTable('events').set({ capacity: 0 }).where('id', '=', morning.id).execute()
    await expectRefused({ event_id: morning.id, customer_id: climber.id }, full)
    expect(await reservationCount(t)).toBe(0)
  })

  test("full by the type's facility capacity across overlapping events", async () => {
    await t.db.updateTable('event_types').set({ capacity: 2 }).where('id', '=', yoga.id).execute()
    // 09:30-10:30 overlaps the morning's 09:00-10:00; one booking on each fills the type at 09:30.
    const late = await yogaEvent({
      name: 'Late Yoga',
      start_at: '2026-11-23T16:30:00.000Z',
      end_at: '2026-11-23T17:30:00.000Z',
    })
    await fill(morning, 1)
    await fill(late, 1)
    await expectRefused({ event_id: morning.id, customer_id: climber.id }, full)
    await expectRefused({ event_id: late.id, customer_id: climber.id }, full)
    // Another type's overlapping event is not counted, nor is a cancelled event of this type.
    const other = await makeEventType(t.db, { name: 'Youth Team', capacity: 1 })
    const theirs = await makeEvent(t.db, {
      event_type_id: other.id,
      gym_id: t.seed.gym.id,
      start_at: TOMORROW_START,
      end_at: TOMORROW_END,
    })
    await expectBooked(theirs, climber)
    await t.db.updateTable('events').set({ is_cancelled: 1 }).where('id', '=', late.id).execute()
    await expectBooked(morning, climber)
  })

  test('back-to-back events do not overlap: 10:00-11:00 and 11:00-12:00 of a type of 1 each take one', async () => {
    await t.db.updateTable('event_types').set({ capacity: 1 }).where('id', '=', yoga.id).execute()
    const ten = await yogaEvent({ start_at: '2026-11-23T17:00:00.000Z', end_at: '2026-11-23T18:00:00.000Z' })
    const eleven = await yogaEvent({
      start_at: '2026-11-23T18:00:00.000Z',
      end_at: '2026-11-23T19:00:00.000Z',
    })
    await expectBooked(ten, climber)
    await expectBooked(eleven, friend)
    // 10:30-11:30 overlaps both; each already holds the type's one place.
    const half = await yogaEvent({ start_at: '2026-11-23T17:30:00.000Z', end_at: '2026-11-23T18:30:00.000Z' })
    const third = await makeCustomer(t.db)
    await expectRefused({ event_id: half.id, customer_id: third.id }, full)
    await expectRefused({ event_id: ten.id, customer_id: third.id }, full)
    expect(await reservationCount(t)).toBe(2)
  })

  test('a cancelled reservation frees its place at once', async () => {
    await t.db.updateTable('events').set({ capacity: 1 }).where('id', '=', morning.id).execute()
    const held = await expectBooked(morning, friend)
    await expectRefused({ event_id: morning.id, customer_id: climber.id }, full)
    expect((await cancel(held.id)).status).toBe(200)
    await expectBooked(morning, climber)
  })
})

describe('POST /api/reservations/ refused: when booking closes', () => {
  // The clock: 15:04:05.123Z. The type's late window is 15 minutes unless told.
  test('closed once now is later than the start plus late_booking_window_minutes', async () => {
    const started = await yogaEvent({ start_at: '2026-11-22T14:49:00.000Z', end_at: SOON_END })
    await expectRefused({ event_id: started.id, customer_id: climber.id }, closed)
  })

  test('still open within the window after the start, up to its last millisecond', async () => {
    const started = await yogaEvent({ start_at: '2026-11-22T14:55:00.000Z', end_at: SOON_END })
    await expectBooked(started, climber)
    // start + 15 minutes is exactly now: not later, so still open.
    const edge = await yogaEvent({ start_at: '2026-11-22T14:49:05.123Z', end_at: SOON_END })
    await expectBooked(edge, climber)
    t.clock.advance(1)
    await expectRefused({ event_id: edge.id, customer_id: friend.id }, closed)
  })

  test('a negative window closes booking before the start', async () => {
    await t.db
      .updateTable('event_types')
      .set({ late_booking_window_minutes: -30 })
      .where('id', '=', yoga.id)
      .execute()
    // Starts in 26 minutes: booking closed 4 minutes ago.
    const soon = await yogaEvent({ start_at: '2026-11-22T15:30:00.000Z', end_at: SOON_END })
    await expectRefused({ event_id: soon.id, customer_id: climber.id }, closed)
    // Starts in 36 minutes: open for 6 more.
    const later = await yogaEvent({ start_at: '2026-11-22T15:40:00.000Z', end_at: SOON_END })
    await expectBooked(later, climber)
  })

  test('closed and full: closed is what is said', async () => {
    const started = await yogaEvent({ start_at: '2026-11-22T14:00:00.000Z', end_at: SOON_END, capacity: 0 })
    await expectRefused({ event_id: started.id, customer_id: climber.id }, closed)
  })
})

describe('POST /api/reservations/ refused: the event, its type, the customer', () => {
  test('a cancelled event', async () => {
    await t.db.updateTable('events').set({ is_cancelled: 1 }).where('id', '=', morning.id).execute()
    await expectRefused(
      { event_id: morning.id, customer_id: climber.id },
      { event_id: ['This event is cancelled.'] },
    )
  })

  test('a draft type', async () => {
    await t.db.updateTable('event_types').set({ status: 'DRA' }).where('id', '=', yoga.id).execute()
    await expectRefused(
      { event_id: morning.id, customer_id: climber.id },
      { event_id: ["This event's type is a draft."] },
    )
  })

  test('a retired type', async () => {
    await t.db.updateTable('event_types').set({ status: 'RET' }).where('id', '=', yoga.id).execute()
    await expectRefused(
      { event_id: morning.id, customer_id: climber.id },
      { event_id: ["This event's type is retired."] },
    )
  })

  test('an inactive customer', async () => {
    await t.db.updateTable('customers').set({ is_active: 0 }).where('id', '=', climber.id).execute()
    await expectRefused(
      { event_id: morning.id, customer_id: climber.id },
      { customer_id: ['This customer is inactive.'] },
    )
  })

  test('a customer already holding a live reservation; a cancelled one does not count', async () => {
    const first = await makeReservation(t.db, {
      event_id: morning.id,
      customer_id: climber.id,
      is_cancelled: 1,
    })
    const second = await expectBooked(morning, climber)
    expect(second.id).not.toBe(first.id)
    await expectRefused({ event_id: morning.id, customer_id: climber.id }, duplicate)
  })

  test('every problem at once, and the event being full not among them', async () => {
    await t.db
      .updateTable('events')
      .set({ is_cancelled: 1, capacity: 0 })
      .where('id', '=', morning.id)
      .execute()
    await t.db.updateTable('customers').set({ is_active: 0 }).where('id', '=', climber.id).execute()
    await makeReservation(t.db, { event_id: morning.id, customer_id: climber.id })
    await expectRefused(
      { event_id: morning.id, customer_id: climber.id, answers: [{ question_id: 999, answer: 'x' }] },
      {
        event_id: ['This event is cancelled.'],
        customer_id: ['This customer is inactive.'],
        non_field_errors: ['This customer already has a reservation for this event.'],
        answers: doesNotExist(999),
      },
    )
  })
})

describe("POST /api/reservations/ refused: the type's per-day limit, on the gym's local day", () => {
  // Denver is UTC-7: 20:00 on the 23rd there is 03:00 on the 24th in UTC.
  let evening: Event
  let nextMorning: Event

  beforeEach(async () => {
    await t.db
      .updateTable('event_types')
      .set({ max_reservations_per_day_for_customer: 1 })
      .where('id', '=', yoga.id)
      .execute()
    evening = await yogaEvent({
      name: 'Evening Yoga',
      start_at: '2026-11-24T03:00:00.000Z',
      end_at: '2026-11-24T04:00:00.000Z',
    })
    nextMorning = await yogaEvent({
      name: 'Next Morning Yoga',
      start_at: '2026-11-24T15:00:00.000Z',
      end_at: '2026-11-24T16:00:00.000Z',
    })
  })

  const perDay = (limit: number, date: string) => ({
    non_field_errors: [
      `This customer already has ${limit} ${limit === 1 ? 'reservation' : 'reservations'} of this event type on ${date}, the most allowed a day.`,
    ],
  })

  test('a second event on the same local day is refused, though it is another UTC day', async () => {
    await expectBooked(morning, climber)
    await expectRefused({ event_id: evening.id, customer_id: climber.id }, perDay(1, '2026-11-23'))
  })

  test('an event on the next local day is fine, though it is the same UTC day', async () => {
    await expectBooked(evening, climber)
    await expectBooked(nextMorning, climber)
  })

  test('a limit of 2 says so; cancelled reservations and other types do not count', async () => {
    await t.db
      .updateTable('event_types')
      .set({ max_reservations_per_day_for_customer: 2 })
      .where('id', '=', yoga.id)
      .execute()
    const other = await makeEventType(t.db, { name: 'Youth Team', max_reservations_per_day_for_customer: 1 })
    const theirs = await makeEvent(t.db, {
      event_type_id: other.id,
      gym_id: t.seed.gym.id,
      start_at: TOMORROW_START,
      end_at: TOMORROW_END,
    })
    await expectBooked(theirs, climber)
    const noon = await yogaEvent({ start_at: '2026-11-23T19:00:00.000Z', end_at: '2026-11-23T20:00:00.000Z' })
    const dropped = await expectBooked(noon, climber)
    expect((await cancel(dropped.id)).status).toBe(200)
    await expectBooked(morning, climber)
    await expectBooked(evening, climber)
    await expectRefused({ event_id: noon.id, customer_id: climber.id }, perDay(2, '2026-11-23'))
  })

  test('a reservation of a cancelled event does not count', async () => {
    await expectBooked(morning, climber)
    // Cancelling an event leaves its reservations as they are: they hold no place that day.
    await t.db.updateTable('events').set({ is_cancelled: 1 }).where('id', '=', morning.id).execute()
    await expectBooked(evening, climber)
  })
})

describe('POST /api/reservations/ refused: answers', () => {
  let injuries: { id: number; text: string }
  let shoes: { id: number; text: string }
  let wall: { id: number; text: string }

  beforeEach(async () => {
    injuries = await makeEventQuestion(t.db, {
      event_type_id: yoga.id,
      text: 'Any injuries?',
      is_required: 1,
    })
    shoes = await makeEventQuestion(t.db, { event_type_id: yoga.id, text: 'Renting shoes?', kind: 'BOO' })
    wall = await makeEventQuestion(t.db, {
      event_type_id: yoga.id,
      text: 'Which wall?',
      kind: 'CHO',
      choices: JSON.stringify(['North', 'South']),
    })
  })

  const refusedWith = (answers: unknown[], errors: string[]) =>
    expectRefused({ event_id: morning.id, customer_id: climber.id, answers }, { answers: errors })

  test('a required question unanswered, left out or blank', async () => {
    await refusedWith([], ['"Any injuries?" needs an answer.'])
    await refusedWith([{ question_id: injuries.id, answer: '   ' }], ['"Any injuries?" needs an answer.'])
  })

  test('an answer of the wrong kind', async () => {
    await refusedWith(
      [
        { question_id: injuries.id, answer: true },
        { question_id: shoes.id, answer: 'yes' },
      ],
      ['"Any injuries?" takes a text answer.', '"Renting shoes?" takes true or false.'],
    )
  })

  test('an answer that is not one of the choices', async () => {
    await refusedWith(
      [
        { question_id: injuries.id, answer: 'None' },
        { question_id: wall.id, answer: 'East' },
      ],
      ['"East" is not one of the choices of "Which wall?".'],
    )
  })

  test("an unknown question, another type's, or one answered twice", async () => {
    const theirs = await makeEventQuestion(t.db, {
      event_type_id: (await makeEventType(t.db, { name: 'Youth Team' })).id,
    })
    await refusedWith(
      [
        { question_id: injuries.id, answer: 'None' },
        { question_id: 999, answer: 'x' },
        { question_id: theirs.id, answer: 'x' },
        { question_id: injuries.id, answer: 'Still none' },
      ],
      [
        'Invalid pk "999" - object does not exist.',
        `Invalid pk "${theirs.id}" - object does not exist.`,
        '"Any injuries?" is answered more than once.',
      ],
    )
  })

  test('stored as given, text trimmed, booleans kept, and read back in that order with the texts', async () => {
    const answers = [
      { question_id: wall.id, answer: ' South ' },
      { question_id: shoes.id, answer: false },
      { question_id: injuries.id, answer: '  A sore knee  ' },
    ]
    const res = await book(morning, climber, { answers })
    expect(res.status).toBe(201)
    const out = [answerOut(wall, 'South'), answerOut(shoes, false), answerOut(injuries, 'A sore knee')]
    expect(res.body).toEqual(reservationOut(res.body.id, morning, climber, { answers: out }))
    const read = await t.request('GET', `${RESERVATIONS}${res.body.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(res.body)
    const stored = await t.db
      .selectFrom('reservations')
      .select('answers')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow()
    expect(JSON.parse(stored.answers)).toEqual([
      { question_id: wall.id, answer: 'South' },
      { question_id: shoes.id, answer: false },
      { question_id: injuries.id, answer: 'A sore knee' },
    ])
    const yes = await book(morning, friend, {
      answers: [
        { question_id: injuries.id, answer: 'No' },
        { question_id: shoes.id, answer: true },
      ],
    })
    expect(yes.body.answers).toEqual([answerOut(injuries, 'No'), answerOut(shoes, true)])
    // The list reads them the same way, in one statement.
    const list = await t.request('GET', `${RESERVATIONS}?event_id=${morning.id}`, {
      token: t.seed.staffToken,
    })
    expect(list.body.results.map((r: { answers: unknown }) => r.answers)).toEqual([out, yes.body.answers])
  })
})

describe('event vouchers', () => {
  const voucherPath = (customer: Customer, id: number) =>
    `/api/customers/${customer.id}/event-vouchers/${id}/`
  const usesLeft = async (customer: Customer, id: number) =>
    (await t.request('GET', voucherPath(customer, id), { token: t.seed.staffToken })).body
      .number_of_uses_remaining
  const voucher = (customer: Customer, fields: Parameters<typeof makeEventVoucher>[2] = {}) =>
    makeEventVoucher(t.db, customer.id, { event_type_id: yoga.id, ...fields })
  const refusedWith = (voucherId: number, message: string) =>
    expectRefused(
      { event_id: morning.id, customer_id: climber.id, event_voucher_id: voucherId },
      { event_voucher_id: [message] },
    )

  test("another customer's voucher, or none, is Invalid pk", async () => {
    const theirs = await voucher(friend)
    await refusedWith(theirs.id, `Invalid pk "${theirs.id}" - object does not exist.`)
    await refusedWith(999, 'Invalid pk "999" - object does not exist.')
  })

  test("another type's voucher", async () => {
    const other = await makeEventType(t.db, { name: 'Youth Team' })
    const v = await voucher(climber, { event_type_id: other.id })
    await refusedWith(v.id, 'This voucher is for another event type.')
  })

  test('a voucher used up', async () => {
    const v = await voucher(climber, { number_of_uses_remaining: 0 })
    await refusedWith(v.id, 'This voucher has no uses left.')
  })

  test("a voucher expired before the gym's today; one expiring today still works", async () => {
    // Today in Denver is 2026-11-22.
    const old = await voucher(climber, { expiry_date: '2026-11-21' })
    await refusedWith(old.id, 'This voucher has expired.')
    const today = await voucher(climber, { expiry_date: '2026-11-22' })
    await expectBooked(morning, climber, { event_voucher_id: today.id })
  })

  test('a removed voucher', async () => {
    const v = await voucher(climber, { is_removed: 1 })
    await refusedWith(v.id, 'This voucher was removed.')
  })

  test('event_voucher_id null is no voucher', async () => {
    const res = await book(morning, climber, { event_voucher_id: null })
    expect(res.body).toEqual(reservationOut(res.body.id, morning, climber))
  })

  test('booking takes a use and keeps the voucher; cancelling before the start gives it back', async () => {
    const v = await voucher(climber, { number_of_uses_remaining: 2 })
    const res = await book(morning, climber, { event_voucher_id: v.id })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(reservationOut(res.body.id, morning, climber, { event_voucher_id: v.id }))
    expect(await usesLeft(climber, v.id)).toBe(1)
    t.clock.set('2026-11-23T15:59:59.999Z')
    const cancelled = await cancel(res.body.id)
    expect(cancelled.status).toBe(200)
    expect(cancelled.body).toEqual(
      reservationOut(res.body.id, morning, climber, {
        event_voucher_id: v.id,
        is_cancelled: true,
        updated_at: '2026-11-23T15:59:59.999Z',
      }),
    )
    expect(await usesLeft(climber, v.id)).toBe(2)
  })

  test("a voucher's last use; cancelling after the start keeps it used", async () => {
    const v = await voucher(climber, { number_of_uses_remaining: 1 })
    const res = await book(morning, climber, { event_voucher_id: v.id })
    expect(await usesLeft(climber, v.id)).toBe(0)
    const evening = await yogaEvent({
      start_at: '2026-11-24T01:00:00.000Z',
      end_at: '2026-11-24T02:00:00.000Z',
    })
    await expectRefused(
      { event_id: evening.id, customer_id: climber.id, event_voucher_id: v.id },
      { event_voucher_id: ['This voucher has no uses left.'] },
    )
    t.clock.set(TOMORROW_START)
    expect((await cancel(res.body.id)).status).toBe(200)
    expect(await usesLeft(climber, v.id)).toBe(0)
  })
})

describe('simultaneous bookings', () => {
  test('20 at once for 5 spots: exactly 5 booked, 15 told the event is full', async () => {
    await t.db.updateTable('events').set({ capacity: 5 }).where('id', '=', morning.id).execute()
    const customers: Customer[] = []
    for (let i = 0; i < 20; i++) customers.push(await makeCustomer(t.db, { first_name: `Racer ${i}` }))
    const answers = await Promise.all(customers.map((customer) => book(morning, customer)))
    const booked = answers.filter((res) => res.status === 201)
    const refused = answers.filter((res) => res.status !== 201)
    expect(booked.length).toBe(5)
    expect(refused.map((res) => ({ status: res.status, body: res.body }))).toEqual(
      Array.from({ length: 15 }, () => ({ status: 400, body: full })),
    )
    expect(await reservationCount(t)).toBe(5)
    const event = await t.request('GET', `/api/events/${morning.id}/`, { token: t.seed.staffToken })
    expect(event.body).toMatchObject({ num_reservations: 5, spots_left: 0 })
  })

  test("20 at once over two overlapping events sharing the type's 5 places", async () => {
    await t.db.updateTable('event_types').set({ capacity: 5 }).where('id', '=', yoga.id).execute()
    const late = await yogaEvent({ start_at: '2026-11-23T16:30:00.000Z', end_at: '2026-11-23T17:30:00.000Z' })
    const customers: Customer[] = []
    for (let i = 0; i < 20; i++) customers.push(await makeCustomer(t.db, { first_name: `Racer ${i}` }))
    const answers = await Promise.all(customers.map((c, i) => book(i % 2 === 0 ? morning : late, c)))
    expect(answers.filter((res) => res.status === 201).length).toBe(5)
    expect(
      answers.filter((res) => res.status === 400 && res.body.non_field_errors[0] === full.non_field_errors[0])
        .length,
    ).toBe(15)
    expect(await reservationCount(t)).toBe(5)
  })
})

describe('a booking as answered', () => {
  test('201 with the whole reservation, made now', async () => {
    t.clock.advance(60_000)
    const res = await book(morning, climber, { includes_entry: false })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      reservationOut(res.body.id, morning, climber, {
        includes_entry: false,
        created_at: ONE_MINUTE_LATER,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
  })
})
