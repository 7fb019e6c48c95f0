import { beforeEach, describe, expect, test } from 'bun:test'
import type { EventType } from '../../../src/db/schema.ts'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  doesNotExist,
  invalidBoolean,
  invalidChoice,
  invalidDate,
  invalidInteger,
  maxDecimalPlaces,
  maxValue,
  minValue,
  notNull,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { countRows, makeEventType, makeGym } from '../../helpers/factories.ts'
import { makeReservation } from '../../helpers/product-factories.ts'
import { scheduleEvents } from '../../helpers/schedule-factories.ts'
import {
  expectEachForbidden,
  expectEachNotAllowed,
  expectEachNotFound,
  type RefusedPost,
  testEachNeedsToken,
  testEachRefusedPost,
  useSeededApp,
  useStaff,
} from '../../helpers/seeded.ts'

/*
 * /api/event-types/<id>/schedules/: the records, their refusals, and what creating and changing
 * one does to its events. The clock is START: 08:04 on Sunday 2026-11-22 in Denver (MST). Which
 * dates and instants the generator picks: test/core/classes/schedules.test.ts.
 */

const t = useSeededApp()
const staff = useStaff(t, 'events', 'members')

let yoga: EventType
const path = () => `/api/event-types/${yoga.id}/schedules/`
const count = () => countRows(t.db, 'event_schedules')
const timeFormat = ['Time has wrong format. Use one of these formats instead: hh:mm.']
const endBeforeStart = ['The end date must not be before the start date.']

beforeEach(async () => {
  yoga = await makeEventType(t.db, { gym_id: t.seed.gym.id, name: 'Evening Yoga' })
})

/** Tuesdays and Thursdays at 18:00 for an hour, from today. */
const valid = () => ({
  weekdays: ['TUE', 'THU'],
  start_time: '18:00',
  duration_minutes: 60,
  start_date: '2026-11-22',
})

function scheduleBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/event-types/${yoga.id}/schedules/${id}/`,
    event_type_id: yoga.id,
    gym_id: t.seed.gym.id,
    weekdays: ['TUE', 'THU'],
    start_time: '18:00',
    duration_minutes: 60,
    start_date: '2026-11-22',
    end_date: null,
    capacity: null,
    price: '0.00',
    is_active: true,
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const post = (body: unknown, token = staff.events.token) => t.request('POST', path(), { token, body })
const patch = (id: number, body: unknown) =>
  t.request('PATCH', `${path()}${id}/`, { token: staff.events.token, body })

async function created(body: Record<string, unknown> = {}): Promise<number> {
  const res = await post({ ...valid(), ...body })
  expect(res.status).toBe(201)
  return res.body.id
}

/** The Tuesdays and Thursdays of the 28 days from 2026-11-22. */
const TUE_THU = [
  '2026-11-24',
  '2026-11-26',
  '2026-12-01',
  '2026-12-03',
  '2026-12-08',
  '2026-12-10',
  '2026-12-15',
  '2026-12-17',
]
/** 18:00 MST on a date: 01:00Z the next day. */
const at1800 = (date: string) => new Date(Date.parse(`${date}T18:00:00-07:00`)).toISOString()
const plusHours = (instant: string, hours: number) =>
  new Date(Date.parse(instant) + hours * 3_600_000).toISOString()

describe('/api/event-types/<id>/schedules/ 401', () => {
  testEachNeedsToken(t, [
    ['GET', '/api/event-types/1/schedules/'],
    ['GET', '/api/event-types/1/schedules/1/'],
    ['POST', '/api/event-types/1/schedules/'],
    ['PUT', '/api/event-types/1/schedules/1/'],
    ['PATCH', '/api/event-types/1/schedules/1/'],
  ])
})

describe('/api/event-types/<id>/schedules/ 400', () => {
  test('an empty body reports every required field', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      weekdays: required,
      start_time: required,
      duration_minutes: required,
      start_date: required,
    })
  })

  const cases: RefusedPost[] = [
    ['no weekdays', { weekdays: [] }, { weekdays: ['This list may not be empty.'] }],
    [
      'a weekday twice',
      { weekdays: ['MON', 'WED', 'MON', 'WED', 'MON'] },
      { weekdays: ['"MON" is given more than once.', '"WED" is given more than once.'] },
    ],
    ['a weekday that is none', { weekdays: ['MON', 'Tuesday'] }, { weekdays: invalidChoice('Tuesday') }],
    [
      'weekdays as a text',
      { weekdays: 'MON' },
      { weekdays: ['Expected a list of items but got type "str".'] },
    ],
    ['weekdays null', { weekdays: null }, { weekdays: notNull }],
    ['start_time 24:00', { start_time: '24:00' }, { start_time: timeFormat }],
    ['start_time 6:00', { start_time: '6:00' }, { start_time: timeFormat }],
    ['start_time with seconds', { start_time: '18:00:00' }, { start_time: timeFormat }],
    ['duration_minutes 0', { duration_minutes: 0 }, { duration_minutes: minValue(1) }],
    ['duration_minutes 1441', { duration_minutes: 1441 }, { duration_minutes: maxValue(1440) }],
    ['duration_minutes 1.5', { duration_minutes: 1.5 }, { duration_minutes: invalidInteger }],
    ['start_date 2026-02-30', { start_date: '2026-02-30' }, { start_date: invalidDate }],
    ['an end_date before the start_date', { end_date: '2026-11-21' }, { end_date: endBeforeStart }],
    ['end_date "soon"', { end_date: 'soon' }, { end_date: invalidDate }],
    ['capacity -1', { capacity: -1 }, { capacity: minValue(0) }],
    ['capacity 1001', { capacity: 1001 }, { capacity: maxValue(1000) }],
    ['price -1', { price: '-1' }, { price: minValue(0) }],
    ['price with 3 decimal places', { price: '12.345' }, { price: maxDecimalPlaces(2) }],
    ['gym_id 999 (no such gym)', { gym_id: 999 }, { gym_id: doesNotExist(999) }],
    ['is_active "x"', { is_active: 'x' }, { is_active: invalidBoolean }],
  ]
  testEachRefusedPost(cases, { post, count, base: valid })

  test('a refused POST makes no events', async () => {
    const res = await post({ ...valid(), duration_minutes: 0 })
    expect(res.status).toBe(400)
    expect(await countRows(t.db, 'events')).toBe(0)
  })

  test('PATCH judges the dates on the resulting schedule; a refused change stores nothing', async () => {
    const id = await created({ end_date: '2026-12-31' })
    t.clock.advance(60_000)
    for (const [body, errors] of [
      [{ start_date: '2027-01-01' }, { end_date: endBeforeStart }],
      [{ end_date: '2026-11-21', start_time: '19:00' }, { end_date: endBeforeStart }],
      [
        { weekdays: [], gym_id: 999 },
        { gym_id: doesNotExist(999), weekdays: ['This list may not be empty.'] },
      ],
    ] as const) {
      const res = await patch(id, body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errors)
    }
    const read = await t.request('GET', `${path()}${id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(scheduleBody(id, { end_date: '2026-12-31' }))
    expect((await scheduleEvents(t.db, id)).map((e) => e.start_at)).toEqual(TUE_THU.map(at1800))
  })
})

describe('/api/event-types/<id>/schedules/ 403, 404 and 405', () => {
  test('without can_manage_events nobody writes', async () => {
    const id = await created()
    const one = `${path()}${id}/`
    await expectEachForbidden(
      t,
      [t.seed.staffToken, staff.members.token],
      [
        ['POST', path(), valid()],
        ['PUT', one, valid()],
        ['PATCH', one, { start_time: '07:00' }],
      ],
    )
    expect(await count()).toBe(1)
    expect((await t.request('GET', one, { token: t.seed.staffToken })).body).toEqual(scheduleBody(id))
  })

  test("an unknown event type, an unknown schedule and another type's schedule are 404", async () => {
    const id = await created()
    const other = await makeEventType(t.db, { gym_id: t.seed.gym.id })
    await expectEachNotFound(t, staff.events.token, [
      ['GET', '/api/event-types/999/schedules/'],
      ['POST', '/api/event-types/999/schedules/', valid()],
      ['GET', `/api/event-types/999/schedules/${id}/`],
      ...(['GET', 'PUT', 'PATCH'] as const).map(
        (method) => [method, `/api/event-types/${other.id}/schedules/${id}/`, valid()] as const,
      ),
      ...(['GET', 'PUT', 'PATCH'] as const).map((method) => [method, `${path()}999/`, valid()] as const),
    ])
    expect(await count()).toBe(1)
  })

  test('DELETE is 405 (deactivate with is_active)', async () => {
    const id = await created()
    await expectEachNotAllowed(t, t.seed.adminToken, [['DELETE', `${path()}${id}/`]])
    expect(await count()).toBe(1)
  })
})

describe('/api/event-types/<id>/schedules/ success', () => {
  test("POST with the required fields: the type's gym; its events made up to the horizon before the answer", async () => {
    const res = await post(valid())
    expect(res.status).toBe(201)
    expect(res.body).toEqual(scheduleBody(res.body.id))
    const read = await t.request('GET', `${path()}${res.body.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(res.body)
    const events = await scheduleEvents(t.db, res.body.id)
    expect(events.map((e) => [e.schedule_date, e.start_at, e.end_at])).toEqual(
      TUE_THU.map((d) => [d, at1800(d), plusHours(at1800(d), 1)]),
    )
    expect(events.every((e) => e.name === 'Evening Yoga' && e.is_cancelled === 0)).toBe(true)
  })

  test('POST with every field: weekdays read back Monday first; events take capacity, price and gym', async () => {
    const uptown = await makeGym(t.db, { name: 'Uptown' })
    const res = await post(
      {
        gym_id: uptown.id,
        weekdays: ['SUN', 'MON'],
        start_time: '06:30',
        duration_minutes: 1440,
        start_date: '2026-11-23',
        end_date: '2026-11-30',
        capacity: 0,
        price: 12.5,
        is_active: true,
      },
      t.seed.adminToken,
    )
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      scheduleBody(res.body.id, {
        gym_id: uptown.id,
        weekdays: ['MON', 'SUN'],
        start_time: '06:30',
        duration_minutes: 1440,
        start_date: '2026-11-23',
        end_date: '2026-11-30',
        capacity: 0,
        price: '12.50',
      }),
    )
    const events = await scheduleEvents(t.db, res.body.id)
    expect(
      events.map((e) => [e.schedule_date, e.start_at, e.end_at, e.gym_id, e.capacity, e.price_cents]),
    ).toEqual([
      ['2026-11-23', '2026-11-23T13:30:00.000Z', '2026-11-24T13:30:00.000Z', uptown.id, 0, 1250],
      ['2026-11-29', '2026-11-29T13:30:00.000Z', '2026-11-30T13:30:00.000Z', uptown.id, 0, 1250],
      ['2026-11-30', '2026-11-30T13:30:00.000Z', '2026-12-01T13:30:00.000Z', uptown.id, 0, 1250],
    ])
  })

  test('POST inactive makes no events', async () => {
    const id = await created({ is_active: false })
    expect(await scheduleEvents(t.db, id)).toEqual([])
  })

  test("list: the type's schedules by id, inactive ones too", async () => {
    const first = await created()
    const other = await makeEventType(t.db, { gym_id: t.seed.gym.id })
    const elsewhere = await t.request('POST', `/api/event-types/${other.id}/schedules/`, {
      token: staff.events.token,
      body: valid(),
    })
    expect(elsewhere.status).toBe(201)
    const second = await created({ is_active: false, weekdays: ['FRI'] })
    const res = await t.request('GET', path(), { token: t.seed.staffToken })
    expect(res.body).toEqual(
      onePage([scheduleBody(first), scheduleBody(second, { is_active: false, weekdays: ['FRI'] })]),
    )
  })

  test('the event type lists its schedules at schedules_url', async () => {
    const id = await created()
    const type = await t.request('GET', `/api/event-types/${yoga.id}/`, { token: t.seed.staffToken })
    const res = await t.request('GET', type.body.schedules_url.slice(ORIGIN.length), {
      token: t.seed.staffToken,
    })
    expect(res.body).toEqual(onePage([scheduleBody(id)]))
  })
})

describe('changing a schedule changes its events to come without reservations', () => {
  /** A live reservation on the schedule's event of `date`. */
  async function book(scheduleId: number, date: string) {
    const event = (await scheduleEvents(t.db, scheduleId)).find((e) => e.schedule_date === date)!
    const customer = await makeCustomer(t.db)
    await makeReservation(t.db, { event_id: event.id, customer_id: customer.id })
    return event
  }

  test('new times, capacity and price move the unbooked events; a booked one stays as it was', async () => {
    const id = await created()
    const booked = await book(id, '2026-11-26')
    t.clock.advance(60_000)
    const res = await patch(id, { start_time: '19:30', duration_minutes: 90, capacity: 12, price: '15.00' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      scheduleBody(id, {
        start_time: '19:30',
        duration_minutes: 90,
        capacity: 12,
        price: '15.00',
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    const events = await scheduleEvents(t.db, id)
    expect(events.map((e) => [e.schedule_date, e.start_at, e.end_at, e.capacity, e.price_cents])).toEqual(
      TUE_THU.map((d) =>
        d === '2026-11-26'
          ? [d, booked.start_at, booked.end_at, null, 0]
          : [d, plusHours(at1800(d), 1.5), plusHours(at1800(d), 3), 12, 1500],
      ),
    )
  })

  test('a raised capacity offers the spots to the waitlist', async () => {
    const id = await created({ capacity: 0 })
    const [first] = await scheduleEvents(t.db, id)
    const customer = await makeCustomer(t.db)
    const entry = await t.db
      .insertInto('waitlist_entries')
      .values({ event_id: first!.id, customer_id: customer.id, created_at: START, updated_at: START })
      .returning('id')
      .executeTakeFirstOrThrow()
    expect((await patch(id, { capacity: 5 })).status).toBe(200)
    const promoted = await t.db
      .selectFrom('waitlist_entries as w')
      .innerJoin('reservations as r', 'r.id', 'w.reservation_id')
      .select(['w.status', 'r.event_id', 'r.customer_id', 'r.is_cancelled'])
      .where('w.id', '=', entry.id)
      .executeTakeFirstOrThrow()
    expect(promoted).toEqual({
      status: 'PRO',
      event_id: first!.id,
      customer_id: customer.id,
      is_cancelled: 0,
    })
  })

  test('only what the change changed: an event edited by hand keeps the rest', async () => {
    const id = await created()
    const [edited] = await scheduleEvents(t.db, id)
    await t.db.updateTable('events').set({ capacity: 5 }).where('id', '=', edited!.id).execute()
    expect((await patch(id, { price: '9.00' })).status).toBe(200)
    const after = (await scheduleEvents(t.db, id)).find((e) => e.id === edited!.id)!
    expect([after.capacity, after.price_cents, after.start_at]).toEqual([5, 900, edited!.start_at])
  })

  test('dates it no longer matches are cancelled (unless booked); dates put back are uncancelled', async () => {
    const id = await created()
    await book(id, '2026-12-03')
    expect((await patch(id, { weekdays: ['TUE'], end_date: '2026-12-08' })).status).toBe(200)
    const cancelled = (events: Awaited<ReturnType<typeof scheduleEvents>>) =>
      events.filter((e) => e.is_cancelled === 1).map((e) => e.schedule_date)
    expect(cancelled(await scheduleEvents(t.db, id))).toEqual([
      '2026-11-26',
      '2026-12-10',
      '2026-12-15',
      '2026-12-17',
    ])
    expect((await patch(id, { weekdays: ['TUE', 'THU'], end_date: null })).status).toBe(200)
    const events = await scheduleEvents(t.db, id)
    expect(cancelled(events)).toEqual([])
    expect(events.map((e) => [e.schedule_date, e.start_at])).toEqual(TUE_THU.map((d) => [d, at1800(d)]))
  })

  test('an event cancelled by hand on a date it still matches stays cancelled', async () => {
    const id = await created()
    const [first] = await scheduleEvents(t.db, id)
    await t.request('PATCH', `/api/events/${first!.id}/`, {
      token: staff.events.token,
      body: { is_cancelled: true },
    })
    expect((await patch(id, { start_time: '17:00' })).status).toBe(200)
    const after = (await scheduleEvents(t.db, id)).find((e) => e.id === first!.id)!
    expect([after.is_cancelled, after.start_at]).toEqual([1, first!.start_at])
  })

  test('deactivating cancels its unbooked events to come and makes no new ones; reactivating brings them back', async () => {
    const id = await created()
    const booked = await book(id, '2026-11-24')
    const res = await patch(id, { is_active: false })
    expect(res.body.is_active).toBe(false)
    const events = await scheduleEvents(t.db, id)
    expect(events.map((e) => [e.schedule_date, e.is_cancelled])).toEqual(
      TUE_THU.map((d) => [d, d === '2026-11-24' ? 0 : 1]),
    )
    // A week later nothing new is made for it.
    t.clock.advance(7 * 24 * 3_600_000)
    expect((await patch(id, { price: '1.00' })).status).toBe(200)
    expect((await scheduleEvents(t.db, id)).length).toBe(TUE_THU.length)
    expect((await patch(id, { is_active: true })).status).toBe(200)
    const back = await scheduleEvents(t.db, id)
    // The 2026-11-24 event has started; from 2026-12-01 on every date has its event, to the new horizon.
    expect(back.map((e): [string | null, number] => [e.schedule_date, e.is_cancelled])).toEqual([
      ['2026-11-24', 0],
      ['2026-11-26', 1],
      ...[...TUE_THU.slice(2), '2026-12-22', '2026-12-24'].map((d): [string, number] => [d, 0]),
    ])
    expect(back[0]!.id).toBe(booked.id)
  })

  test('PUT replaces the schedule; fields left out keep their values', async () => {
    const id = await created({ capacity: 8, end_date: '2026-12-31' })
    t.clock.advance(60_000)
    const res = await t.request('PUT', `${path()}${id}/`, {
      token: staff.events.token,
      body: { ...valid(), weekdays: ['WED'], start_time: '07:15' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      scheduleBody(id, {
        weekdays: ['WED'],
        start_time: '07:15',
        capacity: 8,
        end_date: '2026-12-31',
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    const live = (await scheduleEvents(t.db, id)).filter((e) => e.is_cancelled === 0)
    expect(live.map((e) => e.schedule_date)).toEqual(['2026-11-25', '2026-12-02', '2026-12-09', '2026-12-16'])
  })
})
