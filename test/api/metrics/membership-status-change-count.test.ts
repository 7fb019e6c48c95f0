import { beforeEach, describe, expect, test } from 'bun:test'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import { addStatusChange, makeMembershipHistory } from '../../helpers/membership-history.ts'
import { makeMembershipType } from '../../helpers/product-factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'

// membership_status_change_count through POST /api/metrics/query/. The organization is in
// America/Denver and today there is 2026-11-22; every status change is dated the organization's
// own day.

const t = useSeededApp()

const query = async (body: unknown) =>
  t.request('POST', '/api/metrics/query/', {
    token: await makeToken(t.db, await makeUser(t.db, { can_access_reports: 1 })),
    body,
  })
const changes = (filters: Record<string, unknown> = {}) => ({
  id: 'changes',
  type: 'membership_status_change_count',
  filters,
})
const statusCodes = 'ACT, IPP, PPR, FRZ, FPR, PAF, FPF, PAY, IPC, CAN, END, DEN'

describe('refused filters', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'a status by its name rather than its code',
      { from_status: 'active' },
      `metrics[0].filters.from_status: must be one of ${statusCodes}`,
    ],
    [
      'a code in lower case',
      { to_status: 'can' },
      `metrics[0].filters.to_status: must be one of ${statusCodes}`,
    ],
    [
      'a list of codes',
      { to_status: ['CAN'] },
      `metrics[0].filters.to_status: must be one of ${statusCodes}`,
    ],
    [
      'an empty list of purchase types',
      { membership_purchase_types: [] },
      'metrics[0].filters.membership_purchase_types: may not be an empty list',
    ],
  ]
  for (const [name, filters, message] of cases)
    test(name, async () => {
      const res = await query({ metrics: [changes(filters)] })
      expect([res.status, res.body]).toEqual([400, message])
    })
})

describe('a history over three weeks', () => {
  // Weeks from Monday 2026-10-05 to Sunday 2026-10-25.
  const weeks = { interval: 'weekly', start_date: '2026-10-05', end_date: '2026-10-25' }
  const types = { monthly: 0, prepaid: 0, retired: 0 }
  let other = 0

  beforeEach(async () => {
    types.monthly = (await makeMembershipType(t.db)).id
    types.prepaid = (await makeMembershipType(t.db, { purchase_type: 'PRE', interval: '' })).id
    types.retired = (await makeMembershipType(t.db, { status: 'RET' })).id
    other = (await makeGym(t.db, { name: 'Boulder Barn' })).id
    const owner = (await makeCustomer(t.db)).id
    const kid = (await makeCustomer(t.db)).id
    const membership = (type: number, billing_location_id = t.seed.gym.id) => ({
      membership_type_id: type,
      owner_id: owner,
      billing_location_id,
    })
    // P: starts active in week 1 (a change from no status), frozen in week 2, unfrozen in week 3.
    await makeMembershipHistory(t.db, membership(types.monthly), [
      ['2026-10-05', 'ACT'],
      ['2026-10-12', 'FRZ'],
      ['2026-10-19', 'ACT'],
    ])
    // Q: a failed renewal and its recovery in week 1; one member frozen alone is not the membership's.
    const q = await makeMembershipHistory(
      t.db,
      {
        ...membership(types.monthly),
        members: [{ customer_id: owner }, { customer_id: kid, is_frozen: true }],
      },
      [
        ['2026-09-01', 'ACT'],
        ['2026-10-06', 'PAF'],
        ['2026-10-07', 'ACT'],
      ],
    )
    await addStatusChange(t.db, q.id, { from: 'ACT', to: 'FRZ', on: '2026-10-08', memberId: kid })
    // R: prepaid at the other gym: its first payment processing and then paid in week 2, ended on week 3's last day.
    await makeMembershipHistory(t.db, membership(types.prepaid, other), [
      ['2026-10-13', 'IPP'],
      ['2026-10-15', 'ACT'],
      ['2026-10-25', 'END'],
    ])
    // S: a retired type's membership, active since before the range, cancelled in week 3.
    await makeMembershipHistory(t.db, membership(types.retired), [
      ['2026-10-04', 'ACT'],
      ['2026-10-20', 'CAN'],
    ])
    // T: awaiting its first payment since week 2.
    await makeMembershipHistory(t.db, membership(types.monthly), [['2026-10-18', 'PAY']])
  })

  const values = async (filters: Record<string, unknown>) => {
    const res = await query({ ...weeks, metrics: [changes(filters)] })
    expect(res.status).toBe(200)
    return res.body.series[0].values
  }

  test('every change of every membership', async () => {
    // Week 1: P starts, Q fails and recovers; week 2: P freezes, R starts and is paid, T starts;
    // week 3: P unfreezes, S is cancelled, R ends.
    const res = await query({ ...weeks, metrics: [changes()] })
    expect(res.body.series).toEqual([
      {
        id: 'changes',
        type: 'membership_status_change_count',
        unit: 'count',
        additive: true,
        values: [3, 4, 3],
        total: 10,
      },
    ])
  })

  const filtered: [string, () => Record<string, unknown>, number[]][] = [
    ['into ACT, a first status included', () => ({ to_status: 'ACT' }), [2, 1, 1]],
    ['out of ACT', () => ({ from_status: 'ACT' }), [1, 1, 2]],
    ['from ACT to CAN', () => ({ from_status: 'ACT', to_status: 'CAN' }), [0, 0, 1]],
    ['from FRZ to ACT', () => ({ from_status: 'FRZ', to_status: 'ACT' }), [0, 0, 1]],
    ['into PAY: only first statuses, which no from_status matches', () => ({ to_status: 'PAY' }), [0, 1, 0]],
    ['one billing location', () => ({ billing_location_ids: [other] }), [0, 2, 1]],
    [
      'a retired type only when product_statuses selects it',
      () => ({ product_statuses: ['retired'] }),
      [0, 0, 1],
    ],
    [
      'type ids intersected with a purchase type',
      () => ({ membership_ids: [types.monthly, types.prepaid], membership_purchase_types: ['recurring'] }),
      [3, 2, 1],
    ],
    [
      'an empty intersection',
      () => ({ membership_ids: [types.monthly], membership_purchase_types: ['prepaid'] }),
      [0, 0, 0],
    ],
  ]
  for (const [name, filters, expected] of filtered)
    test(name, async () => {
      expect(await values(filters())).toEqual(expected)
    })

  test('daily: a member frozen alone on 10-08 is no change', async () => {
    const res = await query({ start_date: '2026-10-05', end_date: '2026-10-08', metrics: [changes()] })
    expect(res.body.series[0].values).toEqual([1, 1, 1, 0])
  })
})
