import { beforeEach, describe, expect, test } from 'bun:test'
import type { Customer, EventType } from '../../../src/db/schema.ts'
import { ONE_MINUTE_LATER, START } from '../../helpers/app.ts'
import { maxValue, minValue, onePage } from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { countRows, makeEventType } from '../../helpers/factories.ts'
import { makeEvent, makeReservation } from '../../helpers/product-factories.ts'
import { useSeededApp, useStaff } from '../../helpers/seeded.ts'
import { eventOut, TOMORROW_END, TOMORROW_START, type Event } from './classes-fixture.ts'

/*
 * An event's capacity as /api/events/ reads and writes it (core/classes/capacity.ts):
 * num_reservations (live ones), num_waitlisted (those waiting, none once it has started) and
 * spots_left (null when nothing limits it; else the smaller of its own room and its type's room
 * across overlapping events), and `capacity` writable from 0 to 1000.
 */

const t = useSeededApp()
const staff = useStaff(t, 'events')

const PATH = '/api/events/'

let yoga: EventType
let morning: Event

beforeEach(async () => {
  yoga = await makeEventType(t.db, { name: 'Yoga' })
  morning = await yogaEvent({ name: 'Morning Yoga' })
})

const yogaEvent = (fields: Partial<Parameters<typeof makeEvent>[1]> = {}) =>
  makeEvent(t.db, {
    event_type_id: yoga.id,
    gym_id: t.seed.gym.id,
    start_at: TOMORROW_START,
    end_at: TOMORROW_END,
    ...fields,
  })

const read = async (event: Event) =>
  (await t.request('GET', `${PATH}${event.id}/`, { token: t.seed.staffToken })).body
const setCapacity = (event: Event, capacity: number | null) =>
  t.db.updateTable('events').set({ capacity }).where('id', '=', event.id).execute()
const setTypeCapacity = (capacity: number | null) =>
  t.db.updateTable('event_types').set({ capacity }).where('id', '=', yoga.id).execute()

async function booked(event: Event, fields: { is_cancelled?: 0 | 1 } = {}): Promise<Customer> {
  const customer = await makeCustomer(t.db)
  await makeReservation(t.db, { event_id: event.id, customer_id: customer.id, ...fields })
  return customer
}

async function waiting(event: Event, status: 'WAI' | 'PRO' | 'CAN' = 'WAI') {
  const customer = await makeCustomer(t.db)
  await t.db
    .insertInto('waitlist_entries')
    .values({
      event_id: event.id,
      customer_id: customer.id,
      status,
      created_at: START,
      updated_at: START,
    })
    .execute()
}

describe("an event's read fields", () => {
  test('nothing limits it: spots_left null; num_reservations counts live reservations only', async () => {
    await booked(morning)
    await booked(morning)
    await booked(morning, { is_cancelled: 1 })
    expect(await read(morning)).toEqual(eventOut(morning, yoga, { num_reservations: 2 }))
  })

  test('its own capacity: the room it has left, never below 0', async () => {
    await setCapacity(morning, 5)
    await booked(morning)
    await booked(morning)
    await booked(morning, { is_cancelled: 1 })
    expect(await read(morning)).toEqual(
      eventOut(morning, yoga, { capacity: 5, num_reservations: 2, spots_left: 3 }),
    )
    // Lowered under what it holds: nobody is turned out, and no spot is left.
    await setCapacity(morning, 1)
    expect(await read(morning)).toMatchObject({ capacity: 1, num_reservations: 2, spots_left: 0 })
    await setCapacity(morning, 0)
    expect(await read(morning)).toMatchObject({ capacity: 0, num_reservations: 2, spots_left: 0 })
  })

  test("the type's capacity: the room left at the busiest moment of the event's time", async () => {
    await setTypeCapacity(4)
    // 09:30-10:30 overlaps it, 10:00-11:00 only touches its end, 08:00-09:15 its start.
    const overlapping = await yogaEvent({
      start_at: '2026-11-23T16:30:00.000Z',
      end_at: '2026-11-23T17:30:00.000Z',
    })
    const after = await yogaEvent({ start_at: TOMORROW_END, end_at: '2026-11-23T18:00:00.000Z' })
    const before = await yogaEvent({
      start_at: '2026-11-23T15:00:00.000Z',
      end_at: '2026-11-23T16:15:00.000Z',
    })
    await booked(morning)
    await booked(overlapping)
    await booked(overlapping)
    await booked(after)
    await booked(after)
    await booked(after)
    await booked(before)
    // At 09:30 the morning and the overlapping one hold 3 together; 09:00-09:15 only 2.
    expect(await read(morning)).toMatchObject({ num_reservations: 1, spots_left: 1 })
    // The overlapping one: 10:00-10:30 holds 2 + 3 = 5 already, over the type's 4.
    expect(await read(overlapping)).toMatchObject({ num_reservations: 2, spots_left: 0 })
    expect(await read(after)).toMatchObject({ num_reservations: 3, spots_left: 0 })
    expect(await read(before)).toMatchObject({ num_reservations: 1, spots_left: 2 })
  })

  test('both: the smaller of its own room and the room its type has left', async () => {
    await setTypeCapacity(3)
    await setCapacity(morning, 5)
    const other = await yogaEvent()
    await booked(other)
    await booked(morning)
    expect(await read(morning)).toEqual(
      eventOut(morning, yoga, { capacity: 5, num_reservations: 1, spots_left: 1 }),
    )
    await setCapacity(morning, 2)
    await setTypeCapacity(10)
    expect(await read(morning)).toMatchObject({ capacity: 2, spots_left: 1 })
    await setTypeCapacity(2)
    expect(await read(morning)).toMatchObject({ capacity: 2, spots_left: 0 })
    // A cancelled event of the type holds no place.
    await t.db.updateTable('events').set({ is_cancelled: 1 }).where('id', '=', other.id).execute()
    expect(await read(morning)).toMatchObject({ capacity: 2, spots_left: 1 })
  })

  test('num_waitlisted counts those waiting, and none once the event has started', async () => {
    await setCapacity(morning, 0)
    await waiting(morning)
    await waiting(morning)
    await waiting(morning, 'CAN')
    await waiting(morning, 'PRO')
    expect(await read(morning)).toEqual(
      eventOut(morning, yoga, { capacity: 0, num_waitlisted: 2, spots_left: 0 }),
    )
    const list = await t.request('GET', `${PATH}?event_type_id=${yoga.id}`, { token: t.seed.staffToken })
    expect(list.body).toEqual(
      onePage([eventOut(morning, yoga, { capacity: 0, num_waitlisted: 2, spots_left: 0 })]),
    )
    t.clock.set(TOMORROW_START)
    expect(await read(morning)).toMatchObject({ num_waitlisted: 0 })
  })
})

describe("an event's capacity written", () => {
  const patch = (body: unknown) =>
    t.request('PATCH', `${PATH}${morning.id}/`, { token: staff.events.token, body })

  test('0 to 1000 and null are taken', async () => {
    for (const capacity of [0, 1000, 7, null]) {
      const res = await patch({ capacity })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(eventOut(morning, yoga, { capacity, spots_left: capacity }))
    }
  })

  test('1001 and -1 are refused with DRF messages and change nothing', async () => {
    await setCapacity(morning, 3)
    t.clock.advance(60_000)
    for (const [capacity, errors] of [
      [1001, maxValue(1000)],
      [-1, minValue(0)],
    ] as const) {
      const res = await patch({ capacity })
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { capacity: errors } })
    }
    expect(await read(morning)).toEqual(eventOut(morning, yoga, { capacity: 3, spots_left: 3 }))
  })

  test('POST takes a capacity too, and refuses 1001', async () => {
    const body = { event_type_id: yoga.id, start_at: TOMORROW_START, end_at: TOMORROW_END }
    const before = await countRows(t.db, 'events')
    const refused = await t.request('POST', PATH, {
      token: staff.events.token,
      body: { ...body, capacity: 1001 },
    })
    expect(refused.body).toEqual({ capacity: maxValue(1000) })
    expect(await countRows(t.db, 'events')).toBe(before)
    t.clock.advance(60_000)
    const made = await t.request('POST', PATH, { token: staff.events.token, body: { ...body, capacity: 12 } })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({
      capacity: 12,
      num_reservations: 0,
      num_waitlisted: 0,
      spots_left: 12,
      created_at: ONE_MINUTE_LATER,
    })
  })
})

describe("an event type's class fields", () => {
  const patch = (body: unknown) =>
    t.request('PATCH', `/api/event-types/${yoga.id}/`, { token: staff.events.token, body })

  test('read with their defaults: no per-day limit, a 2-hour cutoff, 28 days ahead', async () => {
    const res = await t.request('GET', `/api/event-types/${yoga.id}/`, { token: t.seed.staffToken })
    expect(res.body).toMatchObject({
      capacity: null,
      max_reservations_per_day_for_customer: null,
      waitlist_promotion_cutoff_hours: 2,
      booking_horizon_days: 28,
    })
  })

  test('written within their bounds; out of them refused with DRF messages, nothing changed', async () => {
    t.clock.advance(60_000)
    const bounds = {
      capacity: [1, 1000],
      max_reservations_per_day_for_customer: [1, null],
      waitlist_promotion_cutoff_hours: [0, 720],
      booking_horizon_days: [1, 366],
    } as const
    const below = Object.fromEntries(Object.entries(bounds).map(([name, [min]]) => [name, min - 1]))
    expect((await patch(below)).body).toEqual(
      Object.fromEntries(Object.entries(bounds).map(([name, [min]]) => [name, minValue(min)])),
    )
    const above = { capacity: 1001, waitlist_promotion_cutoff_hours: 721, booking_horizon_days: 367 }
    expect((await patch(above)).body).toEqual({
      capacity: maxValue(1000),
      waitlist_promotion_cutoff_hours: maxValue(720),
      booking_horizon_days: maxValue(366),
    })
    const unchanged = await t.request('GET', `/api/event-types/${yoga.id}/`, { token: t.seed.staffToken })
    expect(unchanged.body).toMatchObject({
      capacity: null,
      max_reservations_per_day_for_customer: null,
      waitlist_promotion_cutoff_hours: 2,
      booking_horizon_days: 28,
      updated_at: START,
    })
    const top = { capacity: 1000, waitlist_promotion_cutoff_hours: 720, booking_horizon_days: 366 }
    const res = await patch({ ...top, max_reservations_per_day_for_customer: 3 })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ ...top, max_reservations_per_day_for_customer: 3 })
    const cleared = await patch({ capacity: null, max_reservations_per_day_for_customer: null })
    expect(cleared.body).toMatchObject({ capacity: null, max_reservations_per_day_for_customer: null })
  })
})
