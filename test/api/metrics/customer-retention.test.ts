import { describe, expect, test } from 'bun:test'
import { makeCheckIn } from '../../helpers/check-in-factories.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'
import { localDate, localTimeOfDay } from '../../../src/lib/local-time.ts'

// customer_retention through POST /api/metrics/query/. The organization is in America/Denver; the
// clock says 2026-11-22 there, so a daily bucket is settled (more than 100 days in the past) up to
// 2026-08-13 and not from 2026-08-14 on.

const t = useSeededApp()

const query = async (body: Record<string, unknown>) => {
  const token = await makeToken(t.db, await makeUser(t.db, { can_access_reports: 1 }))
  return t.request('POST', '/api/metrics/query/', { token, body })
}
const retention = (id: string, filters: Record<string, unknown> = {}) => ({
  id,
  type: 'customer_retention',
  filters,
})
const edge = { start_date: '2026-08-13', end_date: '2026-08-14' }

/** A customer whose first check-in is `first` at their home gym, then their later check-ins. */
async function customerVisiting(first: string, later: string[], home = t.seed.gym.id) {
  const customer = await makeCustomer(t.db, { first_check_in_timestamp: first, home_location_id: home })
  for (const at of [first, ...later]) await makeCheckIn(t.db, { customer_id: customer.id, gym_id: home, at })
  return customer
}

describe('customer_retention', () => {
  test('came back on days D+1 to D+90 (local days, across the end of daylight time); a bucket settles 100 days after it ends', async () => {
    const barn = await makeGym(t.db, { name: 'Boulder Barn' })
    // First on Aug 13 (12:00 MDT); back at Nov 11 23:30 MST, the 90th day, though Nov 12 in UTC.
    await customerVisiting('2026-08-13T18:00:00.000Z', ['2026-11-12T06:30:00.000Z'])
    // Back the same evening, which is no return, then at Nov 12 00:30 MST, the 91st day: lost.
    await customerVisiting('2026-08-13T19:00:00.000Z', [
      '2026-08-14T04:00:00.000Z',
      '2026-11-12T07:30:00.000Z',
    ])
    // At home in the other gym, back the next day: retained, unless the series is of the first gym.
    await customerVisiting('2026-08-13T20:00:00.000Z', ['2026-08-14T20:00:00.000Z'], barn.id)
    // Aug 14 is not settled yet: every component is null, not 0.
    await customerVisiting('2026-08-14T18:00:00.000Z', ['2026-08-15T18:00:00.000Z'])

    const res = await query({
      ...edge,
      metrics: [
        retention('rate'),
        retention('retained', { component: 'retained' }),
        retention('lost', { component: 'lost' }),
        retention('home rate', { location_ids: [t.seed.gym.id] }),
        retention('home retained', { component: 'retained', location_ids: [t.seed.gym.id] }),
      ],
    })
    expect(res.body.series).toEqual([
      {
        id: 'rate',
        type: 'customer_retention',
        unit: 'percent',
        additive: false,
        values: [2 / 3, null],
        total: null,
      },
      {
        id: 'retained',
        type: 'customer_retention',
        unit: 'count',
        additive: true,
        values: [2, null],
        total: 2,
      },
      { id: 'lost', type: 'customer_retention', unit: 'count', additive: true, values: [1, null], total: 1 },
      {
        id: 'home rate',
        type: 'customer_retention',
        unit: 'percent',
        additive: false,
        values: [0.5, null],
        total: null,
      },
      {
        id: 'home retained',
        type: 'customer_retention',
        unit: 'count',
        additive: true,
        values: [1, null],
        total: 1,
      },
    ])
  })

  test('a settled bucket whose new customers were all excluded has a rate of null and counts of 0', async () => {
    const barn = await makeGym(t.db, { name: 'Boulder Barn' })
    await customerVisiting('2026-08-13T18:00:00.000Z', ['2026-08-20T18:00:00.000Z'])
    const res = await query({
      ...edge,
      metrics: [
        retention('rate', { location_ids: [barn.id] }),
        retention('retained', { component: 'retained', location_ids: [barn.id] }),
      ],
    })
    expect(res.body.series.map((s: { values: unknown[] }) => s.values)).toEqual([
      [null, null],
      [0, null],
    ])
  })

  test('weekly: a week settles once its Sunday is more than 100 days past', async () => {
    // The week of Aug 3-9 settled on Nov 18; the week of Aug 10-16 settles on Nov 25.
    await customerVisiting('2026-08-09T18:00:00.000Z', ['2026-08-10T18:00:00.000Z'])
    await customerVisiting('2026-08-10T18:00:00.000Z', ['2026-08-11T18:00:00.000Z'])
    const res = await query({
      interval: 'weekly',
      start_date: '2026-08-03',
      end_date: '2026-08-10',
      metrics: [retention('rate')],
    })
    expect(res.body.series[0].values).toEqual([1, null])
  })

  /*
   * One customer per first day, Aug 1 to Aug 10, each first seen at noon (18:00Z) and then written,
   * moved or deleted as named; `retained` is whether they count as back on days D+1 to D+90. The
   * days are stored per customer by triggers on check_ins (migration 0016), read while every gym is
   * on the organization's clock.
   */
  const noon = (day: string) => `${day}T18:00:00.000Z`
  const stories: [string, (first: string) => Promise<unknown>, boolean][] = [
    ['back on day 90', (first) => customerVisiting(noon(first), [noon('2026-10-30')]), true],
    ['back on day 91', (first) => customerVisiting(noon(first), [noon('2026-11-01')]), false],
    [
      'a second visit on the first day only',
      (first) => customerVisiting(noon(first), ['2026-08-04T03:00:00.000Z']),
      false,
    ],
    [
      'the return deleted, a later one on day 100 left',
      async (first) => {
        const customer = await customerVisiting(noon(first), [noon('2026-08-10'), noon('2026-11-12')])
        await t.db
          .deleteFrom('check_ins')
          .where('customer_id', '=', customer.id)
          .where('local_date', '=', '2026-08-10')
          .execute()
      },
      false,
    ],
    [
      'a check-in moved from day 97 into the 90 days',
      async (first) => {
        const customer = await customerVisiting(noon(first), [noon('2026-11-10')])
        await moveCheckIns(customer.id, '2026-11-10', noon('2026-09-01'))
      },
      true,
    ],
    [
      'the return moved out of the 90 days',
      async (first) => {
        const customer = await customerVisiting(noon(first), [noon('2026-08-20')])
        await moveCheckIns(customer.id, '2026-08-20', noon('2026-11-10'))
      },
      false,
    ],
    [
      'the first check-in written after the return',
      async (first) => {
        const customer = await makeCustomer(t.db, {
          first_check_in_timestamp: noon(first),
          home_location_id: t.seed.gym.id,
        })
        for (const day of ['2026-08-20', first])
          await makeCheckIn(t.db, { customer_id: customer.id, gym_id: t.seed.gym.id, at: noon(day) })
      },
      true,
    ],
    [
      'a check-in before the recorded first visit, then back after it',
      (first) => customerVisitingFrom(noon(first), ['2026-07-20', '2026-07-25', first, '2026-08-15']),
      true,
    ],
    [
      'a check-in before the recorded first visit, and none after it',
      (first) => customerVisitingFrom(noon(first), ['2026-07-20', '2026-07-25', first]),
      false,
    ],
    [
      'a first visit recorded without its check-in, the first written check-in later',
      (first) => customerVisitingFrom(noon(first), ['2026-08-12']),
      true,
    ],
  ]
  const storyDays = stories.map((_, i) => `2026-08-${String(i + 1).padStart(2, '0')}`)

  /** A customer whose first_check_in_timestamp is `first`, with check-ins at noon on `days`. */
  async function customerVisitingFrom(first: string, days: string[]) {
    const customer = await makeCustomer(t.db, {
      first_check_in_timestamp: first,
      home_location_id: t.seed.gym.id,
    })
    for (const day of days)
      await makeCheckIn(t.db, { customer_id: customer.id, gym_id: t.seed.gym.id, at: noon(day) })
  }

  /** The customer's check-ins of `day` moved to the instant `at` (local day and time with it). */
  async function moveCheckIns(customerId: number, day: string, at: string) {
    await t.db
      .updateTable('check_ins')
      .set({
        created_at: at,
        local_date: localDate(new Date(at), 'America/Denver'),
        local_time: localTimeOfDay(new Date(at), 'America/Denver'),
      })
      .where('customer_id', '=', customerId)
      .where('local_date', '=', day)
      .execute()
  }

  async function retainedByStory() {
    const res = await query({
      start_date: storyDays[0],
      end_date: storyDays.at(-1),
      metrics: [retention('retained', { component: 'retained' })],
    })
    return Object.fromEntries(stories.map(([name], i) => [name, res.body.series[0].values[i] === 1]))
  }

  const expected = Object.fromEntries(stories.map(([name, , retained]) => [name, retained]))

  test('returns from the days kept per customer, as check-ins are written, moved and deleted', async () => {
    for (const [i, [, story]] of stories.entries()) await story(storyDays[i]!)
    expect(await retainedByStory()).toEqual(expected)
  })

  test('with a gym in another zone, the same customers from their check-ins', async () => {
    for (const [i, [, story]] of stories.entries()) await story(storyDays[i]!)
    await makeGym(t.db, { name: 'Boulder Barn Coast', time_zone: 'America/Los_Angeles' })
    expect(await retainedByStory()).toEqual(expected)
  })

  const refusals: [string, Record<string, unknown>, string][] = [
    ['an unknown component', { component: 'churned' }, 'component: must be one of rate, retained, lost'],
    ['an empty location list', { location_ids: [] }, 'location_ids: may not be an empty list'],
    [
      'a filter it does not have',
      { entry_method: 'MEM' },
      'entry_method: is not a filter of customer_retention',
    ],
  ]
  for (const [name, filters, message] of refusals)
    test(`refused: ${name}`, async () => {
      const res = await query({ metrics: [retention('r', filters)] })
      expect([res.status, res.body]).toEqual([400, `metrics[0].filters.${message}`])
    })
})
