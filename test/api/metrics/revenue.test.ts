import { beforeEach, describe, expect, test } from 'bun:test'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { everyCanFlag, makeEventType, makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import {
  makeCustomerMembership,
  makeEntryPassType,
  makeEvent,
  makeMembershipType,
  makeTaxRate,
  makeVoucherPack,
} from '../../helpers/product-factories.ts'
import { makeInvoice, makePayment } from '../../helpers/sales-factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'

/*
 * POST /api/metrics/query/ with revenue metrics, over sales recorded through POST /api/invoices/
 * and refunded through /api/payments/<id>/refund/, so the series add up what the desk stored. The
 * organization is in America/Denver, which left daylight time on 2026-11-01.
 *
 * The mixed sale, on 2026-11-01 at 23:30 MST (already 2026-11-02 in UTC), costs 100.00:
 *   membership 60.00 + 10% tax 6.00, a day pass 20.00, chalk 14.00 (no tax).
 * It is paid in part: 50.00 by card through the service (STR, processor fee 1.75) and 30.00 in cash
 * (OFF), leaving 20.00 due. Each line's share of a payment is line net x amount / 100.00:
 *   STR 50.00: membership 30.00, pass 10.00, chalk 7.00  (47.00)
 *   OFF 30.00: membership 18.00, pass  6.00, chalk 4.20  (28.20)
 * The fee is spread by each line's part of the total: membership 66/100 x 1.75 = 1.155, pass 0.35,
 * chalk 0.245. On 2026-11-10, 20.00 of the card payment is refunded with a fee of 0.50: membership
 * -12.00 (fee 0.33), pass -4.00 (0.10), chalk -2.80 (0.07), -18.80 in all.
 * On 2026-11-03 a t-shirt of 10.00 is sold at the Boulder gym through its point of sale (VEN).
 */

const t = useSeededApp()

let token: string
let boulder: number
let membershipType: number
let passType: number
beforeEach(async () => {
  token = await makeToken(t.db, await makeUser(t.db, everyCanFlag))
  boulder = (await makeGym(t.db, { name: 'Boulder' })).id
  const tax = await makeTaxRate(t.db, { rate_basis_points: 1000 })
  membershipType = (await makeMembershipType(t.db, { price_cents: 6000, tax_rate_id: tax.id })).id
  passType = (await makeEntryPassType(t.db, { number_of_entries: 1, price_cents: 2000 })).id
})

async function sell(at: string, body: Record<string, unknown>) {
  t.clock.set(at)
  const res = await t.request('POST', '/api/invoices/', {
    token,
    body: { location_id: t.seed.gym.id, ...body },
  })
  expect(res.status).toBe(201)
  return res.body
}

async function refund(at: string, paymentId: number, amount: string, processorFee: string) {
  t.clock.set(at)
  const res = await t.request('POST', `/api/payments/${paymentId}/refund/`, {
    token,
    body: { amount, processor_fee: processorFee },
  })
  expect(res.status).toBe(200)
}

async function recordSales() {
  const customer = await makeCustomer(t.db)
  const mixed = await sell('2026-11-02T06:30:00.000Z', {
    customer_id: customer.id,
    line_items: [
      { purchase_type: 'MIN', membership_id: membershipType, start_date: '2026-11-01' },
      { purchase_type: 'EPA', entry_pass_id: passType },
      { purchase_type: 'GEN', description: 'Chalk', unit_price: '14.00' },
    ],
    payments: [
      { payment_type: 'STR', payment_method_type: 'CRD', amount: '50.00', processor_fee: '1.75' },
      { payment_type: 'OFF', amount: '30.00' },
    ],
  })
  expect([mixed.total, mixed.balance_due]).toEqual(['100.00', '20.00'])
  await sell('2026-11-03T18:00:00.000Z', {
    location_id: boulder,
    line_items: [{ purchase_type: 'GEN', description: 'T-shirt', unit_price: '10.00' }],
    payments: [{ payment_type: 'VEN', amount: '10.00' }],
  })
  await refund('2026-11-10T17:00:00.000Z', mixed.payments[0].id, '20.00', '0.50')
}

const weeks = { interval: 'weekly', start_date: '2026-10-26', end_date: '2026-11-15' }

/** Each metric's values over `range`, by id. */
async function series(range: Record<string, unknown>, metrics: Record<string, Record<string, unknown>>) {
  const res = await t.request('POST', '/api/metrics/query/', {
    token,
    body: {
      ...range,
      metrics: Object.entries(metrics).map(([id, filters]) => ({ id, type: 'revenue', filters })),
    },
  })
  expect(res.status).toBe(200)
  return Object.fromEntries(
    res.body.series.map((s: { id: string; values: number[]; total: number }) => [s.id, [s.values, s.total]]),
  )
}

describe('revenue', () => {
  test('gross, net and net of fees of a sale paid in part and refunded two weeks later, every cent', async () => {
    await recordSales()
    const all = { product_type: 'all' }
    expect(
      await series(weeks, {
        gross: { ...all, revenue_calculation: 'gross' },
        net: all,
        fees: { ...all, revenue_calculation: 'net_of_fees' },
        membership: { product_type: 'membership' },
        membership_gross: { product_type: 'membership', revenue_calculation: 'gross' },
        // 48.00 - 1.155 = 46.845 and -12.00 - 0.33: a bucket is rounded once, half away from zero.
        membership_fees: { product_type: 'membership', revenue_calculation: 'net_of_fees' },
        pass: { product_type: 'entry_pass' },
        other: { product_type: 'other', revenue_calculation: 'net_of_fees' },
      }),
    ).toEqual({
      gross: [[75.2, 10, 0], 85.2],
      net: [[75.2, 10, -18.8], 66.4],
      fees: [[73.45, 10, -19.3], 64.15],
      membership: [[48, 0, -12], 36],
      membership_gross: [[48, 0, 0], 48],
      membership_fees: [[46.85, 0, -12.33], 34.52],
      pass: [[16, 0, -4], 12],
      other: [[10.96, 10, -2.87], 18.09],
    })
  })

  test('by the local day of the payment: a sale late on the 25-hour 2026-11-01 is on that day', async () => {
    await recordSales()
    expect(
      await series(
        { start_date: '2026-10-31', end_date: '2026-11-03' },
        { net: { product_type: 'all' }, gross: { product_type: 'all', revenue_calculation: 'gross' } },
      ),
    ).toEqual({ net: [[0, 75.2, 0, 10], 85.2], gross: [[0, 75.2, 0, 10], 85.2] })
  })

  test('a payment from each source, and each location', async () => {
    await recordSales()
    const all = { product_type: 'all' }
    expect(
      await series(weeks, {
        service: { ...all, revenue_source: 'service' },
        service_fees: { ...all, revenue_source: 'service', revenue_calculation: 'net_of_fees' },
        pos: { ...all, revenue_source: 'pos' },
        offline: { ...all, revenue_source: 'offline' },
        boulder: { ...all, location_ids: [boulder] },
        home: { ...all, location_ids: [t.seed.gym.id], revenue_calculation: 'gross' },
      }),
    ).toEqual({
      service: [[47, 0, -18.8], 28.2],
      service_fees: [[45.25, 0, -19.3], 25.95],
      pos: [[0, 10, 0], 10],
      offline: [[28.2, 0, 0], 28.2],
      boulder: [[0, 10, 0], 10],
      home: [[75.2, 0, 0], 75.2],
    })
  })

  test('product ids, attributes and their intersection; a retired product keeps its history unless only active ones are asked for', async () => {
    await recordSales()
    await t.db
      .updateTable('membership_types')
      .set({ status: 'RET' })
      .where('id', '=', membershipType)
      .execute()
    const membership = { product_type: 'membership', revenue_calculation: 'gross' }
    expect(
      await series(weeks, {
        by_id: { ...membership, product_ids: [membershipType] },
        every_status: membership,
        active: { ...membership, product_statuses: ['active'] },
        retired: { ...membership, product_statuses: ['retired'], membership_billing_intervals: ['monthly'] },
        single_pass: { product_type: 'entry_pass', entry_pass_kinds: ['single'] },
        empty: { product_type: 'entry_pass', product_ids: [passType], entry_pass_kinds: ['multi'] },
      }),
    ).toEqual({
      by_id: [[48, 0, 0], 48],
      every_status: [[48, 0, 0], 48],
      active: [[0, 0, 0], 0],
      retired: [[48, 0, 0], 48],
      single_pass: [[16, 0, -4], 12],
      empty: [[0, 0, 0], 0],
    })
  })

  test("a line that names its membership only through the customer's membership counts for that membership type", async () => {
    const customer = await makeCustomer(t.db)
    const other = await makeMembershipType(t.db, { name: 'Yearly', interval: 'YRL' })
    const membership = await makeCustomerMembership(t.db, {
      membership_type_id: other.id,
      owner_id: customer.id,
    })
    // An add-on charge (MAC) imported with the membership it belongs to, and no type of its own.
    const invoice = await makeInvoice(t.db, {
      gym_id: t.seed.gym.id,
      at: '2026-11-05T17:00:00.000Z',
      lines: [{ purchase_type: 'MAC', net_cents: 2500, customer_membership_id: membership.id }],
    })
    await makePayment(t.db, { invoice_id: invoice.id, amount_cents: 2500, at: '2026-11-05T17:00:00.000Z' })
    expect(
      await series(weeks, {
        yearly: { product_type: 'membership', product_ids: [other.id] },
        monthly: { product_type: 'membership', product_ids: [membershipType] },
      }),
    ).toEqual({ yearly: [[0, 25, 0], 25], monthly: [[0, 0, 0], 0] })
  })

  test('bookings by their event type, voucher packs (a single voucher has no pack) and gift cards', async () => {
    const eventType = await makeEventType(t.db, { gym_id: t.seed.gym.id })
    const event = await makeEvent(t.db, {
      event_type_id: eventType.id,
      gym_id: t.seed.gym.id,
      price_cents: 1500,
    })
    const pack = await makeVoucherPack(t.db, { event_type_id: eventType.id, price_cents: 6000 })
    const customer = await makeCustomer(t.db)
    await sell('2026-11-05T17:00:00.000Z', {
      customer_id: customer.id,
      line_items: [
        { purchase_type: 'BOO', event_id: event.id },
        { purchase_type: 'VPO', voucher_pack_id: pack.id },
        { purchase_type: 'EVV', event_type_id: eventType.id, unit_price: '8.00' },
        { purchase_type: 'GIF', gift: { entry_pass_id: passType }, unit_price: '25.00' },
      ],
      payments: [{ payment_type: 'OFF', amount: '108.00' }],
    })
    expect(
      await series(weeks, {
        event: { product_type: 'event', product_ids: [eventType.id] },
        retired_event_types: { product_type: 'event', product_statuses: ['retired'] },
        vouchers: { product_type: 'voucher_pack' },
        pack: { product_type: 'voucher_pack', product_ids: [pack.id] },
        gift_card: { product_type: 'gift_card' },
      }),
    ).toEqual({
      event: [[0, 15, 0], 15],
      retired_event_types: [[0, 0, 0], 0],
      vouchers: [[0, 68, 0], 68],
      pack: [[0, 60, 0], 60],
      gift_card: [[0, 25, 0], 25],
    })
  })

  test('only paid payments count: one at the terminal counts once it completes, on the day it was taken', async () => {
    const sale = await sell('2026-11-04T17:00:00.000Z', {
      line_items: [{ purchase_type: 'GEN', description: 'Rope', unit_price: '80.00' }],
      payments: [{ payment_type: 'STR', amount: '80.00', status: 'PRO' }],
    })
    const gross = { product_type: 'all', revenue_calculation: 'gross' }
    expect(await series(weeks, { gross })).toEqual({ gross: [[0, 0, 0], 0] })
    t.clock.set('2026-11-12T17:00:00.000Z')
    const res = await t.request('POST', `/api/payments/${sale.payments[0].id}/complete/`, { token, body: {} })
    expect(res.status).toBe(200)
    expect(await series(weeks, { gross })).toEqual({ gross: [[0, 80, 0], 80] })
  })
})

describe('revenue: refused filters', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'no product_type',
      {},
      'product_type: is required for revenue (one of membership, entry_pass, event, voucher_pack, gift_card, other, all)',
    ],
    [
      'product_ids of gift cards',
      { product_type: 'gift_card', product_ids: [1] },
      'product_ids: not allowed with product_type gift_card: product ids name products of membership, entry_pass, event, voucher_pack',
    ],
    [
      'an attribute of gift cards',
      { product_type: 'gift_card', product_statuses: ['active'] },
      'product_statuses: not allowed: product_type gift_card has no product attributes',
    ],
    [
      'an attribute of another product type',
      { product_type: 'membership', entry_pass_kinds: ['single'] },
      'entry_pass_kinds: does not apply to product_type membership',
    ],
    [
      'an empty product list',
      { product_type: 'event', product_ids: [] },
      'product_ids: may not be an empty list',
    ],
    [
      'an unknown source',
      { product_type: 'all', revenue_source: 'capitan' },
      'revenue_source: must be one of all, service, pos, offline',
    ],
    [
      'an unknown calculation',
      { product_type: 'all', revenue_calculation: 'tax' },
      'revenue_calculation: must be one of net, gross, net_of_fees',
    ],
    [
      'net of fees of point-of-sale payments',
      { product_type: 'all', revenue_source: 'pos', revenue_calculation: 'net_of_fees' },
      'revenue_calculation: net_of_fees needs revenue_source all or service (processor fees are not known for pos payments)',
    ],
    [
      'a filter of another metric',
      { product_type: 'all', exclude_zero_paid: true },
      'exclude_zero_paid: is not a filter of revenue',
    ],
  ]
  for (const [name, filters, message] of cases)
    test(name, async () => {
      const res = await t.request('POST', '/api/metrics/query/', {
        token,
        body: { metrics: [{ id: 'r', type: 'revenue', filters }] },
      })
      expect([res.status, res.body]).toEqual([400, `metrics[0].filters.${message}`])
    })
})
