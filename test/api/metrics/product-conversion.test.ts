import { beforeEach, describe, expect, test } from 'bun:test'
import { makeCheckIn } from '../../helpers/check-in-factories.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeEventType, makeToken, makeUser } from '../../helpers/factories.ts'
import {
  makeCustomerEntryPass,
  makeCustomerMembership,
  makeEntryPassType,
  makeEvent,
  makeMembershipType,
  makeReservation,
} from '../../helpers/product-factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'

// product_conversion: customers who used a product (a check-in with it) for the first time while
// not members already, and whether they became members within the window. The clock says
// 2026-11-22 in Denver, so a daily bucket has settled for 30_days through 2026-10-22 and for
// 60_days through 2026-09-22.

const t = useSeededApp()

const query = async (body: Record<string, unknown>) =>
  t.request('POST', '/api/metrics/query/', {
    token: await makeToken(t.db, await makeUser(t.db, { can_access_reports: 1 })),
    body,
  })
const series = async (range: Record<string, unknown>, filters: Record<string, unknown>[]) => {
  const res = await query({
    ...range,
    metrics: filters.map((f, i) => ({ id: `m${i}`, type: 'product_conversion', filters: f })),
  })
  expect(res.status).toBe(200)
  return res.body.series.map((s: { values: unknown[] }) => s.values)
}

const customer = (first_name: string) => makeCustomer(t.db, { first_name })
/** A membership whose first status (ACT unless told) is dated its start. */
const joins = (
  owner_id: number,
  start_date: string,
  membership_type_id = ids.monthly,
  status = 'ACT' as const,
) => makeCustomerMembership(t.db, { membership_type_id, owner_id, start_date, status })
const statusChange = (customer_membership_id: number, from: 'ACT', to: 'FRZ' | 'CAN', changed_on: string) =>
  t.db
    .insertInto('membership_status_changes')
    .values({
      customer_membership_id,
      from_status: from,
      to_status: to,
      changed_on,
      created_at: '2026-01-01T00:00:00.000Z',
    })
    .execute()

const ids = { punch: 0, dayPass: 0, monthly: 0, trial: 0, intro: 0 }

/** A check-in with an entry pass of the type (a new pass each time unless one is given). */
async function usesPass(customerId: number, at: string, typeId: number, passId?: number) {
  const pass =
    passId ?? (await makeCustomerEntryPass(t.db, { entry_pass_type_id: typeId, owner_id: customerId })).id
  await makeCheckIn(t.db, {
    customer_id: customerId,
    gym_id: t.seed.gym.id,
    at,
    entry_method: 'ENT',
    customer_entry_pass_id: pass,
  })
  return pass
}

beforeEach(async () => {
  ids.punch = (await makeEntryPassType(t.db, { name: '10-Punch Card', number_of_entries: 10 })).id
  ids.dayPass = (await makeEntryPassType(t.db, { name: 'Day Pass', number_of_entries: 1, status: 'RET' })).id
  ids.monthly = (await makeMembershipType(t.db, { name: 'Monthly Adult' })).id
  ids.trial = (await makeMembershipType(t.db, { name: 'Trial Week', purchase_type: 'PRE', interval: '' })).id
  ids.intro = (await makeEventType(t.db, { name: 'Intro to Bouldering' })).id
})

describe('entry passes', () => {
  beforeEach(async () => {
    // 2026-10-20: Alice joins on day 30 after her first visit, Bob on day 31.
    const alice = await customer('Alice')
    const alicesPunch = await usesPass(alice.id, '2026-10-20T18:00:00.000Z', ids.punch)
    await usesPass(alice.id, '2026-10-21T18:00:00.000Z', ids.punch, alicesPunch)
    await usesPass(alice.id, '2026-10-21T19:00:00.000Z', ids.punch) // a second card: the product is no first any more
    await joins(alice.id, '2026-11-19')
    const bob = await customer('Bob')
    // Bob's visit of 2026-10-22 was written first (as an import might): his first use is still the 20th.
    const bobsPunch = await usesPass(bob.id, '2026-10-22T18:00:00.000Z', ids.punch)
    await usesPass(bob.id, '2026-10-20T18:00:00.000Z', ids.punch, bobsPunch)
    await joins(bob.id, '2026-11-20')
    // 2026-10-21: Carol at 23:30 in Denver (05:30 UTC the next day), never joins; Ivy's membership
    // was cancelled in June, so she comes as a visitor; Dan's is frozen, so he is a member already.
    const carol = await customer('Carol')
    await usesPass(carol.id, '2026-10-22T05:30:00.000Z', ids.punch)
    const ivy = await customer('Ivy')
    await statusChange((await joins(ivy.id, '2026-01-01')).id, 'ACT', 'CAN', '2026-06-30')
    await usesPass(ivy.id, '2026-10-21T18:00:00.000Z', ids.punch)
    const dan = await customer('Dan')
    await statusChange((await joins(dan.id, '2026-01-01')).id, 'ACT', 'FRZ', '2026-10-01')
    await usesPass(dan.id, '2026-10-21T18:00:00.000Z', ids.punch)
    // 2026-10-22: Erin joins at the desk the same day. Gina came on a punch card in September and
    // now on a day pass (a product she never used), and does not join.
    const erin = await customer('Erin')
    await usesPass(erin.id, '2026-10-22T18:00:00.000Z', ids.punch)
    await joins(erin.id, '2026-10-22')
    const gina = await customer('Gina')
    const ginasPunch = await usesPass(gina.id, '2026-09-22T18:00:00.000Z', ids.punch)
    await usesPass(gina.id, '2026-10-22T17:00:00.000Z', ids.punch, ginasPunch)
    await usesPass(gina.id, '2026-10-22T18:00:00.000Z', ids.dayPass)
    // 2026-10-23: too recent for 30 days.
    await usesPass((await customer('Frank')).id, '2026-10-23T18:00:00.000Z', ids.punch)
    // 2026-09-22: Hank joins on day 31, inside 60 days.
    const hank = await customer('Hank')
    await usesPass(hank.id, '2026-09-22T18:00:00.000Z', ids.punch)
    await joins(hank.id, '2026-10-23')
  })

  const october = { start_date: '2026-10-20', end_date: '2026-10-23' }
  const all = { product_type: 'entry_pass', conversion_window: '30_days' }

  test('each component by the local day of the first use, none until the window has passed', async () => {
    const res = await query({
      ...october,
      metrics: [
        { id: 'rate', type: 'product_conversion', filters: all },
        { id: 'yes', type: 'product_conversion', filters: { ...all, component: 'converted' } },
        { id: 'no', type: 'product_conversion', filters: { ...all, component: 'not_converted' } },
      ],
    })
    expect(res.body.series).toEqual([
      {
        id: 'rate',
        type: 'product_conversion',
        unit: 'percent',
        additive: false,
        values: [0.5, 0, 0.5, null],
        total: null,
      },
      {
        id: 'yes',
        type: 'product_conversion',
        unit: 'count',
        additive: true,
        values: [1, 0, 1, null],
        total: 2,
      },
      {
        id: 'no',
        type: 'product_conversion',
        unit: 'count',
        additive: true,
        values: [1, 2, 1, null],
        total: 4,
      },
    ])
  })

  test('one product counts each customer once; a retired product keeps its history', async () => {
    expect(
      await series(october, [
        { ...all, component: 'not_converted', product_ids: [ids.punch] },
        { ...all, component: 'not_converted', product_ids: [ids.dayPass] },
        { ...all, component: 'not_converted', product_statuses: ['active'] },
      ]),
    ).toEqual([
      [1, 2, 0, null],
      [0, 0, 1, null],
      [1, 2, 0, null],
    ])
  })

  test('the settled edge moves with the window: Hank joined on day 31', async () => {
    const september = { start_date: '2026-09-21', end_date: '2026-09-23' }
    expect(
      await series(september, [
        { ...all, component: 'converted' },
        { ...all, component: 'converted', conversion_window: '60_days' },
        { ...all, conversion_window: '60_days' },
        { ...all, conversion_window: '90_days' },
      ]),
    ).toEqual([
      [0, 0, 0],
      [0, 1, null],
      [null, 0.5, null],
      [null, null, null],
    ])
    // Bob too joined on day 31; his bucket settles for 60 days only on 2026-12-20.
    expect(await series(october, [{ ...all, component: 'converted', conversion_window: '60_days' }])).toEqual(
      [[null, null, null, null]],
    )
  })

  test('an empty intersection of ids and attributes is a zero series', async () => {
    expect(
      await series(october, [
        { ...all, component: 'converted', product_ids: [ids.punch], entry_pass_kinds: ['single'] },
        { ...all, product_ids: [ids.punch], entry_pass_kinds: ['single'] },
      ]),
    ).toEqual([
      [0, 0, 0, null],
      [null, null, null, null],
    ])
  })

  test('weekly, a bucket settles once its last day is more than the window ago', async () => {
    expect(
      await series({ interval: 'weekly', start_date: '2026-10-12', end_date: '2026-10-25' }, [
        { ...all, component: 'converted' },
      ]),
    ).toEqual([[0, null]])
  })
})

describe('memberships and events', () => {
  test('a membership followed is neither why its holder was a member nor how they became one', async () => {
    const jack = await customer('Jack')
    const jacksTrial = await joins(jack.id, '2026-10-19', ids.trial)
    const checkIn = (customer_id: number, at: string, customer_membership_id: number) =>
      makeCheckIn(t.db, {
        customer_id,
        gym_id: t.seed.gym.id,
        at,
        entry_method: 'MEM',
        customer_membership_id,
      })
    await checkIn(jack.id, '2026-10-20T18:00:00.000Z', jacksTrial.id)
    await checkIn(jack.id, '2026-10-21T18:00:00.000Z', jacksTrial.id)
    await joins(jack.id, '2026-11-01')
    const kim = await customer('Kim')
    await checkIn(kim.id, '2026-10-21T18:00:00.000Z', (await joins(kim.id, '2026-10-21', ids.trial)).id)
    // A member of a recurring membership for months is a member already when she tries the trial.
    const lena = await customer('Lena')
    await joins(lena.id, '2026-01-01')
    await checkIn(lena.id, '2026-10-21T18:00:00.000Z', (await joins(lena.id, '2026-10-21', ids.trial)).id)

    const trial = { product_type: 'membership', conversion_window: '30_days', product_ids: [ids.trial] }
    expect(
      await series({ start_date: '2026-10-20', end_date: '2026-10-22' }, [
        { ...trial, component: 'converted' },
        { ...trial, component: 'not_converted' },
        {
          ...trial,
          product_ids: undefined,
          membership_purchase_types: ['recurring'],
          component: 'not_converted',
        },
      ]),
    ).toEqual([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 0],
    ])
  })

  test('an event type is used by a check-in with a reservation of its events', async () => {
    const event = await makeEvent(t.db, {
      event_type_id: ids.intro,
      gym_id: t.seed.gym.id,
      start_at: '2026-10-20T18:00:00.000Z',
      end_at: '2026-10-20T19:30:00.000Z',
    })
    const lou = await customer('Lou')
    const booking = await makeReservation(t.db, { event_id: event.id, customer_id: lou.id, checked_in: 1 })
    await makeCheckIn(t.db, {
      customer_id: lou.id,
      gym_id: t.seed.gym.id,
      at: '2026-10-20T18:00:00.000Z',
      entry_method: 'EVE',
      reservation_id: booking.id,
    })
    await joins(lou.id, '2026-10-25')
    const intro = { product_type: 'event', conversion_window: '30_days', component: 'converted' }
    expect(
      await series({ start_date: '2026-10-20', end_date: '2026-10-20' }, [
        intro,
        { ...intro, product_statuses: ['retired'] },
        { ...intro, product_type: 'entry_pass' },
      ]),
    ).toEqual([[1], [0], [0]])
  })
})

describe('refused filters', () => {
  const refusal = async (filters: Record<string, unknown>) => {
    const res = await query({ metrics: [{ id: 'c', type: 'product_conversion', filters }] })
    expect(res.status).toBe(400)
    return res.body
  }
  const at = 'metrics[0].filters'
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'no window',
      { product_type: 'entry_pass' },
      `${at}.conversion_window: is required for product_conversion (one of 30_days, 60_days, 90_days, 120_days, 180_days, 1_year)`,
    ],
    [
      'an unknown window',
      { conversion_window: '2_years', product_type: 'entry_pass' },
      `${at}.conversion_window: must be one of 30_days, 60_days, 90_days, 120_days, 180_days, 1_year`,
    ],
    [
      'an unknown component',
      { component: 'retained', conversion_window: '30_days', product_type: 'entry_pass' },
      `${at}.component: must be one of rate, converted, not_converted`,
    ],
    [
      'no product type',
      { conversion_window: '30_days' },
      `${at}.product_type: is required for product_conversion (one of membership, entry_pass, event)`,
    ],
    [
      'a product type that is not used at the door',
      { conversion_window: '30_days', product_type: 'voucher_pack' },
      `${at}.product_type: must be one of membership, entry_pass, event`,
    ],
    [
      'an empty product list',
      { conversion_window: '30_days', product_type: 'event', product_ids: [] },
      `${at}.product_ids: may not be an empty list`,
    ],
    [
      'an attribute of another product type',
      { conversion_window: '30_days', product_type: 'membership', entry_pass_kinds: ['single'] },
      `${at}.entry_pass_kinds: does not apply to product_type membership`,
    ],
    [
      'a filter of another metric',
      { conversion_window: '30_days', product_type: 'event', location_ids: [1] },
      `${at}.location_ids: is not a filter of product_conversion`,
    ],
  ]
  for (const [name, filters, message] of cases)
    test(name, async () => {
      expect(await refusal(filters)).toBe(message)
    })
})
