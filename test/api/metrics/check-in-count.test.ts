import { describe, expect, test } from 'bun:test'
import { makeCheckIn } from '../../helpers/check-in-factories.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeMembershipFor, makePassFor, makeReservationNow } from '../../helpers/door-factories.ts'
import { makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'

// check_in_count through POST /api/metrics/query/. The organization and its gym are in
// America/Denver, which leaves daylight time at 02:00 MDT on 2026-11-01 (08:00Z: the clock goes
// back to 01:00, so that day has two 01:30s and 25 hours); the clock says 2026-11-22 there.

const t = useSeededApp()

const query = async (body: Record<string, unknown>) => {
  const token = await makeToken(t.db, await makeUser(t.db, { can_access_reports: 1 }))
  return t.request('POST', '/api/metrics/query/', { token, body })
}
const checkIns = (filters: Record<string, unknown> = {}) => ({ id: 'c', type: 'check_in_count', filters })

/** The values of each series of a query that must succeed. */
async function seriesValues(body: Record<string, unknown>) {
  const res = await query(body)
  expect(res.status).toBe(200)
  return res.body.series.map((s: { values: unknown[] }) => s.values)
}

/** One check-in of `customerId` at the seeded gym (or `gymId`) at `at`, as the door records it. */
const visit = (
  customerId: number,
  at: string,
  checkInCount: number,
  fields: Partial<Parameters<typeof makeCheckIn>[1]> = {},
) =>
  makeCheckIn(t.db, {
    customer_id: customerId,
    gym_id: t.seed.gym.id,
    at,
    check_in_count: checkInCount,
    ...fields,
  })

describe('the week daylight time ends', () => {
  const days = { start_date: '2026-10-31', end_date: '2026-11-02' }

  async function history() {
    const ana = await makeCustomer(t.db, { first_name: 'Ana' })
    const ben = await makeCustomer(t.db, { first_name: 'Ben' })
    await visit(ben.id, '2026-11-01T05:59:00.000Z', 5) // Oct 31 23:59 MDT
    await visit(ana.id, '2026-11-01T06:30:00.000Z', 1) // Nov 1 00:30 MDT: Ana's first visit
    await visit(ana.id, '2026-11-01T07:30:00.000Z', 2) // Nov 1 01:30 MDT
    await visit(ben.id, '2026-11-01T08:30:00.000Z', 1) // Nov 1 01:30 MST, the second 01:30: Ben's first here
    await visit(ana.id, '2026-11-02T06:30:00.000Z', 3) // Nov 1 23:30 MST
    await visit(ben.id, '2026-11-02T07:00:00.000Z', 6) // Nov 2 00:00 MST
    return { ana, ben }
  }

  test('all, unique and first_time by the local day, which had 25 hours', async () => {
    await history()
    const res = await query({
      ...days,
      metrics: [
        checkIns(),
        { id: 'u', type: 'check_in_count', filters: { check_in_type: 'unique' } },
        { id: 'f', type: 'check_in_count', filters: { check_in_type: 'first_time' } },
      ],
    })
    expect(res.body.series).toEqual([
      { id: 'c', type: 'check_in_count', unit: 'count', additive: true, values: [1, 4, 1], total: 6 },
      // Ana came three times on Nov 1 and Ben once: two customers.
      { id: 'u', type: 'check_in_count', unit: 'count', additive: false, values: [1, 2, 1], total: null },
      { id: 'f', type: 'check_in_count', unit: 'count', additive: true, values: [0, 2, 0], total: 2 },
    ])
  })

  test('a time-of-day window: start inclusive, end exclusive, an end before the start wraps past midnight', async () => {
    await history()
    const windowed = (start?: string, end?: string, type = 'all') =>
      checkIns({ check_in_type: type, time_of_day_start: start, time_of_day_end: end })
    expect(
      await seriesValues({
        ...days,
        metrics: [
          // Both 01:30s of Nov 1 are inside 01:00-02:00.
          { ...windowed('01:00', '02:00'), id: 'changed hour' },
          { ...windowed('01:00', '02:00', 'unique'), id: 'changed hour, unique' },
          { ...windowed('23:00', '01:00'), id: 'across midnight' },
          { ...windowed('23:30:00'), id: 'from 23:30' },
          { ...windowed(undefined, '00:30'), id: 'until 00:30' },
          { ...windowed('00:00', '01:00', 'first_time'), id: 'first visits after midnight' },
        ],
      }),
    ).toEqual([
      [0, 2, 0],
      [0, 2, 0],
      [1, 2, 1],
      [1, 1, 0],
      [0, 0, 1],
      [0, 1, 0],
    ])
  })

  test("a gym in another zone counts on the organization's day and clock, not its own", async () => {
    const { ana } = await history()
    const coast = await makeGym(t.db, { name: 'Boulder Barn Coast', time_zone: 'America/Los_Angeles' })
    // Nov 1 23:30 PST at the gym is Nov 2 00:30 MST for the organization.
    await visit(ana.id, '2026-11-02T07:30:00.000Z', 4, { gym_id: coast.id })
    expect(
      await seriesValues({
        ...days,
        metrics: [
          checkIns(),
          { ...checkIns({ check_in_type: 'unique' }), id: 'u' },
          { ...checkIns({ time_of_day_start: '00:15', time_of_day_end: '00:45' }), id: 'w' },
          { ...checkIns({ location_ids: [coast.id] }), id: 'coast' },
        ],
      }),
    ).toEqual([
      [1, 4, 2],
      [1, 2, 2],
      [0, 1, 1],
      [0, 0, 1],
    ])
  })
})

describe('unique customers of a day who came more than once', () => {
  const days = { start_date: '2026-10-20', end_date: '2026-10-21' }
  /** An instant at `time` on `day` in Denver's summer time (UTC-6). */
  const mdt = (day: string, time: string) => new Date(`${day}T${time}:00-06:00`).toISOString()

  /**
   * On Oct 20: Cy twice in the evening, Di at noon and in the evening, Ed in the evening at both
   * gyms, Flo twice in the evening with the second deleted, Gus once and again with his check-in of
   * Oct 21 moved to that evening.
   */
  async function twiceADay() {
    const barn = await makeGym(t.db, { name: 'Boulder Barn' })
    const [cy, di, ed, flo, gus] = await Promise.all(
      ['Cy', 'Di', 'Ed', 'Flo', 'Gus'].map((first_name) => makeCustomer(t.db, { first_name })),
    )
    await visit(cy!.id, mdt('2026-10-20', '17:30'), 1)
    await visit(cy!.id, mdt('2026-10-20', '19:30'), 2)
    await visit(di!.id, mdt('2026-10-20', '12:00'), 1)
    await visit(di!.id, mdt('2026-10-20', '18:00'), 2)
    await visit(ed!.id, mdt('2026-10-20', '18:00'), 1)
    await visit(ed!.id, mdt('2026-10-20', '18:30'), 2, { gym_id: barn.id })
    await visit(flo!.id, mdt('2026-10-20', '18:00'), 1)
    const deleted = await visit(flo!.id, mdt('2026-10-20', '19:00'), 2)
    await t.db.deleteFrom('check_ins').where('id', '=', deleted.id).execute()
    await visit(gus!.id, mdt('2026-10-20', '18:00'), 1)
    const moved = await visit(gus!.id, mdt('2026-10-21', '18:00'), 2)
    await t.db
      .updateTable('check_ins')
      .set({ created_at: mdt('2026-10-20', '19:00'), local_date: '2026-10-20', local_time: '19:00:00' })
      .where('id', '=', moved.id)
      .execute()
    return { barn }
  }

  const counted = (barnId: number) => [
    { ...checkIns({ check_in_type: 'unique' }), id: 'day' },
    {
      ...checkIns({ check_in_type: 'unique', time_of_day_start: '17:00', time_of_day_end: '20:00' }),
      id: 'evening',
    },
    { ...checkIns({ time_of_day_start: '17:00', time_of_day_end: '20:00' }), id: 'evening, all' },
    {
      ...checkIns({ check_in_type: 'unique', time_of_day_start: '17:00', location_ids: [barnId] }),
      id: 'evening at the barn',
    },
  ]
  const expected = [
    [5, 0],
    [5, 0],
    [8, 0],
    [1, 0],
  ]

  test('count once each, however many of their check-ins are in the window, where the check-ins are now', async () => {
    const { barn } = await twiceADay()
    expect(await seriesValues({ ...days, metrics: counted(barn.id) })).toEqual(expected)
  })

  test('with a gym in another zone, the same from every check-in of the days', async () => {
    const { barn } = await twiceADay()
    await makeGym(t.db, { name: 'Boulder Barn Coast', time_zone: 'America/Los_Angeles' })
    expect(await seriesValues({ ...days, metrics: counted(barn.id) })).toEqual(expected)
  })
})

describe('day_of_week', () => {
  async function weekends() {
    const cy = await makeCustomer(t.db, { first_name: 'Cy' })
    await visit(cy.id, '2026-11-09T19:00:00.000Z', 1) // Monday
    await visit(cy.id, '2026-11-14T19:00:00.000Z', 2) // Saturday
    await visit(cy.id, '2026-11-15T19:00:00.000Z', 3) // Sunday
    await visit(cy.id, '2026-11-15T21:00:00.000Z', 4) // Sunday again
    await visit(cy.id, '2026-11-16T19:00:00.000Z', 5) // Monday
  }
  const weekend = { day_of_week: ['saturday', 'sunday'] }

  test('daily: the other days are zero buckets', async () => {
    await weekends()
    expect(
      await seriesValues({
        start_date: '2026-11-13',
        end_date: '2026-11-16',
        metrics: [checkIns(weekend), { ...checkIns({ ...weekend, check_in_type: 'unique' }), id: 'u' }],
      }),
    ).toEqual([
      [0, 1, 2, 0],
      [0, 1, 1, 0],
    ])
  })

  test('weekly: each week counts only its matching days; an empty list is every day', async () => {
    await weekends()
    expect(
      await seriesValues({
        interval: 'weekly',
        start_date: '2026-11-09',
        end_date: '2026-11-16',
        metrics: [
          checkIns(weekend),
          { ...checkIns({ ...weekend, check_in_type: 'unique' }), id: 'u' },
          { ...checkIns({ day_of_week: [] }), id: 'every day' },
          { ...checkIns({ day_of_week: ['monday'], check_in_type: 'first_time' }), id: 'first on a Monday' },
        ],
      }),
    ).toEqual([
      [3, 0],
      [1, 0],
      [4, 1],
      [1, 0],
    ])
  })
})

describe('products used for entry', () => {
  async function products() {
    const gym = t.seed.gym.id
    const host = await makeCustomer(t.db, { first_name: 'Host' })
    const guest = await makeCustomer(t.db, { first_name: 'Guest' })
    const other = await makeCustomer(t.db, { first_name: 'Other' })
    const monthly = await makeMembershipFor(t.db, host.id, {
      type: { name: 'Monthly', purchase_type: 'REC' },
    })
    const prepaid = await makeMembershipFor(t.db, other.id, {
      type: { name: 'Ten weeks', purchase_type: 'PRE', interval: '' },
    })
    const pass = await makePassFor(t.db, other.id)
    const { event, reservation } = await makeReservationNow(t.db, other.id, gym)
    const at = '2026-11-20T18:00:00.000Z'
    await visit(host.id, at, 1, { customer_membership_id: monthly.id })
    await visit(host.id, '2026-11-21T18:00:00.000Z', 2, { customer_membership_id: monthly.id })
    await visit(guest.id, at, 1, {
      entry_method: 'GUE',
      host_customer_id: host.id,
      customer_membership_id: monthly.id,
    })
    await visit(other.id, at, 1, { customer_membership_id: prepaid.id })
    await visit(other.id, '2026-11-21T18:00:00.000Z', 2, {
      entry_method: 'ENT',
      customer_entry_pass_id: pass.id,
    })
    await visit(other.id, '2026-11-21T20:00:00.000Z', 3, {
      entry_method: 'EVE',
      reservation_id: reservation.id,
    })
    await visit(other.id, '2026-11-21T22:00:00.000Z', 4, { entry_method: 'FRE' })
    return {
      monthly: monthly.membership_type_id,
      prepaid: prepaid.membership_type_id,
      pass: pass.entry_pass_type_id,
      eventType: event.event_type_id,
    }
  }
  const twoDays = { start_date: '2026-11-20', end_date: '2026-11-21' }

  test('by entry method, product ids and attributes (the intersection), a guest under the host’s membership type', async () => {
    const p = await products()
    const series: [string, Record<string, unknown>, number[]][] = [
      ['every MEM', { entry_method: 'MEM' }, [2, 1]],
      ['MEM on the monthly type', { entry_method: 'MEM', product_ids: [p.monthly] }, [1, 1]],
      ['guests of monthly members', { entry_method: 'GUE', product_ids: [p.monthly] }, [1, 0]],
      ['guests of prepaid members', { entry_method: 'GUE', product_ids: [p.prepaid] }, [0, 0]],
      [
        'recurring of both',
        {
          entry_method: 'MEM',
          product_ids: [p.monthly, p.prepaid],
          membership_purchase_types: ['recurring'],
        },
        [1, 1],
      ],
      [
        'empty intersection',
        { entry_method: 'MEM', product_ids: [p.monthly], membership_purchase_types: ['prepaid'] },
        [0, 0],
      ],
      ['prepaid by attribute', { entry_method: 'MEM', membership_purchase_types: ['prepaid'] }, [1, 0]],
      ['the pass type', { entry_method: 'ENT', product_ids: [p.pass] }, [0, 1]],
      ['the event type', { entry_method: 'EVE', product_ids: [p.eventType] }, [0, 1]],
      [
        'first visits on monthly',
        { entry_method: 'MEM', product_ids: [p.monthly], check_in_type: 'first_time' },
        [1, 0],
      ],
      ['free entry', { entry_method: 'FRE' }, [0, 1]],
      // The same counts read from the check-ins themselves (a window) as from the per-day counts.
      [
        'monthly, windowed',
        {
          entry_method: 'MEM',
          product_ids: [p.monthly],
          time_of_day_start: '11:00',
          time_of_day_end: '11:01',
        },
        [1, 1],
      ],
      [
        'guests, windowed',
        { entry_method: 'GUE', product_ids: [p.monthly], time_of_day_start: '11:00' },
        [1, 0],
      ],
      [
        'empty intersection, windowed',
        {
          entry_method: 'MEM',
          product_ids: [p.monthly],
          membership_purchase_types: ['prepaid'],
          time_of_day_start: '11:00',
        },
        [0, 0],
      ],
    ]
    const values = await seriesValues({
      ...twoDays,
      metrics: series.map(([id, filters]) => ({ id, type: 'check_in_count', filters })),
    })
    expect(Object.fromEntries(series.map(([id], i) => [id, values[i]]))).toEqual(
      Object.fromEntries(series.map(([id, , expected]) => [id, expected])),
    )
  })
})

describe('refused filters: 400 with a bare string', () => {
  const cases: [string, Record<string, unknown>, string, string?][] = [
    [
      'an unknown check_in_type',
      { check_in_type: 'first' },
      'check_in_type: must be one of all, unique, first_time',
    ],
    [
      'an unknown entry method',
      { entry_method: 'VIP' },
      'entry_method: must be one of MEM, ENT, EVE, GUE, FRE, MIG',
    ],
    [
      'product_ids without entry_method',
      { product_ids: [1] },
      'product_ids: requires entry_method (one of MEM, ENT, EVE, GUE)',
    ],
    [
      'product_ids for free entry',
      { entry_method: 'FRE', product_ids: [1] },
      'product_ids: not allowed: entry_method FRE records no product',
    ],
    [
      'product_ids for migrated check-ins',
      { entry_method: 'MIG', product_ids: [1] },
      'product_ids: not allowed: entry_method MIG records no product',
    ],
    [
      'an empty product_ids',
      { entry_method: 'MEM', product_ids: [] },
      'product_ids: may not be an empty list',
    ],
    ['an empty location_ids', { location_ids: [] }, 'location_ids: may not be an empty list'],
    [
      'a malformed time of day',
      { time_of_day_start: '7:00' },
      'time_of_day_start: must be a time of day as HH:MM or HH:MM:SS',
    ],
    [
      'a time of day past 23:59',
      { time_of_day_end: '24:00' },
      'time_of_day_end: must be a time of day as HH:MM or HH:MM:SS',
    ],
    [
      'a window with no length',
      { time_of_day_start: '17:00', time_of_day_end: '17:00:00' },
      'time_of_day_end: must differ from time_of_day_start (omit both for the whole day)',
    ],
    [
      'a window at weekly',
      { time_of_day_start: '17:00' },
      'time_of_day_start: only with the daily interval (this query is weekly)',
      'weekly',
    ],
    [
      'an end alone at monthly',
      { time_of_day_end: '17:00' },
      'time_of_day_end: only with the daily interval (this query is monthly)',
      'monthly',
    ],
    [
      'an unknown day',
      { day_of_week: ['sunday', 'funday'] },
      'day_of_week[1]: must be one of sunday, monday, tuesday, wednesday, thursday, friday, saturday',
    ],
    [
      'attributes without entry_method',
      { membership_purchase_types: ['recurring'] },
      'membership_purchase_types: not allowed: it needs an entry_method that records a product (one of MEM, ENT, EVE, GUE)',
    ],
    [
      'attributes for free entry',
      { entry_method: 'FRE', product_statuses: ['active'] },
      'product_statuses: not allowed: entry_method FRE records no product',
    ],
    [
      'pass attributes for memberships',
      { entry_method: 'MEM', entry_pass_kinds: ['single'] },
      'entry_pass_kinds: does not apply to entry_method MEM (membership types)',
    ],
    [
      'event attributes for guests',
      { entry_method: 'GUE', event_schedule_types: ['recurring'] },
      "event_schedule_types: does not apply to entry_method GUE (the host's membership types)",
    ],
    [
      'membership attributes for passes',
      { entry_method: 'ENT', membership_billing_intervals: ['monthly'] },
      'membership_billing_intervals: does not apply to entry_method ENT (entry pass types)',
    ],
    [
      'a filter of another metric',
      { product_type: 'membership' },
      'product_type: is not a filter of check_in_count',
    ],
  ]
  for (const [name, filters, message, interval] of cases)
    test(name, async () => {
      const res = await query({ interval, metrics: [checkIns(filters)] })
      expect([res.status, res.body]).toEqual([400, `metrics[0].filters.${message}`])
    })
})
