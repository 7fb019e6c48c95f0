import { beforeEach, describe, expect, test } from 'bun:test'
import { makeCheckIn } from '../helpers/check-in-factories.ts'
import { makeCustomer } from '../helpers/customer-factories.ts'
import { makeGym, makeToken, makeUser } from '../helpers/factories.ts'
import { makeCustomerMembership, makeMembershipType } from '../helpers/product-factories.ts'
import { useSeededApp } from '../helpers/seeded.ts'

// check_in_count and customer_retention over small histories worked out by hand. The organization
// is in America/Denver, which leaves daylight time on 2026-11-01 at 08:00 UTC (02:00 MDT becomes
// 01:00 MST); the clock says 2026-11-22 there.

const t = useSeededApp()
let token: string
beforeEach(async () => {
  token = await makeToken(t.db, await makeUser(t.db, { can_access_reports: 1 }))
})

async function series(range: Record<string, unknown>, type: string, filters?: Record<string, unknown>) {
  const res = await t.request('POST', '/api/metrics/query/', {
    token,
    body: { ...range, metrics: [{ id: 'm', type, ...(filters ? { filters } : {}) }] },
  })
  expect({ status: res.status, body: res.status === 200 ? 'series' : res.body }).toEqual({
    status: 200,
    body: 'series',
  })
  const [{ values, total, unit, additive }] = res.body.series
  return { values, total, unit, additive }
}

async function refused(range: Record<string, unknown>, type: string, filters: Record<string, unknown>) {
  const res = await t.request('POST', '/api/metrics/query/', {
    token,
    body: { ...range, metrics: [{ id: 'm', type, filters }] },
  })
  expect(res.status).toBe(400)
  return res.body
}

describe('check_in_count', () => {
  const daily = { start_date: '2026-10-31', end_date: '2026-11-02' }
  let boulder: number
  let monthlyType: number

  beforeEach(async () => {
    const gym = t.seed.gym.id
    boulder = (await makeGym(t.db, { name: 'Boulder Barn' })).id
    monthlyType = (await makeMembershipType(t.db, { name: 'Monthly', status: 'ACT' })).id
    const ada = await makeCustomer(t.db, { first_name: 'Ada' })
    const bo = await makeCustomer(t.db, { first_name: 'Bo' })
    const membership = await makeCustomerMembership(t.db, {
      membership_type_id: monthlyType,
      owner_id: ada.id,
    })
    const visit = (customer_id: number, at: string, fields: Record<string, unknown>) =>
      makeCheckIn(t.db, { customer_id, gym_id: gym, at, ...fields })
    // Bo: Saturday 2026-10-31 17:00 MDT, his first; Sunday 23:30 MST at Boulder.
    await visit(bo.id, '2026-10-31T23:00:00.000Z', { entry_method: 'FRE', check_in_count: 1 })
    await visit(bo.id, '2026-11-02T06:30:00.000Z', {
      entry_method: 'FRE',
      check_in_count: 2,
      gym_id: boulder,
    })
    // Ada: Sunday 00:30 MDT (her first) and 16:30 MST; Monday 11:00 MST.
    await visit(ada.id, '2026-11-01T06:30:00.000Z', {
      customer_membership_id: membership.id,
      check_in_count: 1,
    })
    await visit(ada.id, '2026-11-01T23:30:00.000Z', { entry_method: 'ENT', check_in_count: 2 })
    await visit(ada.id, '2026-11-02T18:00:00.000Z', {
      customer_membership_id: membership.id,
      check_in_count: 3,
    })
  })

  test('by the local day, across the 25-hour day: every one, distinct customers, first ones', async () => {
    expect(await series(daily, 'check_in_count')).toEqual({
      values: [1, 3, 1],
      total: 5,
      unit: 'count',
      additive: true,
    })
    expect(await series(daily, 'check_in_count', { check_in_type: 'unique' })).toEqual({
      values: [1, 2, 1],
      total: null,
      unit: 'count',
      additive: false,
    })
    expect((await series(daily, 'check_in_count', { check_in_type: 'first_time' })).values).toEqual([1, 1, 0])
  })

  test('entry method, its products and their attributes, and locations', async () => {
    expect((await series(daily, 'check_in_count', { entry_method: 'MEM' })).values).toEqual([0, 1, 1])
    expect(
      (await series(daily, 'check_in_count', { entry_method: 'MEM', product_ids: [monthlyType] })).values,
    ).toEqual([0, 1, 1])
    // The type is active: an intersection with retired ones is empty, and a zero series.
    expect(
      (
        await series(daily, 'check_in_count', {
          entry_method: 'MEM',
          product_ids: [monthlyType],
          product_statuses: ['retired'],
        })
      ).values,
    ).toEqual([0, 0, 0])
    expect((await series(daily, 'check_in_count', { location_ids: [boulder] })).values).toEqual([0, 1, 0])
  })

  test('a time-of-day window on the wall clock, also across midnight', async () => {
    const window = { time_of_day_start: '16:00', time_of_day_end: '18:00:00' }
    expect((await series(daily, 'check_in_count', window)).values).toEqual([1, 1, 0])
    const lateNight = { time_of_day_start: '23:00', time_of_day_end: '01:00' }
    expect((await series(daily, 'check_in_count', lateNight)).values).toEqual([0, 2, 0])
  })

  test('days of the week: non-matching days are zero buckets at daily; wider buckets count matching days only', async () => {
    expect((await series(daily, 'check_in_count', { day_of_week: ['sunday'] })).values).toEqual([0, 3, 0])
    expect((await series(daily, 'check_in_count', { day_of_week: [] })).values).toEqual([1, 3, 1])
    const weekly = { interval: 'weekly', start_date: '2026-10-26', end_date: '2026-11-08' }
    expect((await series(weekly, 'check_in_count')).values).toEqual([4, 1])
    expect((await series(weekly, 'check_in_count', { day_of_week: ['saturday', 'monday'] })).values).toEqual([
      1, 1,
    ])
  })

  test('a guest counts under the host’s membership type', async () => {
    const host = await makeCustomer(t.db, { first_name: 'Host' })
    const guest = await makeCustomer(t.db, { first_name: 'Guest' })
    const membership = await makeCustomerMembership(t.db, {
      membership_type_id: monthlyType,
      owner_id: host.id,
    })
    await makeCheckIn(t.db, {
      customer_id: guest.id,
      gym_id: t.seed.gym.id,
      at: '2026-11-02T19:00:00.000Z',
      entry_method: 'GUE',
      host_customer_id: host.id,
      customer_membership_id: membership.id,
    })
    expect(
      (await series(daily, 'check_in_count', { entry_method: 'GUE', product_ids: [monthlyType] })).values,
    ).toEqual([0, 0, 1])
    expect(
      (await series(daily, 'check_in_count', { entry_method: 'GUE', membership_purchase_types: ['prepaid'] }))
        .values,
    ).toEqual([0, 0, 0])
  })

  test('refusals', async () => {
    const weekly = { interval: 'weekly' }
    expect(await refused(weekly, 'check_in_count', { time_of_day_start: '17:00' })).toBe(
      'metrics[0].filters.time_of_day_start: only with the daily interval (this query is weekly)',
    )
    expect(await refused({}, 'check_in_count', { time_of_day_end: '25:00' })).toBe(
      'metrics[0].filters.time_of_day_end: must be a time of day as HH:MM or HH:MM:SS',
    )
    expect(await refused({}, 'check_in_count', { product_ids: [1] })).toBe(
      'metrics[0].filters.product_ids: requires entry_method, one of MEM, ENT, EVE, GUE (the ids are membership types for MEM and GUE, entry pass types for ENT, event types for EVE)',
    )
    expect(await refused({}, 'check_in_count', { entry_method: 'FRE', product_ids: [1] })).toBe(
      'metrics[0].filters.product_ids: not allowed with entry_method FRE, which records no product',
    )
    expect(await refused({}, 'check_in_count', { product_statuses: ['active'] })).toBe(
      'metrics[0].filters.product_statuses: not allowed: product attributes require an entry_method that records a product (MEM, ENT, EVE, GUE)',
    )
    expect(await refused({}, 'check_in_count', { entry_method: 'MEM', entry_pass_kinds: ['single'] })).toBe(
      'metrics[0].filters.entry_pass_kinds: does not apply to entry_method MEM',
    )
    expect(await refused({}, 'check_in_count', { day_of_week: ['funday'] })).toBe(
      'metrics[0].filters.day_of_week[0]: must be one of sunday, monday, tuesday, wednesday, thursday, friday, saturday',
    )
    expect(await refused({}, 'check_in_count', { check_in_type: 'new' })).toBe(
      'metrics[0].filters.check_in_type: must be one of all, unique, first_time',
    )
    expect(await refused({}, 'check_in_count', { entry_method: 'XYZ' })).toBe(
      'metrics[0].filters.entry_method: must be one of MEM, ENT, EVE, GUE, FRE, MIG',
    )
  })
})

describe('customer_retention', () => {
  let boulder: number

  beforeEach(async () => {
    boulder = (await makeGym(t.db, { name: 'Boulder Barn' })).id
  })

  /** A customer whose first visit and later ones are at `visits` (instants), at home at `home`. */
  async function visitor(visits: string[], home: number = t.seed.gym.id) {
    const customer = await makeCustomer(t.db, {
      first_check_in_timestamp: visits[0]!,
      home_location_id: home,
    })
    for (const [i, at] of visits.entries())
      await makeCheckIn(t.db, { customer_id: customer.id, gym_id: t.seed.gym.id, at, check_in_count: i + 1 })
  }

  test('retained when back on one of the 90 local days after the first; settled once a bucket is over 100 days old', async () => {
    // 2026-06-10 (local), back on its 90th day after: retained.
    await visitor(['2026-06-10T18:00:00.000Z', '2026-09-08T18:00:00.000Z'])
    // 2026-06-15, again the same evening (the same day) and on the 91st day: lost.
    await visitor(['2026-06-15T18:00:00.000Z', '2026-06-15T23:00:00.000Z', '2026-09-14T18:00:00.000Z'])
    // 2026-07-05 at home in Boulder, back the next day: retained.
    await visitor(['2026-07-05T18:00:00.000Z', '2026-07-06T18:00:00.000Z'], boulder)
    // August ends 2026-08-31, 100 days before 2026-12-09: not settled on 2026-11-22.
    await visitor(['2026-08-20T18:00:00.000Z'])

    const summer = { interval: 'monthly', start_date: '2026-06-01', end_date: '2026-08-31' }
    expect(await series(summer, 'customer_retention')).toEqual({
      values: [0.5, 1, null],
      total: null,
      unit: 'percent',
      additive: false,
    })
    expect(await series(summer, 'customer_retention', { component: 'retained' })).toEqual({
      values: [1, 1, null],
      total: 2,
      unit: 'count',
      additive: true,
    })
    expect((await series(summer, 'customer_retention', { component: 'lost' })).values).toEqual([1, 0, null])
    // Boulder's customer is left out: July is settled and has nobody, so its rate is null.
    const home = { location_ids: [t.seed.gym.id] }
    expect((await series(summer, 'customer_retention', home)).values).toEqual([0.5, null, null])
    expect((await series(summer, 'customer_retention', { ...home, component: 'retained' })).values).toEqual([
      1,
      0,
      null,
    ])
  })

  test('a day settles once it is more than 100 days old: 2026-08-13 does on 2026-11-22, 2026-08-14 not yet', async () => {
    await visitor(['2026-08-13T18:00:00.000Z', '2026-08-20T18:00:00.000Z'])
    await visitor(['2026-08-14T18:00:00.000Z', '2026-08-20T18:00:00.000Z'])
    const days = { start_date: '2026-08-12', end_date: '2026-08-14' }
    expect((await series(days, 'customer_retention', { component: 'retained' })).values).toEqual([0, 1, null])
    expect((await series(days, 'customer_retention')).values).toEqual([null, 1, null])
  })

  test('refusals', async () => {
    expect(await refused({}, 'customer_retention', { component: 'kept' })).toBe(
      'metrics[0].filters.component: must be one of rate, retained, lost',
    )
    expect(await refused({}, 'customer_retention', { location_ids: [] })).toBe(
      'metrics[0].filters.location_ids: may not be an empty list',
    )
  })
})
