import { beforeEach, describe, expect, test } from 'bun:test'
import { makeCheckIn } from '../../helpers/check-in-factories.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import {
  makeCustomerEntryPass,
  makeCustomerMembership,
  makeEntryPassType,
  makeMembershipType,
} from '../../helpers/product-factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'

// first_check_in_conversion: customers by the local day of their first check-in, at its location,
// and whether those who were not members already became members within the window. Denver moved to
// daylight time on 2026-03-08; the clock says 2026-11-22 there.

const t = useSeededApp()

const query = async (body: Record<string, unknown>) =>
  t.request('POST', '/api/metrics/query/', {
    token: await makeToken(t.db, await makeUser(t.db, { can_access_reports: 1 })),
    body,
  })
const series = async (range: Record<string, unknown>, filters: Record<string, unknown>[]) => {
  const res = await query({
    ...range,
    metrics: filters.map((f, i) => ({ id: `m${i}`, type: 'first_check_in_conversion', filters: f })),
  })
  expect(res.status).toBe(200)
  return res.body.series.map((s: { values: unknown[] }) => s.values)
}

const ids = { monthly: 0, punch: 0, otherGym: 0 }
const joins = (owner_id: number, start_date: string) =>
  makeCustomerMembership(t.db, { membership_type_id: ids.monthly, owner_id, start_date })

beforeEach(async () => {
  ids.monthly = (await makeMembershipType(t.db, { name: 'Monthly Adult' })).id
  ids.punch = (await makeEntryPassType(t.db, { name: '10-Punch Card', number_of_entries: 10 })).id
  ids.otherGym = (await makeGym(t.db, { name: 'Boulder Barn' })).id
})

describe('the week daylight time began', () => {
  beforeEach(async () => {
    const home = t.seed.gym.id
    // Sunday 2026-03-08 23:30 MDT: Mia came in free and joined on day 30.
    const mia = await makeCustomer(t.db, { first_name: 'Mia' })
    await makeCheckIn(t.db, {
      customer_id: mia.id,
      gym_id: home,
      at: '2026-03-09T05:30:00.000Z',
      entry_method: 'FRE',
    })
    await joins(mia.id, '2026-04-07')
    // Monday 2026-03-09 00:30 MDT: Ned came on a punch card at the other gym and joined on day 31.
    const ned = await makeCustomer(t.db, { first_name: 'Ned' })
    const pass = await makeCustomerEntryPass(t.db, { entry_pass_type_id: ids.punch, owner_id: ned.id })
    await makeCheckIn(t.db, {
      customer_id: ned.id,
      gym_id: ids.otherGym,
      at: '2026-03-09T06:30:00.000Z',
      entry_method: 'ENT',
      customer_entry_pass_id: pass.id,
    })
    await joins(ned.id, '2026-04-09')
    // Olga, a member since January, checked in for the first time on the Tuesday: a member already.
    const olga = await makeCustomer(t.db, { first_name: 'Olga' })
    const olgas = await joins(olga.id, '2026-01-01')
    await makeCheckIn(t.db, {
      customer_id: olga.id,
      gym_id: home,
      at: '2026-03-03T18:00:00.000Z',
      entry_method: 'MEM',
      customer_membership_id: olgas.id,
    })
    // Pete came as Olga's guest and never joined.
    const pete = await makeCustomer(t.db, { first_name: 'Pete' })
    await makeCheckIn(t.db, {
      customer_id: pete.id,
      gym_id: home,
      at: '2026-03-10T18:00:00.000Z',
      entry_method: 'GUE',
      customer_membership_id: olgas.id,
      host_customer_id: olga.id,
    })
    // Quinn's first check-in was in February; her second one that week is not a first.
    const quinn = await makeCustomer(t.db, { first_name: 'Quinn' })
    await makeCheckIn(t.db, {
      customer_id: quinn.id,
      gym_id: home,
      at: '2026-02-20T18:00:00.000Z',
      entry_method: 'FRE',
    })
    await makeCheckIn(t.db, {
      customer_id: quinn.id,
      gym_id: home,
      at: '2026-03-04T18:00:00.000Z',
      entry_method: 'FRE',
      check_in_count: 2,
    })
  })

  const weeks = { interval: 'weekly', start_date: '2026-03-02', end_date: '2026-03-15' }
  const thirty = { conversion_window: '30_days' }

  test('weekly by the local day of the first check-in, for each window', async () => {
    const res = await query({
      ...weeks,
      metrics: [
        { id: 'rate', type: 'first_check_in_conversion', filters: thirty },
        { id: 'yes', type: 'first_check_in_conversion', filters: { ...thirty, component: 'converted' } },
      ],
    })
    expect(res.body.series).toEqual([
      {
        id: 'rate',
        type: 'first_check_in_conversion',
        unit: 'percent',
        additive: false,
        values: [1, 0],
        total: null,
      },
      {
        id: 'yes',
        type: 'first_check_in_conversion',
        unit: 'count',
        additive: true,
        values: [1, 0],
        total: 1,
      },
    ])
    expect(
      await series(weeks, [
        { ...thirty, component: 'not_converted' },
        { conversion_window: '60_days', component: 'converted' },
        { conversion_window: '60_days', component: 'not_converted' },
        { conversion_window: '1_year', component: 'converted' },
      ]),
    ).toEqual([
      [0, 2],
      [1, 1],
      [0, 1],
      [null, null],
    ])
  })

  test('by the location, entry method and product of the first check-in', async () => {
    const notConverted = { ...thirty, component: 'not_converted' }
    expect(
      await series(weeks, [
        { ...notConverted, location_ids: [ids.otherGym] },
        { ...thirty, location_ids: [ids.otherGym] },
        { ...notConverted, entry_method: 'ENT', product_ids: [ids.punch] },
        { ...notConverted, entry_method: 'GUE', membership_purchase_types: ['recurring'] },
        { ...notConverted, entry_method: 'GUE', membership_purchase_types: ['prepaid'] },
        { ...notConverted, entry_method: 'ENT', product_ids: [ids.punch], entry_pass_kinds: ['single'] },
        { ...thirty, entry_method: 'MEM' },
      ]),
    ).toEqual([
      [0, 1],
      [null, 0],
      [0, 1],
      [0, 1],
      [0, 0],
      [0, 0],
      [null, null],
    ])
  })
})

test('a daily bucket settles the day after its window has passed', async () => {
  for (const [name, at] of [
    ['Rae', '2026-10-22T18:00:00.000Z'],
    ['Sam', '2026-10-23T18:00:00.000Z'],
  ] as const) {
    const visitor = await makeCustomer(t.db, { first_name: name })
    await makeCheckIn(t.db, { customer_id: visitor.id, gym_id: t.seed.gym.id, at, entry_method: 'FRE' })
  }
  expect(
    await series({ start_date: '2026-10-22', end_date: '2026-10-23' }, [
      { conversion_window: '30_days', component: 'not_converted' },
    ]),
  ).toEqual([[1, null]])
})

describe('refused filters', () => {
  const refusal = async (filters: Record<string, unknown>) => {
    const res = await query({ metrics: [{ id: 'c', type: 'first_check_in_conversion', filters }] })
    expect(res.status).toBe(400)
    return res.body
  }
  const at = 'metrics[0].filters'
  const window = { conversion_window: '90_days' }
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'no window',
      {},
      `${at}.conversion_window: is required for first_check_in_conversion (one of 30_days, 60_days, 90_days, 120_days, 180_days, 1_year)`,
    ],
    [
      'an unknown entry method',
      { ...window, entry_method: 'VIP' },
      `${at}.entry_method: must be one of MEM, ENT, EVE, GUE, FRE, MIG`,
    ],
    [
      'product ids without an entry method',
      { ...window, product_ids: [1] },
      `${at}.product_ids: requires entry_method, one of MEM, ENT, EVE, GUE (the ids are membership types for MEM and GUE, entry pass types for ENT, event types for EVE)`,
    ],
    [
      'product ids with free entry',
      { ...window, entry_method: 'FRE', product_ids: [1] },
      `${at}.product_ids: not allowed with entry_method FRE, which records no product`,
    ],
    [
      'an empty product list',
      { ...window, entry_method: 'MEM', product_ids: [] },
      `${at}.product_ids: may not be an empty list`,
    ],
    [
      'an empty location list',
      { ...window, location_ids: [] },
      `${at}.location_ids: may not be an empty list`,
    ],
    [
      'an attribute without an entry method',
      { ...window, product_statuses: ['active'] },
      `${at}.product_statuses: not allowed: product attributes require an entry_method that records a product (MEM, ENT, EVE, GUE)`,
    ],
    [
      'an attribute with migrated history',
      { ...window, entry_method: 'MIG', product_statuses: ['active'] },
      `${at}.product_statuses: not allowed: entry_method MIG records no product`,
    ],
    [
      "an attribute of another product than the entry method's",
      { ...window, entry_method: 'GUE', entry_pass_kinds: ['multi'] },
      `${at}.entry_pass_kinds: does not apply to entry_method GUE`,
    ],
  ]
  for (const [name, filters, message] of cases)
    test(name, async () => {
      expect(await refusal(filters)).toBe(message)
    })
})
