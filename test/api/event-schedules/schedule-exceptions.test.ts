import { beforeEach, describe, expect, test } from 'bun:test'
import type { EventType } from '../../../src/db/schema.ts'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import { doesNotExist, invalidDate, maxLength, notNull, onePage, required } from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeEventVoucher } from '../../helpers/customer-record-factories.ts'
import { countRows, makeEventType } from '../../helpers/factories.ts'
import { makeEvent, makeReservation } from '../../helpers/product-factories.ts'
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
 * /api/event-types/<id>/schedule-exceptions/: dates a schedule has no event on. Making one cancels
 * the date's event with its reservations (voucher uses given back); removing one gives the date its
 * event back. The clock is START: 08:04 on Sunday 2026-11-22 in Denver.
 */

const t = useSeededApp()
const staff = useStaff(t, 'events', 'members')

let yoga: EventType
/** Every day at 18:00 for an hour, from 2026-11-22 (28 events). */
let scheduleId: number
const path = () => `/api/event-types/${yoga.id}/schedule-exceptions/`
const count = () => countRows(t.db, 'event_schedule_exceptions')

beforeEach(async () => {
  yoga = await makeEventType(t.db, { gym_id: t.seed.gym.id, name: 'Evening Yoga' })
  const res = await t.request('POST', `/api/event-types/${yoga.id}/schedules/`, {
    token: staff.events.token,
    body: {
      weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      start_time: '18:00',
      duration_minutes: 60,
      start_date: '2026-11-22',
    },
  })
  expect(res.status).toBe(201)
  scheduleId = res.body.id
})

const valid = () => ({ schedule_id: scheduleId, date: '2026-11-26' })
const post = (body: unknown, token = staff.events.token) => t.request('POST', path(), { token, body })

function exceptionBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/event-types/${yoga.id}/schedule-exceptions/${id}/`,
    schedule_id: scheduleId,
    date: '2026-11-26',
    reason: '',
    created_at: ONE_MINUTE_LATER,
    updated_at: ONE_MINUTE_LATER,
    ...fields,
  }
}

const eventOn = async (date: string) =>
  (await scheduleEvents(t.db, scheduleId)).find((e) => e.schedule_date === date)

describe('/api/event-types/<id>/schedule-exceptions/ 401', () => {
  testEachNeedsToken(t, [
    ['GET', '/api/event-types/1/schedule-exceptions/'],
    ['GET', '/api/event-types/1/schedule-exceptions/1/'],
    ['POST', '/api/event-types/1/schedule-exceptions/'],
    ['DELETE', '/api/event-types/1/schedule-exceptions/1/'],
  ])
})

describe('/api/event-types/<id>/schedule-exceptions/ 400', () => {
  beforeEach(() => t.clock.advance(60_000))

  test('an empty body reports schedule_id and date', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ schedule_id: required, date: required })
  })

  const cases: RefusedPost[] = [
    ['schedule_id 999 (no such schedule)', { schedule_id: 999 }, { schedule_id: doesNotExist(999) }],
    ['date 2026-11-31', { date: '2026-11-31' }, { date: invalidDate }],
    ['a reason of 256 characters', { reason: 'x'.repeat(256) }, { reason: maxLength(255) }],
  ]
  testEachRefusedPost(cases, { post, count, base: valid })

  test('a schedule of another event type is Invalid pk', async () => {
    const other = await makeEventType(t.db, { gym_id: t.seed.gym.id })
    const theirs = await t.request('POST', `/api/event-types/${other.id}/schedules/`, {
      token: staff.events.token,
      body: { weekdays: ['MON'], start_time: '09:00', duration_minutes: 30, start_date: '2026-11-22' },
    })
    const res = await post({ ...valid(), schedule_id: theirs.body.id })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ schedule_id: doesNotExist(theirs.body.id) })
    expect(await count()).toBe(0)
  })

  test('a second exception for the schedule and date is refused and changes nothing', async () => {
    const first = await post({ ...valid(), reason: 'Holiday' })
    expect(first.status).toBe(201)
    const res = await post({ ...valid(), reason: 'Again' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ non_field_errors: ['This schedule already has an exception on 2026-11-26.'] })
    expect(await count()).toBe(1)
  })

  test('a blank reason is allowed; a null one is not', async () => {
    expect((await post({ ...valid(), reason: null })).body).toEqual({ reason: notNull })
    expect(await count()).toBe(0)
    const res = await post({ ...valid(), reason: '  ' })
    expect(res.status).toBe(201)
    expect(res.body.reason).toBe('')
  })
})

describe('/api/event-types/<id>/schedule-exceptions/ 403, 404 and 405', () => {
  test('without can_manage_events nobody writes', async () => {
    const { id } = (await post(valid())).body
    await expectEachForbidden(
      t,
      [t.seed.staffToken, staff.members.token],
      [
        ['POST', path(), { ...valid(), date: '2026-11-27' }],
        ['DELETE', `${path()}${id}/`],
      ],
    )
    expect(await count()).toBe(1)
  })

  test("an unknown event type, an unknown exception and another type's exception are 404", async () => {
    const { id } = (await post(valid())).body
    const other = await makeEventType(t.db, { gym_id: t.seed.gym.id })
    await expectEachNotFound(t, staff.events.token, [
      ['GET', '/api/event-types/999/schedule-exceptions/'],
      ['POST', '/api/event-types/999/schedule-exceptions/', valid()],
      ['GET', `/api/event-types/${other.id}/schedule-exceptions/${id}/`],
      ['DELETE', `/api/event-types/${other.id}/schedule-exceptions/${id}/`],
      ['GET', `${path()}999/`],
      ['DELETE', `${path()}999/`],
    ])
    expect(await count()).toBe(1)
  })

  test('PUT and PATCH are 405 (remove it and make another)', async () => {
    const { id } = (await post(valid())).body
    await expectEachNotAllowed(t, t.seed.adminToken, [
      ['PUT', `${path()}${id}/`, valid()],
      ['PATCH', `${path()}${id}/`, { reason: 'x' }],
    ])
  })
})

describe('/api/event-types/<id>/schedule-exceptions/ success', () => {
  beforeEach(() => t.clock.advance(60_000))

  test('POST, read back, list by date then id', async () => {
    const later = await post({ ...valid(), date: '2026-12-24', reason: 'Christmas Eve' })
    const sooner = await post({ ...valid(), reason: '  Instructor away  ' })
    expect(sooner.status).toBe(201)
    expect(sooner.body).toEqual(exceptionBody(sooner.body.id, { reason: 'Instructor away' }))
    const read = await t.request('GET', `${path()}${sooner.body.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(sooner.body)
    const list = await t.request('GET', path(), { token: t.seed.staffToken })
    expect(list.body).toEqual(onePage([sooner.body, later.body]))
  })

  test("POST cancels the date's booked event: its reservation cancelled, its voucher use given back", async () => {
    const event = (await eventOn('2026-11-26'))!
    const customer = await makeCustomer(t.db)
    const voucher = await makeEventVoucher(t.db, customer.id, {
      event_type_id: yoga.id,
      number_of_uses_total: 1,
      number_of_uses_remaining: 0,
    })
    const reservation = await makeReservation(t.db, {
      event_id: event.id,
      customer_id: customer.id,
      event_voucher_id: voucher.id,
    })
    const waiting = await t.db
      .insertInto('waitlist_entries')
      .values({
        event_id: event.id,
        customer_id: (await makeCustomer(t.db)).id,
        created_at: '',
        updated_at: '',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const res = await post({ ...valid(), reason: 'Holiday' })
    expect(res.status).toBe(201)

    const stored = (table: 'events' | 'reservations', id: number) =>
      t.db.selectFrom(table).select('is_cancelled').where('id', '=', id).executeTakeFirstOrThrow()
    expect(await stored('events', event.id)).toEqual({ is_cancelled: 1 })
    expect(await stored('reservations', reservation.id)).toEqual({ is_cancelled: 1 })
    const uses = await t.db
      .selectFrom('customer_event_vouchers')
      .select('number_of_uses_remaining')
      .where('id', '=', voucher.id)
      .executeTakeFirstOrThrow()
    expect(uses.number_of_uses_remaining).toBe(1)
    const entry = await t.db
      .selectFrom('waitlist_entries')
      .select('status')
      .where('id', '=', waiting.id)
      .executeTakeFirstOrThrow()
    expect(entry.status).toBe('CAN')
    const read = await t.request('GET', `/api/events/${event.id}/`, { token: t.seed.staffToken })
    expect(read.body.is_cancelled).toBe(true)
  })

  test("the place it frees under the type's capacity goes to an overlapping event's waitlist", async () => {
    await t.db.updateTable('event_types').set({ capacity: 1 }).where('id', '=', yoga.id).execute()
    const event = (await eventOn('2026-11-26'))!
    await makeReservation(t.db, { event_id: event.id, customer_id: (await makeCustomer(t.db)).id })
    const overlapping = await makeEvent(t.db, {
      event_type_id: yoga.id,
      gym_id: t.seed.gym.id,
      start_at: '2026-11-27T01:30:00.000Z',
      end_at: '2026-11-27T02:30:00.000Z',
    })
    const waiting = await t.db
      .insertInto('waitlist_entries')
      .values({
        event_id: overlapping.id,
        customer_id: (await makeCustomer(t.db)).id,
        created_at: START,
        updated_at: START,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    expect((await post(valid())).status).toBe(201)
    const entry = await t.db
      .selectFrom('waitlist_entries')
      .select(['status', 'reservation_id'])
      .where('id', '=', waiting.id)
      .executeTakeFirstOrThrow()
    expect(entry.status).toBe('PRO')
    expect(entry.reservation_id).not.toBeNull()
  })

  test('an exception beyond the horizon: the date never gets its event as the days pass', async () => {
    expect((await post({ ...valid(), date: '2026-12-25' })).status).toBe(201)
    t.clock.advance(7 * 24 * 3_600_000)
    // A change of the schedule runs the generator to the new horizon (2026-12-26 exclusive).
    await t.request('PATCH', `/api/event-types/${yoga.id}/schedules/${scheduleId}/`, {
      token: staff.events.token,
      body: { price: '1.00' },
    })
    const dates = (await scheduleEvents(t.db, scheduleId)).map((e) => e.schedule_date)
    expect(dates).toContain('2026-12-24')
    expect(dates).not.toContain('2026-12-25')
  })

  test('an event that has started is not cancelled by an exception for its date', async () => {
    t.clock.set('2026-11-23T01:30:00Z') // 18:30 on 2026-11-22: its event is under way
    expect((await post({ ...valid(), date: '2026-11-22' })).status).toBe(201)
    expect((await eventOn('2026-11-22'))!.is_cancelled).toBe(0)
  })

  test('DELETE gives the date its event back (the reservations stay cancelled); 204', async () => {
    const event = (await eventOn('2026-11-26'))!
    const customer = await makeCustomer(t.db)
    const reservation = await makeReservation(t.db, { event_id: event.id, customer_id: customer.id })
    const { id } = (await post(valid())).body
    expect((await eventOn('2026-11-26'))!.is_cancelled).toBe(1)
    const res = await t.request('DELETE', `${path()}${id}/`, { token: staff.events.token })
    expect(res.status).toBe(204)
    expect(await count()).toBe(0)
    const back = (await eventOn('2026-11-26'))!
    expect([back.id, back.is_cancelled, back.start_at]).toEqual([event.id, 0, event.start_at])
    const stored = await t.db
      .selectFrom('reservations')
      .select('is_cancelled')
      .where('id', '=', reservation.id)
      .executeTakeFirstOrThrow()
    expect(stored.is_cancelled).toBe(1)
  })

  test('DELETE of an exception made before its event: the event is made', async () => {
    const { id } = (await post({ ...valid(), date: '2026-12-25' })).body
    t.clock.advance(7 * 24 * 3_600_000)
    await t.request('PATCH', `/api/event-types/${yoga.id}/schedules/${scheduleId}/`, {
      token: staff.events.token,
      body: { price: '1.00' },
    })
    expect(await eventOn('2026-12-25')).toBeUndefined()
    expect((await t.request('DELETE', `${path()}${id}/`, { token: staff.events.token })).status).toBe(204)
    expect(await eventOn('2026-12-25')).toMatchObject({
      start_at: '2026-12-26T01:00:00.000Z',
      is_cancelled: 0,
      price_cents: 100,
    })
  })

  test('DELETE once the date has passed makes nothing again', async () => {
    const { id } = (await post(valid())).body
    t.clock.set('2026-11-27T12:00:00Z')
    expect((await t.request('DELETE', `${path()}${id}/`, { token: staff.events.token })).status).toBe(204)
    expect((await eventOn('2026-11-26'))!.is_cancelled).toBe(1)
  })
})
