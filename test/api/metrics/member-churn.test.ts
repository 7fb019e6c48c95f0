import { beforeEach, describe, expect, test } from 'bun:test'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import { addStatusChange, makeMembershipHistory } from '../../helpers/membership-history.ts'
import { makeMembershipType } from '../../helpers/product-factories.ts'
import { makeStaff, useSeededApp } from '../../helpers/seeded.ts'

// member_churn through POST /api/metrics/query/. The organization is in America/Denver and today
// there is 2026-11-22; every status change is dated the organization's own day.

const t = useSeededApp()

const query = async (body: unknown) =>
  t.request('POST', '/api/metrics/query/', {
    token: await makeToken(t.db, await makeUser(t.db, { can_access_reports: 1 })),
    body,
  })
const churn = (filters: Record<string, unknown> = {}) => ({ id: 'churn', type: 'member_churn', filters })

describe('refused filters', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'an unknown component',
      { component: 'lost' },
      'metrics[0].filters.component: must be one of rate, churned',
    ],
    [
      'an empty list of membership types',
      { membership_ids: [] },
      'metrics[0].filters.membership_ids: may not be an empty list',
    ],
    [
      'a billing location that is not an id',
      { billing_location_ids: [0] },
      'metrics[0].filters.billing_location_ids[0]: must be a positive integer',
    ],
    [
      'an attribute of another product type',
      { entry_pass_kinds: ['single'] },
      'metrics[0].filters.entry_pass_kinds: does not apply to member_churn (membership attributes only)',
    ],
    [
      'an unknown product status',
      { product_statuses: ['archived'] },
      'metrics[0].filters.product_statuses[0]: must be one of active, retired, draft',
    ],
    [
      'a filter of another metric',
      { location_ids: [1] },
      'metrics[0].filters.location_ids: is not a filter of member_churn',
    ],
  ]
  for (const [name, filters, message] of cases)
    test(name, async () => {
      const res = await query({ metrics: [churn(filters)] })
      expect([res.status, res.body]).toEqual([400, message])
    })
})

describe('a history over three weeks', () => {
  // Weeks from Monday 2026-10-05 to Sunday 2026-10-25; the first starts at the end of 2026-10-04.
  const weeks = { interval: 'weekly', start_date: '2026-10-05', end_date: '2026-10-25' }
  const types = { monthly: 0, prepaid: 0, retired: 0 }
  const gyms = { home: 0, other: 0 }

  beforeEach(async () => {
    types.monthly = (await makeMembershipType(t.db, { purchase_type: 'REC', interval: 'MON' })).id
    types.prepaid = (await makeMembershipType(t.db, { purchase_type: 'PRE', interval: '' })).id
    types.retired = (
      await makeMembershipType(t.db, { purchase_type: 'REC', interval: 'YRL', status: 'RET' })
    ).id
    gyms.home = t.seed.gym.id
    gyms.other = (await makeGym(t.db, { name: 'Boulder Barn' })).id
    const owner = (await makeCustomer(t.db)).id
    const kid = (await makeCustomer(t.db)).id
    const membership = (type: number, billing_location_id: number | null = gyms.home) => ({
      membership_type_id: type,
      owner_id: owner,
      billing_location_id,
    })
    // A: cancelled on the first day of week 1, so active at its start and churned in it.
    await makeMembershipHistory(t.db, membership(types.monthly), [
      ['2026-09-01', 'ACT'],
      ['2026-10-05', 'CAN'],
    ])
    // B: active throughout.
    await makeMembershipHistory(t.db, membership(types.monthly), [['2026-09-15', 'ACT']])
    // C: lapses to payment failed in week 1 (not a churn), cancelled in week 2 (a churn).
    await makeMembershipHistory(t.db, membership(types.monthly), [
      ['2026-09-20', 'ACT'],
      ['2026-10-06', 'PAF'],
      ['2026-10-14', 'CAN'],
    ])
    // D: prepaid at the other gym, starts in week 1 and ends in week 3.
    await makeMembershipHistory(t.db, membership(types.prepaid, gyms.other), [
      ['2026-10-07', 'ACT'],
      ['2026-10-20', 'END'],
    ])
    // E: cancelled while still awaiting its first payment: it never started, so no churn.
    await makeMembershipHistory(t.db, membership(types.monthly), [
      ['2026-10-01', 'PAY'],
      ['2026-10-08', 'CAN'],
    ])
    // F: a retired type's membership, frozen in week 2 and cancelled while frozen in week 3.
    await makeMembershipHistory(t.db, membership(types.retired), [
      ['2026-08-01', 'ACT'],
      ['2026-10-13', 'FRZ'],
      ['2026-10-21', 'CAN'],
    ])
    // G: active throughout; one of its members frozen alone is not a change of the membership.
    const g = await makeMembershipHistory(
      t.db,
      {
        ...membership(types.monthly),
        members: [{ customer_id: owner }, { customer_id: kid, is_frozen: true }],
      },
      [['2026-09-01', 'ACT']],
    )
    await addStatusChange(t.db, g.id, { from: 'ACT', to: 'FRZ', on: '2026-10-06', memberId: kid })
    // H: no billing location; its first payment still processing counts as active; cancelled in week 3.
    await makeMembershipHistory(t.db, membership(types.monthly, null), [
      ['2026-09-10', 'IPP'],
      ['2026-10-12', 'ACT'],
      ['2026-10-19', 'CAN'],
    ])
    // I: started and cancelled on one day of week 1: churned there, though never active at a start.
    await makeMembershipHistory(t.db, membership(types.monthly), [
      ['2026-10-09', 'ACT'],
      ['2026-10-09', 'CAN'],
    ])
  })

  const series = async (filters: Record<string, unknown>) => {
    const res = await query({
      ...weeks,
      metrics: [churn({ ...filters, component: 'churned' }), { ...churn(filters), id: 'rate' }],
    })
    expect(res.status).toBe(200)
    return res.body.series
  }

  test('every membership: churned of those active at each start', async () => {
    // Active at the starts: A B C F G H (6); B D F G H (5); B D G H (4).
    // Churned: A and I; C; H, D and F.
    expect(await series({})).toEqual([
      { id: 'churn', type: 'member_churn', unit: 'count', additive: true, values: [2, 1, 3], total: 6 },
      {
        id: 'rate',
        type: 'member_churn',
        unit: 'percent',
        additive: false,
        values: [2 / 6, 1 / 5, 3 / 4],
        total: null,
      },
    ])
  })

  test('rate is the default component', async () => {
    const res = await query({ ...weeks, metrics: [{ id: 'churn', type: 'member_churn' }] })
    expect(res.body.series[0].values).toEqual([2 / 6, 1 / 5, 3 / 4])
  })

  test('daily: each day starts with the memberships active at the end of the day before', async () => {
    // 10-05 starts with A B C F G H and loses A; 10-06 starts without A, and C's lapse that day is
    // no churn; 10-07 starts without C, and D starting that day is not at its start.
    const res = await query({ start_date: '2026-10-05', end_date: '2026-10-07', metrics: [churn()] })
    expect(res.body.series[0].values).toEqual([1 / 6, 0, 0])
  })

  const scoped: [string, () => Record<string, unknown>, number[], (number | null)[]][] = [
    [
      'one membership type (A B C E G H I)',
      () => ({ membership_ids: [types.monthly] }),
      [2, 1, 1],
      [2 / 5, 1 / 3, 1 / 3],
    ],
    [
      'type ids intersected with a billing interval (monthly, not the yearly retired type)',
      () => ({ membership_ids: [types.monthly, types.retired], membership_billing_intervals: ['monthly'] }),
      [2, 1, 1],
      [2 / 5, 1 / 3, 1 / 3],
    ],
    [
      'a billing location (D): no active membership at the first start has no rate',
      () => ({ billing_location_ids: [gyms.other] }),
      [0, 0, 1],
      [null, 0, 1],
    ],
    [
      'a retired type only when product_statuses selects it (F: frozen before week 3 started)',
      () => ({ product_statuses: ['retired'] }),
      [0, 0, 1],
      [0, 0, null],
    ],
    [
      'the prepaid purchase type (D)',
      () => ({ membership_purchase_types: ['prepaid'] }),
      [0, 0, 1],
      [null, 0, 1],
    ],
    [
      'an empty intersection: no churn, and no rate',
      () => ({ membership_ids: [types.retired], product_statuses: ['active'] }),
      [0, 0, 0],
      [null, null, null],
    ],
  ]
  for (const [name, filters, churned, rate] of scoped)
    test(name, async () => {
      const [count, fraction] = await series(filters())
      expect([count.values, fraction.values]).toEqual([churned, rate])
    })
})

test('a membership entered today with an earlier start counts from that day; cancelled today, it churns today', async () => {
  const type = await makeMembershipType(t.db)
  const owner = await makeCustomer(t.db)
  const desk = await makeStaff(t.db, 'members')
  const created = await t.request('POST', '/api/customer-memberships/', {
    token: desk.token,
    body: { membership_id: type.id, owner_id: owner.id, start_date: '2026-11-01' },
  })
  expect(created.status).toBe(201)
  const cancelled = await t.request('POST', `/api/customer-memberships/${created.body.id}/cancel/`, {
    token: desk.token,
    body: {},
  })
  expect(cancelled.status).toBe(200)
  const res = await query({
    start_date: '2026-10-31',
    end_date: '2026-11-22',
    interval: 'weekly',
    metrics: [churn(), { ...churn({ component: 'churned' }), id: 'churned' }],
  })
  // Weeks from 10-26, 11-02, 11-09 and 11-16: active from 11-01 (the Sunday daylight time ended,
  // the last day of the first week) on, so at the second week's start; cancelled 11-22.
  expect(res.body.series.map((s: { values: unknown[] }) => s.values)).toEqual([
    [null, 0, 0, 1],
    [0, 0, 0, 1],
  ])
})
