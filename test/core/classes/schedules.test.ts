import { describe, expect, test } from 'bun:test'
import {
  makeAllScheduleEvents,
  makeScheduleEventsIn,
  startScheduleRuns,
} from '../../../src/core/classes/schedules.ts'
import { silentLogger } from '../../../src/lib/log.ts'
import { START } from '../../helpers/app.ts'
import { makeEventType, makeGym } from '../../helpers/factories.ts'
import { makeEvent } from '../../helpers/product-factories.ts'
import { makeSchedule, scheduleDates, scheduleEvents } from '../../helpers/schedule-factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'

/*
 * The generator of schedules' events (src/core/classes/schedules.ts): which dates get an event, at
 * which instants across daylight-saving changes (the gym's zone is America/Denver), the horizon,
 * never two events for a date, and which box makes them on a site. Changes and exceptions through
 * the API: test/api/event-schedules/.
 */

const t = useSeededApp()

/** An event type (horizon `days`) with a schedule in the seed's gym; `fields` override the schedule's. */
async function scheduleOf(days: number, fields: Partial<Parameters<typeof makeSchedule>[1]> = {}) {
  const type = await makeEventType(t.db, { booking_horizon_days: days, name: 'Evening Yoga' })
  return makeSchedule(t.db, { event_type_id: type.id, gym_id: t.seed.gym.id, ...fields })
}

const make = (id: number) => t.db.transaction().execute((trx) => makeScheduleEventsIn(trx, id, t.clock.now()))

describe('across daylight-saving changes (America/Denver)', () => {
  test('18:00 every day through the spring-forward week: 01:00Z before 2027-03-14, 00:00Z from it', async () => {
    t.clock.set('2027-03-10T12:00:00Z') // 05:00 MST, Wednesday
    const s = await scheduleOf(7, { start_date: '2027-03-01', duration_minutes: 90 })
    expect(await make(s.id)).toBe(7)
    const events = await scheduleEvents(t.db, s.id)
    expect(events.map((e) => [e.schedule_date, e.start_at, e.end_at])).toEqual([
      ['2027-03-10', '2027-03-11T01:00:00.000Z', '2027-03-11T02:30:00.000Z'],
      ['2027-03-11', '2027-03-12T01:00:00.000Z', '2027-03-12T02:30:00.000Z'],
      ['2027-03-12', '2027-03-13T01:00:00.000Z', '2027-03-13T02:30:00.000Z'],
      ['2027-03-13', '2027-03-14T01:00:00.000Z', '2027-03-14T02:30:00.000Z'],
      ['2027-03-14', '2027-03-15T00:00:00.000Z', '2027-03-15T01:30:00.000Z'],
      ['2027-03-15', '2027-03-16T00:00:00.000Z', '2027-03-16T01:30:00.000Z'],
      ['2027-03-16', '2027-03-17T00:00:00.000Z', '2027-03-17T01:30:00.000Z'],
    ])
  })

  test('18:00 every day through the fall-back week: 00:00Z before 2027-11-07, 01:00Z from it', async () => {
    t.clock.set('2027-11-03T12:00:00Z') // 06:00 MDT, Wednesday
    const s = await scheduleOf(7, { start_date: '2027-11-01' })
    await make(s.id)
    expect((await scheduleEvents(t.db, s.id)).map((e) => [e.schedule_date, e.start_at, e.end_at])).toEqual([
      ['2027-11-03', '2027-11-04T00:00:00.000Z', '2027-11-04T01:00:00.000Z'],
      ['2027-11-04', '2027-11-05T00:00:00.000Z', '2027-11-05T01:00:00.000Z'],
      ['2027-11-05', '2027-11-06T00:00:00.000Z', '2027-11-06T01:00:00.000Z'],
      ['2027-11-06', '2027-11-07T00:00:00.000Z', '2027-11-07T01:00:00.000Z'],
      ['2027-11-07', '2027-11-08T01:00:00.000Z', '2027-11-08T02:00:00.000Z'],
      ['2027-11-08', '2027-11-09T01:00:00.000Z', '2027-11-09T02:00:00.000Z'],
      ['2027-11-09', '2027-11-10T01:00:00.000Z', '2027-11-10T02:00:00.000Z'],
    ])
  })

  test('02:30 on the spring-forward day, which has no 02:30, is shifted forward to 03:30 MDT', async () => {
    t.clock.set('2027-03-10T12:00:00Z')
    const s = await scheduleOf(14, { weekdays: '["SUN"]', start_time: '02:30', start_date: '2027-03-01' })
    await make(s.id)
    expect((await scheduleEvents(t.db, s.id)).map((e) => [e.schedule_date, e.start_at, e.end_at])).toEqual([
      ['2027-03-14', '2027-03-14T09:30:00.000Z', '2027-03-14T10:30:00.000Z'],
      // The Sunday after: 02:30 MDT.
      ['2027-03-21', '2027-03-21T08:30:00.000Z', '2027-03-21T09:30:00.000Z'],
    ])
  })

  test('01:30 on the fall-back day, which happens twice, is the second: 01:30 MST', async () => {
    t.clock.set('2027-11-03T12:00:00Z')
    const s = await scheduleOf(7, { weekdays: '["SUN"]', start_time: '01:30', start_date: '2027-11-01' })
    await make(s.id)
    expect(await scheduleDates(t.db, s.id)).toEqual([['2027-11-07', '2027-11-07T08:30:00.000Z', false]])
  })

  test("the gym's own zone: 18:00 in New York", async () => {
    const east = await makeGym(t.db, { name: 'Brooklyn', time_zone: 'America/New_York' })
    const s = await scheduleOf(2, { gym_id: east.id })
    await make(s.id)
    // START is 10:04 in New York on 2026-11-22 (EST, -05:00).
    expect(await scheduleDates(t.db, s.id)).toEqual([
      ['2026-11-22', '2026-11-22T23:00:00.000Z', false],
      ['2026-11-23', '2026-11-23T23:00:00.000Z', false],
    ])
    expect((await scheduleEvents(t.db, s.id))[0]!.gym_id).toBe(east.id)
  })
})

describe('which dates', () => {
  test("the event's fields: the type's name, the schedule's gym, capacity and price, entry included", async () => {
    const s = await scheduleOf(1, { capacity: 12, price_cents: 1500 })
    await make(s.id)
    const [event] = await scheduleEvents(t.db, s.id)
    expect(event).toEqual({
      id: event!.id,
      schedule_date: '2026-11-22',
      start_at: '2026-11-23T01:00:00.000Z',
      end_at: '2026-11-23T02:00:00.000Z',
      gym_id: t.seed.gym.id,
      name: 'Evening Yoga',
      capacity: 12,
      price_cents: 1500,
      is_cancelled: 0,
      includes_entry: 1,
    })
    const stored = await t.db
      .selectFrom('events')
      .select(['created_at', 'updated_at', 'tax_rate_id', 'revenue_account_code'])
      .where('id', '=', event!.id)
      .executeTakeFirstOrThrow()
    expect(stored).toEqual({
      created_at: START,
      updated_at: START,
      tax_rate_id: null,
      revenue_account_code: '',
    })
  })

  test('from today to the horizon: today <= d < today + booking_horizon_days', async () => {
    const s = await scheduleOf(3)
    expect(await make(s.id)).toBe(3)
    expect((await scheduleDates(t.db, s.id)).map(([date]) => date)).toEqual([
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
    ])
  })

  test('a date whose start has passed gets none', async () => {
    t.clock.set('2026-11-23T02:00:00Z') // 19:00 on 2026-11-22 in Denver
    const s = await scheduleOf(3)
    await make(s.id)
    expect((await scheduleDates(t.db, s.id)).map(([date]) => date)).toEqual(['2026-11-23', '2026-11-24'])
  })

  test('within start_date..end_date, on its weekdays, without an exception', async () => {
    const s = await scheduleOf(28, {
      weekdays: '["MON","WED","FRI"]',
      start_date: '2026-11-24',
      end_date: '2026-12-02',
    })
    await t.db
      .insertInto('event_schedule_exceptions')
      .values({ schedule_id: s.id, date: '2026-11-27', created_at: START, updated_at: START })
      .execute()
    await make(s.id)
    expect((await scheduleDates(t.db, s.id)).map(([date]) => date)).toEqual([
      '2026-11-25',
      '2026-11-30',
      '2026-12-02',
    ])
  })

  test('none for an inactive schedule, nor for a retired event type; a draft type has its events', async () => {
    const inactive = await scheduleOf(3, { is_active: 0 })
    expect(await make(inactive.id)).toBe(0)
    const retired = await makeEventType(t.db, { status: 'RET', booking_horizon_days: 3 })
    const ofRetired = await makeSchedule(t.db, { event_type_id: retired.id, gym_id: t.seed.gym.id })
    expect(await make(ofRetired.id)).toBe(0)
    const draft = await makeEventType(t.db, { status: 'DRA', booking_horizon_days: 3 })
    const ofDraft = await makeSchedule(t.db, { event_type_id: draft.id, gym_id: t.seed.gym.id })
    expect(await make(ofDraft.id)).toBe(3)
  })
})

describe('never two events for one date', () => {
  test('run twice, and again a day later: one event a date, the next date added', async () => {
    const s = await scheduleOf(3)
    expect(await makeAllScheduleEvents(t.db, t.clock.now())).toBe(3)
    expect(await makeAllScheduleEvents(t.db, t.clock.now())).toBe(0)
    expect(await make(s.id)).toBe(0)
    t.clock.advance(24 * 60 * 60 * 1000)
    expect(await makeAllScheduleEvents(t.db, t.clock.now())).toBe(1)
    expect((await scheduleDates(t.db, s.id)).map(([date]) => date)).toEqual([
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
    ])
  })

  test('a date that has an event, cancelled or moved, gets no other', async () => {
    const s = await scheduleOf(3)
    const cancelled = await makeEvent(t.db, {
      event_type_id: s.event_type_id,
      gym_id: t.seed.gym.id,
      schedule_id: s.id,
      schedule_date: '2026-11-23',
      start_at: '2026-11-23T20:00:00.000Z',
      end_at: '2026-11-23T21:00:00.000Z',
      is_cancelled: 1,
    })
    expect(await make(s.id)).toBe(2)
    const events = await scheduleEvents(t.db, s.id)
    expect(events.map((e) => [e.schedule_date, e.id === cancelled.id])).toEqual([
      ['2026-11-22', false],
      ['2026-11-23', true],
      ['2026-11-24', false],
    ])
  })
})

describe('on a site', () => {
  const becomeSite = (siteNumber: number) =>
    t.db
      .insertInto('sync_state')
      .values({
        id: 1,
        site: 'downtown',
        database_id: 'db-1',
        site_number: siteNumber,
        hub_organization: 'boulder-barn',
        hlc: '0',
      })
      .execute()

  test("only the site whose number is the schedule's id modulo 1024 makes its events", async () => {
    await becomeSite(2)
    const theirs = await scheduleOf(2, { id: 1025 })
    const ours = await scheduleOf(2, { id: 1026 })
    expect(await makeAllScheduleEvents(t.db, t.clock.now())).toBe(2)
    expect(await make(theirs.id)).toBe(0)
    expect(await scheduleEvents(t.db, theirs.id)).toEqual([])
    expect((await scheduleDates(t.db, ours.id)).length).toBe(2)
  })

  test('a box without a hub makes every schedule its own', async () => {
    const s = await scheduleOf(2, { id: 1025 })
    expect(await makeAllScheduleEvents(t.db, t.clock.now())).toBe(2)
    expect((await scheduleDates(t.db, s.id)).length).toBe(2)
  })
})

describe("serve's runs", () => {
  test('one at the start, then one each interval as the days pass; stop waits for a run', async () => {
    const s = await scheduleOf(2)
    const runs = startScheduleRuns({ db: t.db, clock: t.clock, log: silentLogger }, 20)
    const dates = async () => (await scheduleDates(t.db, s.id)).map(([date]) => date)
    const until = async (want: string[]) => {
      for (let i = 0; i < 200 && JSON.stringify(await dates()) !== JSON.stringify(want); i++)
        await Bun.sleep(10)
      expect(await dates()).toEqual(want)
    }
    await until(['2026-11-22', '2026-11-23'])
    t.clock.advance(24 * 60 * 60 * 1000)
    await until(['2026-11-22', '2026-11-23', '2026-11-24'])
    await runs.stop()
  })
})
