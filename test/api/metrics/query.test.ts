import { describe, expect, test } from 'bun:test'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import { expectUnauthenticated, useSeededApp } from '../../helpers/seeded.ts'
import { forbidden } from '../../helpers/bodies.ts'

// POST /api/metrics/query/: the request, its buckets and its refusals. The organization is in
// America/Denver, which leaves daylight time on 2026-11-01; the clock says 2026-11-22 there.

const t = useSeededApp()

const reportsToken = async () => makeToken(t.db, await makeUser(t.db, { can_access_reports: 1 }))
const query = async (body: unknown) =>
  t.request('POST', '/api/metrics/query/', { token: await reportsToken(), body })
const newCustomers = { id: 'new', type: 'new_customer_count' }

describe('permissions', () => {
  test('401 without a token, 403 without report access, then the body is read', async () => {
    expectUnauthenticated(
      await t.request('POST', '/api/metrics/query/', { body: { metrics: [newCustomers] } }),
    )
    const desk = await makeToken(t.db, await makeUser(t.db, { can_access_reports: 0 }))
    const refused = await t.request('POST', '/api/metrics/query/', { token: desk, body: {} })
    expect([refused.status, refused.body]).toEqual([403, forbidden])
    const res = await query({})
    expect([res.status, res.body]).toEqual([400, 'metrics: is required'])
  })
})

describe('refused requests: 400 with a bare string naming the problem', () => {
  const cases: [string, unknown, string][] = [
    [
      'an unknown interval',
      { interval: 'hourly', metrics: [newCustomers] },
      'interval: must be one of daily, weekly, monthly, quarterly, yearly',
    ],
    [
      'a malformed date',
      { start_date: '2026-02-30', metrics: [newCustomers] },
      'start_date: must be a date as YYYY-MM-DD',
    ],
    [
      'an end date that is not text',
      { end_date: 20261101, metrics: [newCustomers] },
      'end_date: must be a date as YYYY-MM-DD',
    ],
    [
      'start after end',
      { start_date: '2026-11-02', end_date: '2026-11-01', metrics: [newCustomers] },
      'start_date: may not be after end_date (2026-11-01)',
    ],
    [
      'more than 3700 buckets',
      { start_date: '2010-01-01', end_date: '2020-12-31', metrics: [newCustomers] },
      'interval: the range holds more than 3700 daily buckets',
    ],
    ['metrics not a list', { metrics: newCustomers }, 'metrics: must be a list'],
    ['no metrics', { metrics: [] }, 'metrics: may not be an empty list'],
    [
      '101 metrics',
      { metrics: Array.from({ length: 101 }, (_, i) => ({ id: `m${i}`, type: 'new_customer_count' })) },
      'metrics: may hold at most 100 metrics',
    ],
    [
      'a metric that is not an object',
      { metrics: [newCustomers, 'revenue'] },
      'metrics[1]: must be an object',
    ],
    [
      'an empty id',
      { metrics: [{ id: ' ', type: 'new_customer_count' }] },
      'metrics[0].id: must be a non-empty string',
    ],
    [
      'a repeated id',
      { metrics: [newCustomers, newCustomers] },
      'metrics[1].id: "new" is the id of an earlier metric',
    ],
    ['no type', { metrics: [{ id: 'x' }] }, 'metrics[0].type: is required'],
    [
      'filters that are not an object',
      { metrics: [{ ...newCustomers, filters: [] }] },
      'metrics[0].filters: must be an object',
    ],
    [
      'an unknown filter',
      { metrics: [{ ...newCustomers, filters: { location_id: 1 } }] },
      'metrics[0].filters.location_id: is not a filter of new_customer_count',
    ],
    [
      'an empty id list',
      { metrics: [{ ...newCustomers, filters: { location_ids: [] } }] },
      'metrics[0].filters.location_ids: may not be an empty list',
    ],
    [
      'an id list holding text',
      { metrics: [{ ...newCustomers, filters: { location_ids: [1, '2'] } }] },
      'metrics[0].filters.location_ids[1]: must be a positive integer',
    ],
  ]
  for (const [name, body, message] of cases)
    test(name, async () => {
      const res = await query(body)
      expect([res.status, res.body]).toEqual([400, message])
    })

  test('a body that is not a JSON object is refused by the body parser, as every endpoint refuses it', async () => {
    const res = await query([newCustomers])
    expect([res.status, res.body]).toEqual([
      400,
      { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] },
    ])
  })

  test('an unknown type lists the known ones', async () => {
    const res = await query({ metrics: [{ id: 'x', type: 'visits' }] })
    expect(res.status).toBe(400)
    expect(res.body).toStartWith('metrics[0].type: "visits" is not a metric type (')
    expect(res.body).toContain('new_customer_count')
  })
})

describe('buckets', () => {
  const plan = async (body: Record<string, unknown>) => {
    const res = await query({ ...body, metrics: [newCustomers] })
    expect(res.status).toBe(200)
    const { interval, start_date, end_date, time_zone, buckets } = res.body
    return {
      interval,
      start_date,
      end_date,
      time_zone,
      buckets: buckets.length,
      first: buckets[0],
      last: buckets.at(-1),
    }
  }

  test('by default daily, from 31 days before today through today', async () => {
    expect(await plan({})).toEqual({
      interval: 'daily',
      start_date: '2026-10-22',
      end_date: '2026-11-22',
      time_zone: 'America/Denver',
      buckets: 32,
      first: { start_date: '2026-10-22', end_date: '2026-10-22' },
      last: { start_date: '2026-11-22', end_date: '2026-11-22' },
    })
  })

  test('weeks run Monday to Sunday and the range widens to whole weeks', async () => {
    expect(await plan({ interval: 'weekly', start_date: '2026-10-07', end_date: '2026-11-03' })).toEqual({
      interval: 'weekly',
      start_date: '2026-10-05',
      end_date: '2026-11-08',
      time_zone: 'America/Denver',
      buckets: 5,
      first: { start_date: '2026-10-05', end_date: '2026-10-11' },
      last: { start_date: '2026-11-02', end_date: '2026-11-08' },
    })
  })

  test('months, quarters and years start on their first day', async () => {
    expect(
      await plan({ interval: 'monthly', start_date: '2024-02-10', end_date: '2024-03-01' }),
    ).toMatchObject({
      start_date: '2024-02-01',
      end_date: '2024-03-31',
      buckets: 2,
      first: { start_date: '2024-02-01', end_date: '2024-02-29' },
    })
    expect(
      await plan({ interval: 'quarterly', start_date: '2025-12-31', end_date: '2026-01-01' }),
    ).toMatchObject({
      start_date: '2025-10-01',
      end_date: '2026-03-31',
      buckets: 2,
      last: { start_date: '2026-01-01', end_date: '2026-03-31' },
    })
    expect(
      await plan({ interval: 'yearly', start_date: '2022-06-01', end_date: '2026-11-22' }),
    ).toMatchObject({
      start_date: '2022-01-01',
      end_date: '2026-12-31',
      buckets: 5,
    })
  })
})

describe('new_customer_count', () => {
  test('by the local day of the first check-in, across the end of daylight time, at the home location', async () => {
    const other = await makeGym(t.db, { name: 'Boulder Barn' })
    const home = t.seed.gym.id
    const firstVisit = (at: string, home_location_id: number | null = home) =>
      makeCustomer(t.db, { first_check_in_timestamp: at, home_location_id })
    await firstVisit('2026-11-01T05:59:59.999Z') // 2026-10-31 23:59:59 MDT
    await firstVisit('2026-11-01T06:00:00.000Z') // 2026-11-01 00:00 MDT
    await firstVisit('2026-11-02T06:59:59.999Z') // 2026-11-01 23:59:59 MST: the day had 25 hours
    await firstVisit('2026-11-02T07:00:00.000Z', other.id) // 2026-11-02 00:00 MST
    await firstVisit('2026-11-08T12:00:00.000Z', null)
    await makeCustomer(t.db, { first_check_in_timestamp: null }) // never came

    const daily = await query({ start_date: '2026-10-31', end_date: '2026-11-02', metrics: [newCustomers] })
    expect(daily.body.series).toEqual([
      { id: 'new', type: 'new_customer_count', unit: 'count', additive: true, values: [1, 2, 1], total: 4 },
    ])
    const weekly = await query({
      interval: 'weekly',
      start_date: '2026-10-26',
      end_date: '2026-11-09',
      metrics: [newCustomers, { id: 'home', type: 'new_customer_count', filters: { location_ids: [home] } }],
    })
    expect(weekly.body.series.map((s: { values: number[] }) => s.values)).toEqual([
      [3, 2, 0],
      [3, 0, 0],
    ])
  })
})
