import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { checkSale, checkSaleTotals } from '../../../src/core/sales/check-sale.ts'
import { saleMessages } from '../../../src/core/sales/messages.ts'
import type { Reason, SaleRefusal } from '../../../src/core/sales/refusals.ts'
import type { LineRequest, PaymentRequest, SaleRequest } from '../../../src/core/sales/request.ts'
import { priceSale, type SaleLine } from '../../../src/core/sales/sale.ts'
import { openDatabase, type Connection } from '../../../src/db/connection.ts'
import { migrateToLatest } from '../../../src/db/migrator.ts'
import { paymentAmountMessages } from '../../../src/domain/invoice-money.ts'
import { reservationMessages } from '../../../src/domain/reservations.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import { START } from '../../helpers/app.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeCredit } from '../../helpers/customer-record-factories.ts'
import { makeEventType, seedBasics } from '../../helpers/factories.ts'
import {
  makeCustomerMembership,
  makeEntryPassType,
  makeEvent,
  makeMembershipType,
  makeTaxRate,
  makeVoucherPack,
} from '../../helpers/product-factories.ts'

/*
 * checkSale and checkSaleTotals (src/core/sales/check-sale.ts): a sale's lines priced from their
 * products, each purchase type's refusals at its line, and the totals a payment must hold. The
 * catalogue: customer 1 (Lynn); an active membership type (65.00 a month) and a retired one; an
 * active entry pass type (150.00, taxed 8.25%) and a retired one; a voucher pack (60.00); an event
 * type with an event and a cancelled event; customer 1's recurring membership billed 65.00, due
 * today; a credit of 25.00.
 */

let connection: Connection
let request: (fields: Partial<SaleRequest>) => SaleRequest
const clock = fixedClock(START)
const ids = {
  customer: 0,
  membershipType: 0,
  retiredMembershipType: 0,
  passType: 0,
  retiredPassType: 0,
  pack: 0,
  eventType: 0,
  event: 0,
  cancelledEvent: 0,
  membership: 0,
  taxRate: 0,
  credit: 0,
}

beforeEach(async () => {
  connection = openDatabase(':memory:')
  const { db } = connection
  await migrateToLatest(db)
  const seed = await seedBasics(db)
  ids.customer = (await makeCustomer(db)).id
  ids.taxRate = (await makeTaxRate(db)).id
  ids.membershipType = (await makeMembershipType(db, { revenue_account_code: '4100' })).id
  ids.retiredMembershipType = (await makeMembershipType(db, { name: 'Old', status: 'RET' })).id
  ids.passType = (await makeEntryPassType(db, { tax_rate_id: ids.taxRate, revenue_account_code: '4200' })).id
  ids.retiredPassType = (await makeEntryPassType(db, { name: 'Old card', status: 'RET' })).id
  ids.eventType = (await makeEventType(db)).id
  ids.pack = (await makeVoucherPack(db, { event_type_id: ids.eventType })).id
  ids.event = (
    await makeEvent(db, { event_type_id: ids.eventType, gym_id: seed.gym.id, price_cents: 2000 })
  ).id
  ids.cancelledEvent = (
    await makeEvent(db, { event_type_id: ids.eventType, gym_id: seed.gym.id, is_cancelled: 1 })
  ).id
  ids.membership = (
    await makeCustomerMembership(db, {
      membership_type_id: ids.membershipType,
      owner_id: ids.customer,
      start_date: '2026-10-22',
      end_date: '2026-11-22',
      billing_amount_cents: 6500,
    })
  ).id
  ids.credit = (await makeCredit(db, ids.customer)).id
  request = (fields) => ({
    customer_id: ids.customer,
    lines: [],
    payments: [],
    refused: new Set(),
    staff: { id: seed.staff.id, default_gym_id: seed.gym.id },
    ...fields,
  })
})
afterEach(() => connection.close())

const check = (fields: Partial<SaleRequest>) =>
  checkSale({ db: connection.db, sqlite: connection.sqlite, clock }, request(fields))
const line = (fields: Omit<LineRequest, 'refused'>): LineRequest => ({ refused: false, ...fields })
const atLine = (field: string, reason: Reason): SaleRefusal => ({
  at: { list: 'line_items', index: 0 },
  field,
  reason,
})
const required = { code: 'required' } as const
const missing = (id: number) => ({ code: 'does_not_exist', id }) as const
const says = (message: string) => ({ message })

describe('checkSale: each purchase type refused at its line', () => {
  const cases: Array<[name: string, line: () => LineRequest, refusals: () => SaleRefusal[]]> = [
    ['GEN without a price', () => line({ purchase_type: 'GEN' }), () => [atLine('unit_price', required)]],
    [
      'MIN of two, without a start date',
      () => line({ purchase_type: 'MIN', membership_id: ids.membershipType, quantity: 2 }),
      () => [atLine('quantity', { code: 'max', limit: 1 }), atLine('start_date', required)],
    ],
    [
      'MIN of a retired type',
      () =>
        line({ purchase_type: 'MIN', membership_id: ids.retiredMembershipType, start_date: '2026-11-22' }),
      () => [atLine('membership_id', says(saleMessages.notForSale))],
    ],
    [
      'MIN of a type that does not exist',
      () => line({ purchase_type: 'MIN', membership_id: 999, start_date: '2026-11-22' }),
      () => [atLine('membership_id', missing(999))],
    ],
    [
      "MRE of a membership that is not the customer's",
      () => line({ purchase_type: 'MRE', customer_membership_id: 999 }),
      () => [atLine('customer_membership_id', missing(999))],
    ],
    [
      'MRE naming a period after the next one',
      () =>
        line({ purchase_type: 'MRE', customer_membership_id: ids.membership, period_start: '2026-12-22' }),
      () => [atLine('period_start', says(saleMessages.periodNotNext('2026-11-22')))],
    ],
    [
      'EPA without its entry pass type',
      () => line({ purchase_type: 'EPA' }),
      () => [atLine('entry_pass_id', required)],
    ],
    [
      'EPA of a retired type',
      () => line({ purchase_type: 'EPA', entry_pass_id: ids.retiredPassType }),
      () => [atLine('entry_pass_id', says(saleMessages.notForSale))],
    ],
    [
      'BOO of a cancelled event',
      () => line({ purchase_type: 'BOO', event_id: ids.cancelledEvent }),
      () => [atLine('event_id', says(reservationMessages.eventCancelled))],
    ],
    [
      'VPO of a pack that does not exist',
      () => line({ purchase_type: 'VPO', voucher_pack_id: 999 }),
      () => [atLine('voucher_pack_id', missing(999))],
    ],
    [
      'EVV without a price',
      () => line({ purchase_type: 'EVV', event_type_id: ids.eventType }),
      () => [atLine('unit_price', required)],
    ],
    [
      'GIF naming two products',
      () => line({ purchase_type: 'GIF', gift: { entry_pass_id: ids.passType, voucher_pack_id: ids.pack } }),
      () => [atLine('gift', says(saleMessages.giftProduct))],
    ],
    [
      'a tax rate that does not exist, on any line',
      () => line({ purchase_type: 'GEN', unit_price_cents: 100, tax_rate_id: 999 }),
      () => [atLine('tax_rate_id', missing(999))],
    ],
  ]
  test.each(cases)('%s', async (_, sent, refusals) => {
    const checked = await check({ lines: [sent()] })
    expect(checked.refusals).toEqual(refusals())
    expect(checked.sale).toBeUndefined()
  })

  test('an anonymous sale of an entry pass needs a customer', async () => {
    const checked = await check({
      customer_id: null,
      lines: [line({ purchase_type: 'EPA', entry_pass_id: ids.passType })],
    })
    expect(checked.refusals).toEqual([
      { at: 'sale', field: 'customer_id', reason: says(saleMessages.needsCustomer) },
    ])
  })

  test('a line the caller refused is checked but not sold', async () => {
    const checked = await check({
      lines: [{ ...line({ purchase_type: 'GEN', unit_price_cents: 100 }), refused: true }],
    })
    expect(checked).toEqual({ refusals: [], sale: undefined, zone: 'America/Denver' } as never)
  })
})

describe('checkSale: a line as sold', () => {
  const terms = (line: SaleLine) => ({
    description: line.description,
    quantity: line.quantity,
    unitPriceCents: line.unitPriceCents,
    taxRateId: line.taxRateId,
    taxRateBasisPoints: line.taxRateBasisPoints,
    revenueAccountCode: line.revenueAccountCode,
  })
  const cases: Array<[name: string, line: () => LineRequest, expected: () => ReturnType<typeof terms>]> = [
    [
      "EPA at its product's price, tax rate and account, named by it",
      () => line({ purchase_type: 'EPA', entry_pass_id: ids.passType, quantity: 2 }),
      () => ({
        description: '10-Punch Card',
        quantity: 2,
        unitPriceCents: 15000,
        taxRateId: ids.taxRate,
        taxRateBasisPoints: 825,
        revenueAccountCode: '4200',
      }),
    ],
    [
      "the line's own price, description and account win; tax_rate_id null is untaxed",
      () =>
        line({
          purchase_type: 'EPA',
          entry_pass_id: ids.passType,
          unit_price_cents: 9900,
          description: 'Card, staff price',
          tax_rate_id: null,
          revenue_account_code: '4999',
        }),
      () => ({
        description: 'Card, staff price',
        quantity: 1,
        unitPriceCents: 9900,
        taxRateId: null,
        taxRateBasisPoints: 0,
        revenueAccountCode: '4999',
      }),
    ],
    [
      "MRE charges the membership's billing amount under its type's name and account",
      () => line({ purchase_type: 'MRE', customer_membership_id: ids.membership }),
      () => ({
        description: 'Monthly Adult',
        quantity: 1,
        unitPriceCents: 6500,
        taxRateId: null,
        taxRateBasisPoints: 0,
        revenueAccountCode: '4100',
      }),
    ],
    [
      'GEN is free of any product: no name, no tax, no account',
      () => line({ purchase_type: 'GEN', unit_price_cents: 450 }),
      () => ({
        description: '',
        quantity: 1,
        unitPriceCents: 450,
        taxRateId: null,
        taxRateBasisPoints: 0,
        revenueAccountCode: '',
      }),
    ],
  ]
  test.each(cases)('%s', async (_, sent, expected) => {
    const checked = await check({ lines: [sent()] })
    expect(checked.refusals).toEqual([])
    expect(terms(checked.sale!.lines[0]!)).toEqual(expected())
  })
})

describe('checkSale: payments', () => {
  const payment = (fields: PaymentRequest): PaymentRequest => fields
  test('two payments cannot spend one credit twice; the second is refused at its amount', async () => {
    const checked = await check({
      lines: [line({ purchase_type: 'GEN', unit_price_cents: 5000 })],
      payments: [
        payment({ payment_type: 'CRE', credit_id: ids.credit, amount_cents: 2000 }),
        payment({ payment_type: 'CRE', credit_id: ids.credit, amount_cents: 1000 }),
      ],
    })
    expect(checked.refusals).toEqual([
      { at: { list: 'payments', index: 1 }, field: 'amount', reason: says(saleMessages.creditTooLow(500)) },
    ])
  })

  test('a processor fee above the amount is refused at processor_fee', async () => {
    const checked = await check({
      lines: [line({ purchase_type: 'GEN', unit_price_cents: 5000 })],
      payments: [payment({ payment_type: 'OFF', amount_cents: 1000, processor_fee_cents: 1001 })],
    })
    expect(checked.refusals).toEqual([
      {
        at: { list: 'payments', index: 0 },
        field: 'processor_fee',
        reason: says(paymentAmountMessages.feeAboveAmount(1000)),
      },
    ])
  })
})

describe('priceSale and checkSaleTotals', () => {
  const sold = (unitPriceCents: number, quantity: number, taxRateBasisPoints: number): SaleLine => ({
    purchaseType: 'GEN',
    description: '',
    quantity,
    unitPriceCents,
    taxRateId: null,
    taxRateBasisPoints,
    revenueAccountCode: '',
  })
  const tenPercent = {
    id: 1,
    code: 'TEN',
    name: '',
    display_name: '',
    association_id: null,
    terms: { percentOffHundredths: 1000 },
  }
  const paid = (amount_cents: number) => ({ amount_cents }) as never

  test('two lines, 10% off spread by gross, tax on each net rounded half to even', () => {
    const priced = priceSale({ lines: [sold(1000, 2, 825), sold(500, 1, 0)], discounts: [tenPercent] })
    expect(priced).toEqual({
      lines: [
        { grossCents: 2000, discountCents: 200, netCents: 1800, taxCents: 148 },
        { grossCents: 500, discountCents: 50, netCents: 450, taxCents: 0 },
      ],
      discountCents: [250],
      discountTotalCents: 250,
      taxTotalCents: 148,
      totalCents: 2398,
    })
  })

  const cases: Array<
    [name: string, lines: SaleLine[], payments: number[], refusal: SaleRefusal | undefined]
  > = [
    ['paid exactly', [sold(1000, 2, 825), sold(500, 1, 0)], [2665], undefined],
    [
      'paid a cent more than the total',
      [sold(1000, 1, 0)],
      [600, 401],
      { at: 'sale', field: 'payments', reason: says(saleMessages.overpaid(1001, 1000)) },
    ],
    [
      'lines above what a payment can hold',
      [sold(5_000_000_000, 2, 0)],
      [],
      {
        at: 'sale',
        field: 'line_items',
        reason: says(paymentAmountMessages.linesAbovePayment(10_000_000_000)),
      },
    ],
    [
      'a total above what a payment can hold, only with its tax',
      [sold(9_999_999_999, 1, 100)],
      [],
      {
        at: 'sale',
        field: 'non_field_errors',
        reason: says(paymentAmountMessages.totalAbovePayment(10_099_999_999)),
      },
    ],
  ]
  test.each(cases)('%s', (_, lines, payments, refusal) => {
    expect(checkSaleTotals({ lines, discounts: [], payments: payments.map(paid) })).toEqual(refusal)
  })
})
