import { beforeEach, describe, expect, test } from 'bun:test'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeEventVoucher } from '../../helpers/customer-record-factories.ts'
import { everyCanFlag, makeEventType, makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import {
  makeCustomerEntryPass,
  makeCustomerMembership,
  makeEntryPassType,
  makeEvent,
  makeMembershipType,
  makeReservation,
  makeVoucherPack,
} from '../../helpers/product-factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'

/*
 * POST /api/metrics/query/ with product_sold_count metrics, over weeks starting 2026-10-26,
 * 2026-11-02 and 2026-11-09 in America/Denver (which left daylight time on 2026-11-01):
 *
 * week 1, home gym, 2026-11-01 23:30 MST (already 2026-11-02 in UTC): a membership and two single
 *   passes, paid in cash.
 * week 2, Boulder: a booking, a voucher pack, a gift of a 10-entry pass and a gift of a
 *   membership, paid by card; home gym: a membership and a 10-entry pass given away at 0.00.
 * week 3: both gifts redeemed (a 10-entry pass acquired as a gift; a membership billed to Boulder,
 *   where the gift was sold), and, made by staff without a sale, a single pass, a 10-entry pass
 *   from a redemption code, an event voucher, a booking at the home gym and a membership billed to
 *   Boulder.
 */

const t = useSeededApp()

let token: string
let home: number
let boulder: number
let membershipType: number
let singlePass: number
let tenPass: number
let pack: number

beforeEach(async () => {
  token = await makeToken(t.db, await makeUser(t.db, everyCanFlag))
  home = t.seed.gym.id
  boulder = (await makeGym(t.db, { name: 'Boulder' })).id
  membershipType = (await makeMembershipType(t.db, { price_cents: 6000 })).id
  singlePass = (await makeEntryPassType(t.db, { number_of_entries: 1, price_cents: 2000 })).id
  tenPass = (await makeEntryPassType(t.db, { number_of_entries: 10, price_cents: 10000 })).id
  const eventType = await makeEventType(t.db, { gym_id: home })
  pack = (await makeVoucherPack(t.db, { event_type_id: eventType.id, price_cents: 6000 })).id
  const event = await makeEvent(t.db, { event_type_id: eventType.id, gym_id: boulder, price_cents: 1500 })
  const homeEvent = await makeEvent(t.db, { event_type_id: eventType.id, gym_id: home })

  const a = await makeCustomer(t.db)
  const b = await makeCustomer(t.db)
  const c = await makeCustomer(t.db)
  await sell('2026-11-02T06:30:00.000Z', {
    customer_id: a.id,
    line_items: [
      { purchase_type: 'MIN', membership_id: membershipType, start_date: '2026-11-01' },
      { purchase_type: 'EPA', entry_pass_id: singlePass, quantity: 2 },
    ],
    payments: [{ payment_type: 'OFF', amount: '100.00' }],
  })
  const gifts = await sell('2026-11-03T18:00:00.000Z', {
    customer_id: b.id,
    location_id: boulder,
    line_items: [
      { purchase_type: 'BOO', event_id: event.id },
      { purchase_type: 'VPO', voucher_pack_id: pack },
      { purchase_type: 'GIF', gift: { entry_pass_id: tenPass }, unit_price: '100.00' },
      { purchase_type: 'GIF', gift: { membership_id: membershipType }, unit_price: '60.00' },
    ],
    payments: [{ payment_type: 'STR', amount: '235.00' }],
  })
  await sell('2026-11-04T18:00:00.000Z', {
    customer_id: c.id,
    line_items: [
      { purchase_type: 'MIN', membership_id: membershipType, start_date: '2026-11-04', unit_price: '0.00' },
      { purchase_type: 'EPA', entry_pass_id: tenPass, unit_price: '0.00' },
    ],
  })
  t.clock.set('2026-11-10T17:00:00.000Z')
  for (const line of gifts.line_items.slice(2)) {
    const res = await t.request('POST', '/api/gifts/redeem/', {
      token,
      body: { code: line.gift_code, customer_id: c.id },
    })
    expect(res.status).toBe(200)
  }
  const byStaff = { created_at: '2026-11-11T17:00:00.000Z' }
  await makeCustomerEntryPass(t.db, {
    entry_pass_type_id: singlePass,
    owner_id: a.id,
    acquired_via: 'manual',
    ...byStaff,
  })
  await makeCustomerEntryPass(t.db, {
    entry_pass_type_id: tenPass,
    owner_id: a.id,
    acquired_via: 'code',
    ...byStaff,
  })
  await makeEventVoucher(t.db, a.id, { event_type_id: eventType.id, ...byStaff })
  await makeReservation(t.db, { event_id: homeEvent.id, customer_id: a.id, ...byStaff })
  await makeCustomerMembership(t.db, {
    membership_type_id: membershipType,
    owner_id: a.id,
    billing_location_id: boulder,
    ...byStaff,
  })
})

async function sell(at: string, body: Record<string, unknown>) {
  t.clock.set(at)
  const res = await t.request('POST', '/api/invoices/', { token, body: { location_id: home, ...body } })
  expect(res.status).toBe(201)
  return res.body
}

const weeks = { interval: 'weekly', start_date: '2026-10-26', end_date: '2026-11-15' }

/** Each metric's values over `range`, by id. */
async function series(range: Record<string, unknown>, metrics: Record<string, Record<string, unknown>>) {
  const res = await t.request('POST', '/api/metrics/query/', {
    token,
    body: {
      ...range,
      metrics: Object.entries(metrics).map(([id, filters]) => ({ id, type: 'product_sold_count', filters })),
    },
  })
  expect(res.status).toBe(200)
  return Object.fromEntries(res.body.series.map((s: { id: string; values: number[] }) => [s.id, s.values]))
}

describe('product_sold_count', () => {
  test('memberships: sold, given away, from a gift and started by staff, where each was sold', async () => {
    const membership = { product_type: 'membership' }
    expect(
      await series(weeks, {
        all: membership,
        no_gifts: { ...membership, exclude_gift_redemptions: true },
        paid: { ...membership, exclude_zero_paid: true },
        home: { ...membership, location_ids: [home] },
        boulder: { ...membership, location_ids: [boulder] },
        // Neither applies to memberships, so neither removes any.
        not_for_memberships: {
          ...membership,
          exclude_code_redemptions: true,
          exclude_manually_created: true,
        },
      }),
    ).toEqual({
      all: [1, 1, 2],
      no_gifts: [1, 1, 1],
      paid: [1, 0, 0],
      home: [1, 1, 0],
      boulder: [0, 0, 2],
      not_for_memberships: [1, 1, 2],
    })
  })

  test('entry passes: each exclusion on and off, locations, products and attributes', async () => {
    const pass = { product_type: 'entry_pass' }
    expect(
      await series(weeks, {
        all: pass,
        no_gifts: { ...pass, exclude_gift_redemptions: true },
        no_codes: { ...pass, exclude_code_redemptions: true },
        no_manual: { ...pass, exclude_manually_created: true },
        paid: { ...pass, exclude_zero_paid: true },
        none_excluded: {
          ...pass,
          exclude_gift_redemptions: false,
          exclude_code_redemptions: false,
          exclude_manually_created: false,
          exclude_zero_paid: false,
        },
        home: { ...pass, location_ids: [home] },
        boulder: { ...pass, location_ids: [boulder] },
        single: { ...pass, product_ids: [singlePass] },
        multi: { ...pass, entry_pass_kinds: ['multi'] },
        empty: { ...pass, product_ids: [singlePass], entry_pass_kinds: ['multi'] },
      }),
    ).toEqual({
      all: [2, 1, 3],
      no_gifts: [2, 1, 2],
      no_codes: [2, 1, 2],
      no_manual: [2, 1, 2],
      paid: [2, 0, 0],
      none_excluded: [2, 1, 3],
      home: [2, 1, 0],
      boulder: [0, 0, 1],
      single: [2, 0, 1],
      multi: [0, 1, 2],
      empty: [0, 0, 0],
    })
  })

  test('bookings, vouchers and gift codes', async () => {
    expect(
      await series(weeks, {
        bookings: { product_type: 'event' },
        paid_bookings: { product_type: 'event', exclude_zero_paid: true, exclude_gift_redemptions: true },
        home_bookings: { product_type: 'event', location_ids: [home] },
        vouchers: { product_type: 'voucher_pack', exclude_code_redemptions: true },
        pack_vouchers: { product_type: 'voucher_pack', product_ids: [pack] },
        paid_vouchers: { product_type: 'voucher_pack', exclude_zero_paid: true },
        gift_codes: { product_type: 'gift_card', exclude_zero_paid: true },
        home_gift_codes: { product_type: 'gift_card', location_ids: [home] },
      }),
    ).toEqual({
      bookings: [0, 1, 1],
      paid_bookings: [0, 1, 0],
      home_bookings: [0, 0, 1],
      vouchers: [0, 1, 1],
      pack_vouchers: [0, 1, 0],
      paid_vouchers: [0, 1, 0],
      gift_codes: [0, 2, 0],
      home_gift_codes: [0, 0, 0],
    })
  })

  test('a retired membership type keeps its history unless only active products are asked for', async () => {
    await t.db
      .updateTable('membership_types')
      .set({ status: 'RET' })
      .where('id', '=', membershipType)
      .execute()
    expect(
      await series(weeks, {
        every_status: { product_type: 'membership' },
        active: { product_type: 'membership', product_statuses: ['active'] },
        retired: { product_type: 'membership', product_statuses: ['retired'], product_ids: [membershipType] },
      }),
    ).toEqual({ every_status: [1, 1, 2], active: [0, 0, 0], retired: [1, 1, 2] })
  })

  test('by the local day of the sale: late on the 25-hour 2026-11-01 is that day', async () => {
    expect(
      await series(
        { start_date: '2026-10-31', end_date: '2026-11-02' },
        { memberships: { product_type: 'membership' }, passes: { product_type: 'entry_pass' } },
      ),
    ).toEqual({ memberships: [0, 1, 0], passes: [0, 2, 0] })
  })
})

describe('product_sold_count: refused filters', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'no product_type',
      {},
      'product_type: is required for product_sold_count (one of membership, entry_pass, event, voucher_pack, gift_card)',
    ],
    [
      'a product type that is not sold',
      { product_type: 'other' },
      'product_type: must be one of membership, entry_pass, event, voucher_pack, gift_card',
    ],
    [
      'product_ids of gift cards',
      { product_type: 'gift_card', product_ids: [1] },
      'product_ids: not allowed with product_type gift_card: product ids name products of membership, entry_pass, event, voucher_pack',
    ],
    [
      'an attribute of gift cards',
      { product_type: 'gift_card', entry_pass_kinds: ['single'] },
      'entry_pass_kinds: not allowed: product_type gift_card has no product attributes',
    ],
    [
      'an attribute of another product type',
      { product_type: 'event', membership_purchase_types: ['recurring'] },
      'membership_purchase_types: does not apply to product_type event',
    ],
    [
      'an exclusion that is not a boolean',
      { product_type: 'membership', exclude_zero_paid: 'yes' },
      'exclude_zero_paid: must be true or false',
    ],
    [
      'a filter of revenue',
      { product_type: 'membership', revenue_source: 'all' },
      'revenue_source: is not a filter of product_sold_count',
    ],
  ]
  for (const [name, filters, message] of cases)
    test(name, async () => {
      const res = await t.request('POST', '/api/metrics/query/', {
        token,
        body: { metrics: [{ id: 'sold', type: 'product_sold_count', filters }] },
      })
      expect([res.status, res.body]).toEqual([400, `metrics[0].filters.${message}`])
    })
})
