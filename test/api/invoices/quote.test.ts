import { beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { doesNotExist, invalidChoice, required } from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeCredit } from '../../helpers/customer-record-factories.ts'
import { countRows, makeEventType } from '../../helpers/factories.ts'
import {
  makeAddOn,
  makeCustomerMembership,
  makeDiscount,
  makeEntryPassType,
  makeMembershipType,
  makeTaxRate,
  makeVoucherPack,
} from '../../helpers/product-factories.ts'
import { expectEachForbidden, testEachNeedsToken, useSeededApp, useStaff } from '../../helpers/seeded.ts'
import type { Customer, Database } from '../../../src/db/schema.ts'

/*
 * POST /api/invoices/quote/: a sale priced by the code that posts it, recorded nowhere. The
 * organization is in Denver; START is Sunday 2026-11-22 08:04:05 there.
 */

const t = useSeededApp()
const staff = useStaff(t, 'members', 'allButMembers')

const QUOTE = '/api/invoices/quote/'

let customer: Customer
let ids: Record<string, number>
beforeEach(async () => {
  customer = await makeCustomer(t.db)
  const colorado = await makeTaxRate(t.db)
  const retail = await makeTaxRate(t.db, { name: 'Retail', rate_basis_points: 500 })
  const punchCard = await makeEntryPassType(t.db, { tax_rate_id: colorado.id, revenue_account_code: '4100' })
  const dayPass = await makeEntryPassType(t.db, { name: 'Day Pass', price_cents: 8900 })
  const monthly = await makeMembershipType(t.db, { tax_rate_id: colorado.id, revenue_account_code: '4000' })
  const yoga = await makeEventType(t.db)
  const pack = await makeVoucherPack(t.db, { event_type_id: yoga.id, tax_rate_id: retail.id })
  await makeDiscount(t.db)
  await makeDiscount(t.db, {
    code: 'FIVE',
    name: 'Five off',
    percent_off_hundredths: null,
    amount_off_cents: 500,
  })
  await makeAddOn(t.db, { id: 'towel', name: 'Towel service' })
  const renewable = await makeCustomerMembership(t.db, {
    membership_type_id: monthly.id,
    owner_id: customer.id,
    start_date: '2026-01-22',
    end_date: '2026-11-22',
    billing_amount_cents: 5850,
    members: [{ customer_id: customer.id, add_ons: ['towel'] }],
  })
  const credit = await makeCredit(t.db, customer.id)
  ids = {
    colorado: colorado.id,
    retail: retail.id,
    punchCard: punchCard.id,
    dayPass: dayPass.id,
    monthly: monthly.id,
    pack: pack.id,
    renewable: renewable.id,
    credit: credit.id,
  }
})

const quote = (body: unknown, token = staff.members.token, headers?: Record<string, string>) =>
  t.request('POST', QUOTE, { token, body, headers })
const post = (body: unknown) => t.request('POST', '/api/invoices/', { token: staff.members.token, body })

/** Every table's row count and every AUTOINCREMENT sequence, to show a quote wrote nothing. */
async function everything(): Promise<Record<string, unknown>> {
  const tables = await t.db.introspection.getTables()
  const counts: Record<string, unknown> = {}
  for (const table of tables) counts[table.name] = await countRows(t.db, table.name as keyof Database)
  const sequences = await sql<{ name: string; seq: number }>`select name, seq from sqlite_sequence`.execute(
    t.db,
  )
  counts.sqlite_sequence = sequences.rows
  return counts
}

/** What a quote and the invoice it foretells share: totals, discounts and each line's money. */
const money = (body: Record<string, any>) => ({
  customer_id: body.customer_id,
  location_id: body.location_id,
  description: body.description,
  subtotal: body.subtotal,
  discount_total: body.discount_total,
  tax_total: body.tax_total,
  total: body.total,
  amount_paid: body.amount_paid,
  balance_due: body.balance_due,
  discounts: body.discounts,
  line_items: body.line_items.map((line: Record<string, unknown>) => ({
    purchase_type: line.purchase_type,
    description: line.description,
    quantity: line.quantity,
    unit_price: line.unit_price,
    discount_amount: line.discount_amount,
    net_amount: line.net_amount,
    tax_rate_id: line.tax_rate_id,
    tax_rate: line.tax_rate,
    tax_amount: line.tax_amount,
    total: line.total,
    revenue_account_code: line.revenue_account_code,
  })),
  payments: body.payments.map((payment: Record<string, unknown>) => ({
    status: payment.status,
    payment_type: payment.payment_type,
    payment_method_type: payment.payment_method_type,
    amount: payment.amount,
    credit_id: payment.credit_id,
    voucher_id: payment.voucher_id,
  })),
})

describe('POST /api/invoices/quote/ 401, 403', () => {
  testEachNeedsToken(t, [['POST', QUOTE]], {})

  test('quoting needs can_manage_members, as selling does', async () => {
    await expectEachForbidden(t, [t.seed.staffToken, staff.allButMembers.token], [['POST', QUOTE, {}]])
  })
})

describe('POST /api/invoices/quote/ 400: the refusals the sale would get', () => {
  const refusedBodies: Array<[string, () => unknown, unknown]> = [
    ['an empty body', () => ({}), { line_items: required }],
    [
      'each failing line and payment at its index',
      () => ({
        customer_id: 99,
        discount_codes: ['NOPE'],
        line_items: [
          { purchase_type: 'EPA', entry_pass_id: 99 },
          { purchase_type: 'GEN', description: 'Tape' },
          { purchase_type: 'XYZ' },
        ],
        payments: [{ payment_type: 'OFF', amount: '1.00' }, { payment_type: 'CRE' }],
      }),
      {
        customer_id: doesNotExist(99),
        discount_codes: ['No active discount has the code "NOPE".'],
        line_items: [
          { entry_pass_id: doesNotExist(99) },
          { unit_price: required },
          { purchase_type: invalidChoice('XYZ') },
        ],
        payments: [{}, { amount: required, credit_id: required }],
      },
    ],
    [
      'a pass sold to nobody, in plain words',
      () => ({ line_items: [{ purchase_type: 'EPA', entry_pass_id: ids.dayPass }] }),
      {
        customer_id: [
          'Choose a customer: memberships, entry passes, bookings and vouchers are sold to someone.',
        ],
      },
    ],
    [
      'payments above the discounted total',
      () => ({
        customer_id: customer.id,
        discount_codes: ['SPRING10'],
        line_items: [{ purchase_type: 'EPA', entry_pass_id: ids.dayPass }],
        payments: [
          { payment_type: 'OFF', payment_method_type: 'CRD', amount: '50.00' },
          { payment_type: 'OFF', amount: '39.00' },
        ],
      }),
      { payments: ['The payments (89.00) come to more than the invoice total (80.10).'] },
    ],
  ]
  for (const [name, body, expected] of refusedBodies) {
    test(name, async () => {
      const quoted = await quote(body())
      expect(quoted.status).toBe(400)
      expect(quoted.body).toEqual(expected)
      const posted = await post(body())
      expect(posted.status).toBe(400)
      expect(posted.body).toEqual(quoted.body)
    })
  }
})

describe('POST /api/invoices/quote/ 200', () => {
  test('a day pass with 10% off, paid in two: the whole quote, and what is left to pay', async () => {
    const res = await quote({
      customer_id: customer.id,
      discount_codes: ['spring10'],
      line_items: [{ purchase_type: 'EPA', entry_pass_id: ids.dayPass }],
      payments: [{ payment_type: 'OFF', payment_method_type: 'CRD', amount: '50.00' }],
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      customer_id: customer.id,
      location_id: 1,
      description: '',
      subtotal: '89.00',
      discount_total: '8.90',
      tax_total: '0.00',
      total: '80.10',
      amount_paid: '50.00',
      balance_due: '30.10',
      payments_total: '50.00',
      left_to_pay: '30.10',
      discounts: [
        {
          discount_id: expect.any(Number),
          code: 'SPRING10',
          name: '',
          display_name: '',
          association_id: null,
          amount: '8.90',
        },
      ],
      line_items: [
        {
          purchase_type: 'EPA',
          description: 'Day Pass',
          quantity: 1,
          unit_price: '89.00',
          gross_amount: '89.00',
          discount_amount: '8.90',
          net_amount: '80.10',
          tax_rate_id: null,
          tax_rate: '0.0000',
          tax_amount: '0.00',
          total: '80.10',
          revenue_account_code: '',
        },
      ],
      payments: [
        {
          status: 'COM',
          payment_type: 'OFF',
          payment_method_type: 'CRD',
          amount: '50.00',
          credit_id: null,
          voucher_id: null,
        },
      ],
    })
  })

  test('a payment still at the terminal is due on the invoice but not left to pay', async () => {
    const res = await quote({
      customer_id: customer.id,
      line_items: [{ purchase_type: 'GEN', description: 'Chalk', unit_price: '10.00' }],
      payments: [{ payment_type: 'OFF', payment_method_type: 'CRD', amount: '4.00', status: 'PRO' }],
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      total: '10.00',
      amount_paid: '0.00',
      balance_due: '10.00',
      payments_total: '4.00',
      left_to_pay: '6.00',
    })
  })

  test('writes nothing: no invoice, no credit drawn on, no renewal, no key, no sequence number', async () => {
    const before = await everything()
    const res = await quote(
      {
        customer_id: customer.id,
        discount_codes: ['SPRING10', 'FIVE'],
        line_items: [
          { purchase_type: 'EPA', entry_pass_id: ids.punchCard, quantity: 2 },
          { purchase_type: 'MIN', membership_id: ids.monthly, start_date: '2026-11-22' },
          { purchase_type: 'MRE', customer_membership_id: ids.renewable },
          { purchase_type: 'VPO', voucher_pack_id: ids.pack },
          { purchase_type: 'GIF', gift: { entry_pass_id: ids.dayPass } },
        ],
        payments: [{ payment_type: 'CRE', credit_id: ids.credit, amount: '25.00' }],
      },
      staff.members.token,
      { 'idempotency-key': 'quote-1' },
    )
    expect(res.status).toBe(200)
    expect(await everything()).toEqual(before)
    // The same key posts the sale afterwards: the quote kept no record of it.
    const posted = await t.request('POST', '/api/invoices/', {
      token: staff.members.token,
      body: {
        customer_id: customer.id,
        line_items: [{ purchase_type: 'GEN', description: 'x', unit_price: 1 }],
      },
      headers: { 'idempotency-key': 'quote-1' },
    })
    expect(posted.status).toBe(201)
    expect(posted.headers.get('idempotent-replayed')).toBeNull()
  })

  const cases: Array<[string, () => unknown]> = [
    [
      'two discounts over taxed and untaxed lines',
      () => ({
        customer_id: customer.id,
        description: 'Front desk',
        discount_codes: ['spring10', 'FIVE'],
        line_items: [
          { purchase_type: 'EPA', entry_pass_id: ids.punchCard, quantity: 2 },
          { purchase_type: 'GEN', description: 'Chalk bag', unit_price: '12.00', tax_rate_id: ids.retail },
          { purchase_type: 'GEN', description: 'Guide book', unit_price: 8 },
        ],
        payments: [{ payment_type: 'OFF', payment_method_type: 'CRD', amount: '100.00' }],
      }),
    ],
    [
      'a membership and a voucher pack, with a price of its own and a credit',
      () => ({
        customer_id: customer.id,
        discount_codes: ['FIVE'],
        line_items: [
          { purchase_type: 'MIN', membership_id: ids.monthly, start_date: '2026-11-22', unit_price: '33.33' },
          { purchase_type: 'VPO', voucher_pack_id: ids.pack },
        ],
        payments: [
          { payment_type: 'CRE', credit_id: ids.credit, amount: '25.00' },
          { payment_type: 'OFF', payment_method_type: 'NA', amount: '10.00' },
        ],
      }),
    ],
    [
      'a renewal of a membership with an add-on, and a gift, 10% off, paid in part at the terminal',
      () => ({
        customer_id: customer.id,
        discount_codes: ['SPRING10'],
        line_items: [
          { purchase_type: 'MRE', customer_membership_id: ids.renewable },
          { purchase_type: 'GIF', gift: { entry_pass_id: ids.punchCard }, tax_rate_id: ids.colorado },
          {
            purchase_type: 'GEN',
            description: 'Tape',
            unit_price: '3.35',
            quantity: 3,
            tax_rate_id: ids.retail,
          },
        ],
        payments: [{ payment_type: 'OFF', payment_method_type: 'CRD', amount: '20.00', status: 'PRO' }],
      }),
    ],
    [
      'an anonymous retail sale with no payments',
      () => ({
        discount_codes: ['SPRING10'],
        line_items: [
          {
            purchase_type: 'GEN',
            description: 'Chalk',
            unit_price: '0.05',
            quantity: 7,
            tax_rate_id: ids.colorado,
          },
          { purchase_type: 'GEN', description: 'Brush', unit_price: '4.99', tax_rate_id: ids.retail },
        ],
      }),
    ],
  ]
  for (const [name, body] of cases) {
    test(`the quote is the invoice posted for the same body: ${name}`, async () => {
      const quoted = await quote(body())
      expect(quoted.status).toBe(200)
      const posted = await post(body())
      expect(posted.status).toBe(201)
      expect(money(quoted.body)).toEqual(money(posted.body))
      const given = quoted.body.payments.reduce(
        (sum: number, p: { amount: string }) => sum + Number(p.amount),
        0,
      )
      expect(quoted.body.payments_total).toBe(given.toFixed(2))
      expect(Number(quoted.body.left_to_pay)).toBeCloseTo(Number(posted.body.total) - given, 2)
    })
  }
})
