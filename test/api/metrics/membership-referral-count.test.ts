import { beforeEach, describe, expect, test } from 'bun:test'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import { makeCustomerMembership, makeMembershipType } from '../../helpers/product-factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'

// membership_referral_count through POST /api/metrics/query/. The organization is in
// America/Denver and today there is 2026-11-22; every membership here is recorded today.

const t = useSeededApp()

const query = async (body: unknown) =>
  t.request('POST', '/api/metrics/query/', {
    token: await makeToken(t.db, await makeUser(t.db, { can_access_reports: 1 })),
    body,
  })
const referrals = (filters: Record<string, unknown> = {}) => ({
  id: 'referred',
  type: 'membership_referral_count',
  filters,
})

describe('refused filters', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'a membership type id that is not one',
      { membership_ids: ['monthly'] },
      'metrics[0].filters.membership_ids[0]: must be a positive integer',
    ],
    [
      'an empty list of billing locations',
      { billing_location_ids: [] },
      'metrics[0].filters.billing_location_ids: may not be an empty list',
    ],
    [
      'an event attribute',
      { event_schedule_types: ['rolling'] },
      'metrics[0].filters.event_schedule_types: does not apply to membership_referral_count (membership attributes only)',
    ],
    [
      'a component, which only member_churn has',
      { component: 'rate' },
      'metrics[0].filters.component: is not a filter of membership_referral_count',
    ],
  ]
  for (const [name, filters, message] of cases)
    test(name, async () => {
      const res = await query({ metrics: [referrals(filters)] })
      expect([res.status, res.body]).toEqual([400, message])
    })
})

describe('referred memberships by the month they started', () => {
  // September, October and November 2026 (today is in November).
  const months = { interval: 'monthly', start_date: '2026-09-01', end_date: '2026-11-22' }
  const types = { monthly: 0, prepaid: 0, retired: 0 }
  let other = 0

  beforeEach(async () => {
    types.monthly = (await makeMembershipType(t.db)).id
    types.prepaid = (await makeMembershipType(t.db, { purchase_type: 'PRE', interval: '' })).id
    types.retired = (await makeMembershipType(t.db, { status: 'RET' })).id
    other = (await makeGym(t.db, { name: 'Boulder Barn' })).id
    const referrer = (await makeCustomer(t.db)).id
    const started = async (
      type: number,
      start_date: string,
      fields: { referred?: boolean; billing_location_id?: number | null; status?: 'CAN' | 'PAY' } = {},
    ) =>
      makeCustomerMembership(t.db, {
        membership_type_id: type,
        owner_id: (await makeCustomer(t.db)).id,
        start_date,
        billing_location_id:
          fields.billing_location_id === undefined ? t.seed.gym.id : fields.billing_location_id,
        referring_customer_id: fields.referred === false ? null : referrer,
        status: fields.status ?? 'ACT',
      })
    await started(types.monthly, '2026-08-31', { billing_location_id: null }) // before the range
    await started(types.monthly, '2026-09-30')
    await started(types.monthly, '2026-10-01', { status: 'CAN' }) // cancelled since: still a referral
    await started(types.prepaid, '2026-10-15', { billing_location_id: other })
    await started(types.monthly, '2026-10-10', { referred: false })
    await started(types.retired, '2026-11-02')
    await started(types.monthly, '2026-11-30', { status: 'PAY' }) // not started yet
  })

  const values = async (filters: Record<string, unknown>) => {
    const res = await query({ ...months, metrics: [referrals(filters)] })
    expect(res.status).toBe(200)
    return res.body.series[0].values
  }

  test('every membership type and location, by start date rather than the day it was entered', async () => {
    const res = await query({ ...months, metrics: [referrals()] })
    expect(res.body.series).toEqual([
      {
        id: 'referred',
        type: 'membership_referral_count',
        unit: 'count',
        additive: true,
        values: [1, 2, 1],
        total: 4,
      },
    ])
  })

  const scoped: [string, () => Record<string, unknown>, number[]][] = [
    ['one billing location', () => ({ billing_location_ids: [other] }), [0, 1, 0]],
    ['a retired type left out by product_statuses', () => ({ product_statuses: ['active'] }), [1, 2, 0]],
    [
      'type ids intersected with a purchase type',
      () => ({ membership_ids: [types.prepaid, types.retired], membership_purchase_types: ['prepaid'] }),
      [0, 1, 0],
    ],
    [
      'an empty intersection',
      () => ({ membership_ids: [types.prepaid], membership_purchase_types: ['recurring'] }),
      [0, 0, 0],
    ],
  ]
  for (const [name, filters, expected] of scoped)
    test(name, async () => {
      expect(await values(filters())).toEqual(expected)
    })

  test('daily: on the start day itself', async () => {
    const res = await query({ start_date: '2026-09-30', end_date: '2026-10-02', metrics: [referrals()] })
    expect(res.body.series[0].values).toEqual([1, 1, 0])
  })
})
