import { beforeEach, describe, expect, test } from 'bun:test'
import type { MembershipStatus } from '../../../src/db/schema.ts'
import { START } from '../../helpers/app.ts'
import { forbidden } from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import { makeAddOn, makeCustomerMembership, makeMembershipType } from '../../helpers/product-factories.ts'
import { expectUnauthenticated, useSeededApp } from '../../helpers/seeded.ts'

/*
 * membership_count and GET /api/metrics/membership-add-on-names/ over an autumn built here. The
 * organization is in America/Denver; the clock says 2026-11-22 there.
 *
 *   Ada  A   Monthly, bills Downtown: ACT from 10-01
 *        A2  Monthly, bills nowhere, association 7: ACT 10-15, PAF 10-25, ACT 11-02
 *   Ben  B   Family (prepaid, a group of Ben, with a locker, and Cy, with a towel), bills Uptown:
 *            ACT from 10-10; Cy frozen on his own 10-20, unfrozen 11-05
 *   Dee  D   Monthly, bills Downtown, with chalk: ACT 10-05, FRZ 10-12, ACT 10-19, CAN 11-15
 *   Eve  E   Founders (a retired type), bills Downtown: ACT from 10-01
 *
 * Active memberships: 10-01 2, 10-05 3, 10-10 4, 10-12 3, 10-15 4, 10-19 5, 10-25 4, 11-02 5,
 * 11-15 4. Active members (Ada once): 10-01 2, 10-05 3, 10-10 5, 10-12 4, 10-19 5, 10-20 4,
 * 11-05 5, 11-15 4.
 */

const t = useSeededApp()
let ids: { uptown: number; monthly: number; family: number; founders: number; b: number }

async function change(
  membershipId: number,
  to: MembershipStatus,
  on: string,
  memberId: number | null = null,
) {
  await t.db
    .insertInto('membership_status_changes')
    .values({
      customer_membership_id: membershipId,
      member_customer_id: memberId,
      from_status: null,
      to_status: to,
      changed_on: on,
      created_at: START,
    })
    .execute()
}

beforeEach(async () => {
  const db = t.db
  const downtown = t.seed.gym.id
  const uptown = await makeGym(db, { name: 'Uptown' })
  const monthly = await makeMembershipType(db, { name: 'Monthly Adult' })
  const family = await makeMembershipType(db, {
    name: 'Family',
    purchase_type: 'PRE',
    interval: '',
    is_group: 1,
  })
  const founders = await makeMembershipType(db, { name: 'Founders', status: 'RET' })
  await makeAddOn(db, { id: 'locker', name: 'Locker' })
  await makeAddOn(db, { id: 'towel', name: 'Towel' })
  await makeAddOn(db, { id: 'chalk', name: 'Chalk' })
  const [ada, ben, cy, dee, eve] = await Promise.all(
    ['Ada', 'Ben', 'Cy', 'Dee', 'Eve'].map((first_name) => makeCustomer(db, { first_name })),
  )
  await makeCustomerMembership(db, {
    membership_type_id: monthly.id,
    owner_id: ada!.id,
    billing_location_id: downtown,
    start_date: '2026-10-01',
  })
  const a2 = await makeCustomerMembership(db, {
    membership_type_id: monthly.id,
    owner_id: ada!.id,
    discount_association_id: 7,
    start_date: '2026-10-15',
  })
  await change(a2.id, 'PAF', '2026-10-25')
  await change(a2.id, 'ACT', '2026-11-02')
  const b = await makeCustomerMembership(db, {
    membership_type_id: family.id,
    owner_id: ben!.id,
    billing_location_id: uptown.id,
    start_date: '2026-10-10',
    members: [
      { customer_id: ben!.id, add_ons: ['locker'] },
      { customer_id: cy!.id, add_ons: ['towel'] },
    ],
  })
  await change(b.id, 'FRZ', '2026-10-20', cy!.id)
  await change(b.id, 'ACT', '2026-11-05', cy!.id)
  const d = await makeCustomerMembership(db, {
    membership_type_id: monthly.id,
    owner_id: dee!.id,
    billing_location_id: downtown,
    start_date: '2026-10-05',
    members: [{ customer_id: dee!.id, add_ons: ['chalk'] }],
  })
  await change(d.id, 'FRZ', '2026-10-12')
  await change(d.id, 'ACT', '2026-10-19')
  await change(d.id, 'CAN', '2026-11-15')
  await makeCustomerMembership(db, {
    membership_type_id: founders.id,
    owner_id: eve!.id,
    billing_location_id: downtown,
    start_date: '2026-10-01',
  })
  ids = { uptown: uptown.id, monthly: monthly.id, family: family.id, founders: founders.id, b: b.id }
})

const reportsToken = async () => makeToken(t.db, await makeUser(t.db, { can_access_reports: 1 }))
const query = async (body: unknown) =>
  t.request('POST', '/api/metrics/query/', { token: await reportsToken(), body })

/** The values of one membership_count series over `range`. */
async function values(range: Record<string, string>, filters: Record<string, unknown> = {}) {
  const res = await query({ ...range, metrics: [{ id: 'm', type: 'membership_count', filters }] })
  expect(res.status).toBe(200)
  return res.body.series[0].values
}

const october18to21 = { start_date: '2026-10-18', end_date: '2026-10-21' }
const octoberNovember = { interval: 'monthly', start_date: '2026-10-01', end_date: '2026-11-22' }

describe('membership_count', () => {
  test('a stock count: not additive, no total, one value per bucket', async () => {
    const res = await query({ ...octoberNovember, metrics: [{ id: 'members', type: 'membership_count' }] })
    expect(res.body.series).toEqual([
      {
        id: 'members',
        type: 'membership_count',
        unit: 'count',
        additive: false,
        values: [0, 4],
        total: null,
      },
    ])
  })

  test.each([
    // October: 2 from the 1st, 5 at most from the 19th, 4 on the 31st; November's last days are
    // after today and read 0.
    ['start: the day before each bucket (the lead-in day first)', 'start', [0, 4], [0, 4]],
    ['end: the last day of each bucket', 'end', [4, 0], [4, 0]],
    ['min over the bucket', 'min', [2, 0], [2, 0]],
    ['max over the bucket', 'max', [5, 5], [5, 5]],
  ])('value_in_period %s', async (_name, valueInPeriod, memberships, members) => {
    expect(await values(octoberNovember, { value_in_period: valueInPeriod })).toEqual(memberships)
    expect(await values(octoberNovember, { value_in_period: valueInPeriod, count_by: 'members' })).toEqual(
      members,
    )
  })

  test('daily, start reads the day before each day', async () => {
    expect(await values(october18to21, { count_by: 'members', status: 'frozen' })).toEqual([1, 1, 0, 1])
    expect(
      await values(october18to21, { count_by: 'members', status: 'frozen', value_in_period: 'end' }),
    ).toEqual([1, 0, 1, 1])
  })

  test('a group membership counts each member, and a member frozen on their own is frozen only as a member', async () => {
    const family = { membership_ids: [ids.family], value_in_period: 'end' }
    const range = { start_date: '2026-10-09', end_date: '2026-10-11' }
    expect(await values(range, family)).toEqual([0, 1, 1])
    expect(await values(range, { ...family, count_by: 'members' })).toEqual([0, 2, 2])
    const frozen = { status: 'frozen', value_in_period: 'end' }
    // Dee's membership is frozen until the 19th; Cy alone from the 20th.
    expect(await values(october18to21, frozen)).toEqual([1, 0, 0, 0])
    expect(await values(october18to21, { ...frozen, count_by: 'members' })).toEqual([1, 0, 1, 1])
    expect(
      await values(october18to21, { ...frozen, status: 'active_and_frozen', count_by: 'members' }),
    ).toEqual([5, 5, 5, 5])
  })

  test('a customer holding two memberships is one member', async () => {
    const range = { start_date: '2026-10-14', end_date: '2026-10-15' }
    const monthly = { membership_ids: [ids.monthly], value_in_period: 'end' }
    expect(await values(range, monthly)).toEqual([1, 2])
    expect(await values(range, { ...monthly, count_by: 'members' })).toEqual([1, 1])
  })

  test('payment_failed is counted only by the statuses that name it', async () => {
    const range = { start_date: '2026-10-24', end_date: '2026-10-26' }
    const end = { value_in_period: 'end' }
    expect(await values(range, { ...end, status: 'payment_failed' })).toEqual([0, 1, 1])
    expect(await values(range, { ...end, status: 'active_and_frozen' })).toEqual([5, 4, 4])
    expect(await values(range, { ...end, status: 'active_frozen_and_payment_failed' })).toEqual([5, 5, 5])
    // Ada's other membership is still active: as a member she counts once under the combined status.
    expect(await values(range, { ...end, status: 'payment_failed', count_by: 'members' })).toEqual([0, 1, 1])
    expect(
      await values(range, { ...end, status: 'active_frozen_and_payment_failed', count_by: 'members' }),
    ).toEqual([5, 5, 5])
    expect(await values(range, { ...end, status: 'payment_failed', discount_association_id: 7 })).toEqual([
      0, 1, 1,
    ])
    expect(await values(range, { ...end, discount_association_id: 7 })).toEqual([1, 0, 0])
  })

  test('billing locations are as they were on each day when it was rolled', async () => {
    const range = { start_date: '2026-10-29', end_date: '2026-11-01' }
    const at = (location: number) => ({ billing_location_ids: [location], value_in_period: 'end' })
    // A report on 2026-10-31 rolls the days through it.
    t.clock.set('2026-10-31T18:00:00Z')
    expect(await values(range, at(t.seed.gym.id))).toEqual([3, 3, 3, 0])
    await t.db
      .updateTable('customer_memberships')
      .set({ billing_location_id: t.seed.gym.id })
      .where('id', '=', ids.b)
      .execute()
    t.clock.set(START)
    // The family membership bills Downtown from the last day rolled before the move.
    expect(await values(range, at(t.seed.gym.id))).toEqual([3, 3, 4, 4])
    expect(await values(range, at(ids.uptown))).toEqual([1, 1, 0, 0])
    // Ada's failed membership bills nowhere: only the unfiltered count has it.
    const any = { status: 'active_frozen_and_payment_failed', value_in_period: 'end' }
    expect(await values(range, any)).toEqual([5, 5, 5, 5])
    expect(await values(range, { ...any, billing_location_ids: [t.seed.gym.id, ids.uptown] })).toEqual([
      4, 4, 4, 4,
    ])
  })

  test('add-ons, by the status of the member who has them and by name', async () => {
    const end = { count_by: 'add_ons', value_in_period: 'end' }
    expect(await values(october18to21, end)).toEqual([2, 3, 2, 2])
    expect(await values(october18to21, { ...end, status: 'frozen' })).toEqual([1, 0, 1, 1])
    expect(await values(october18to21, { ...end, status: 'frozen', add_on_names: ['Towel'] })).toEqual([
      0, 0, 1, 1,
    ])
    // The association is not the add-ons': ignored.
    expect(await values(october18to21, { ...end, discount_association_id: 7 })).toEqual([2, 3, 2, 2])
  })

  test.each([
    ['prepaid memberships: the family', { membership_purchase_types: ['prepaid'] }, [1, 1]],
    [
      'a retired type keeps its history when product_statuses selects it',
      { product_statuses: ['retired'] },
      [1, 1],
    ],
    ['active types only leave the retired one out', { product_statuses: ['active'] }, [4, 4]],
  ])('membership attributes: %s', async (_name, filters, expected) => {
    expect(await values(octoberNovember, { ...filters, value_in_period: 'max' })).toEqual(expected)
  })

  test('membership_ids and attributes with nothing in common: a zero series', async () => {
    const filters = { membership_ids: [ids.monthly], product_statuses: ['retired'], value_in_period: 'max' }
    expect(await values(octoberNovember, filters)).toEqual([0, 0])
  })
})

describe('membership_count refusals: 400 with a bare string', () => {
  const at = 'metrics[0].filters'
  test.each([
    [{ count_by: 'people' }, `${at}.count_by: must be one of memberships, members, add_ons`],
    [
      { status: 'paused' },
      `${at}.status: must be one of active, frozen, active_and_frozen, payment_failed, active_frozen_and_payment_failed`,
    ],
    [{ value_in_period: 'median' }, `${at}.value_in_period: must be one of start, end, min, max`],
    [{ membership_ids: [] }, `${at}.membership_ids: may not be an empty list`],
    [{ membership_ids: [0] }, `${at}.membership_ids[0]: must be a positive integer`],
    [{ billing_location_ids: [] }, `${at}.billing_location_ids: may not be an empty list`],
    [{ billing_location_ids: ['1'] }, `${at}.billing_location_ids[0]: must be a positive integer`],
    [{ count_by: 'add_ons', add_on_names: [] }, `${at}.add_on_names: may not be an empty list`],
    [{ count_by: 'add_ons', add_on_names: [''] }, `${at}.add_on_names[0]: must be a non-empty string`],
    [{ count_by: 'add_ons', add_on_names: 'Towel' }, `${at}.add_on_names: must be a list`],
    [{ add_on_names: ['Towel'] }, `${at}.add_on_names: only with count_by add_ons`],
    [{ count_by: 'members', add_on_names: ['Towel'] }, `${at}.add_on_names: only with count_by add_ons`],
    [{ discount_association_id: 0 }, `${at}.discount_association_id: must be a positive integer`],
    [{ discount_association_id: '7' }, `${at}.discount_association_id: must be a positive integer`],
    [{ product_statuses: [] }, `${at}.product_statuses: may not be an empty list`],
    [{ product_statuses: ['gone'] }, `${at}.product_statuses[0]: must be one of active, retired, draft`],
    [
      { membership_billing_intervals: ['daily'] },
      `${at}.membership_billing_intervals[0]: must be one of weekly, biweekly, four_weeks, monthly, quarterly, half_yearly, yearly`,
    ],
    [
      { entry_pass_kinds: ['single'] },
      `${at}.entry_pass_kinds: does not apply to membership_count (membership attributes only)`,
    ],
    [{ location_ids: [1] }, `${at}.location_ids: is not a filter of membership_count`],
  ])('%j', async (filters, message) => {
    const res = await query({ metrics: [{ id: 'm', type: 'membership_count', filters }] })
    expect([res.status, res.body]).toEqual([400, message])
  })
})

describe('GET /api/metrics/membership-add-on-names/', () => {
  const names = async (search = '') =>
    t.request('GET', `/api/metrics/membership-add-on-names/${search}`, { token: await reportsToken() })

  test('401 without a token, 403 without report access, 200 with it', async () => {
    expectUnauthenticated(await t.request('GET', '/api/metrics/membership-add-on-names/'))
    const desk = await makeToken(t.db, await makeUser(t.db, { can_access_reports: 0 }))
    const refused = await t.request('GET', '/api/metrics/membership-add-on-names/', { token: desk })
    expect([refused.status, refused.body]).toEqual([403, forbidden])
    const res = await names()
    expect([res.status, res.body]).toEqual([200, ['Chalk', 'Locker', 'Towel']])
  })

  test.each([
    ['neither date: all of the rollup', '', ['Chalk', 'Locker', 'Towel']],
    // The lead-in day (11-14) still has Dee's chalk; from 11-15 her membership is cancelled.
    ['a range whose lead-in day has an add-on', '?start_date=2026-11-15', ['Chalk', 'Locker', 'Towel']],
    ['a range after it', '?start_date=2026-11-16&end_date=2026-11-22', ['Locker', 'Towel']],
    ['widened to whole months', '?start_date=2026-11-20&interval=monthly', ['Chalk', 'Locker', 'Towel']],
    // 31 days before 10-09, through it: Ben's family starts on the 10th.
    ['end_date alone', '?end_date=2026-10-09', ['Chalk']],
    ['a range before any add-on', '?start_date=2026-09-01&end_date=2026-09-30', []],
  ])('%s', async (_name, search, expected) => {
    const res = await names(search)
    expect([res.status, res.body]).toEqual([200, expected])
  })

  test.each([
    ['?interval=hourly', 'interval: must be one of daily, weekly, monthly, quarterly, yearly'],
    ['?start_date=2026-02-30', 'start_date: must be a date as YYYY-MM-DD'],
    ['?start_date=', 'start_date: must be a date as YYYY-MM-DD'],
    ['?start_date=2026-11-02&end_date=2026-11-01', 'start_date: may not be after end_date (2026-11-01)'],
    ['?start_date=2010-01-01&end_date=2020-12-31', 'interval: the range holds more than 3700 daily buckets'],
  ])('%s: 400 with a bare string', async (search, message) => {
    const res = await names(search)
    expect([res.status, res.body]).toEqual([400, message])
  })
})
