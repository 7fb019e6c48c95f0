import { beforeEach, describe, expect, test } from 'bun:test'
import { ORIGIN } from '../../helpers/app.ts'
import { emptyPage, forbidden, methodNotAllowed, notFound, onePage } from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeToken, makeUser } from '../../helpers/factories.ts'
import { makeInvoice, makePayment } from '../../helpers/sales-factories.ts'
import { expectAnswer, expectUnauthenticated, useSeededApp } from '../../helpers/seeded.ts'

// GET /api/payments/ and /api/payments/<id>/: the record and who may read it. Filters:
// payments-filters.test.ts.

const t = useSeededApp()
let reports: string
beforeEach(async () => {
  reports = await makeToken(t.db, await makeUser(t.db, { can_access_reports: 1 }))
})

describe('the payment record', () => {
  test('a partial payment carries its share of the tax and of each line; the discounts are the invoice’s', async () => {
    const customer = await makeCustomer(t.db, { email: 'lynn@example.com', birthday: '1961-01-03' })
    const clerk = await makeUser(t.db, {
      first_name: 'Alex',
      last_name: 'Honnold',
      email: 'alex@gym.example',
    })
    // 10.83 taxed at 8.25% on a day pass and 5.00 untaxed chalk, after 2.00 and 1.00 off: 15.83.
    const invoice = await makeInvoice(t.db, {
      gym_id: t.seed.gym.id,
      customer_id: customer.id,
      staff_user_id: clerk.id,
      description: 'Day pass and chalk',
      lines: [
        {
          purchase_type: 'EPA',
          description: 'Day pass',
          net_cents: 1000,
          tax_cents: 83,
          revenue_account_code: '4000',
        },
        { purchase_type: 'GEN', description: 'Chalk', net_cents: 500, revenue_account_code: '4100' },
      ],
      discounts: [
        { code: 'SPRING', name: 'Spring sale', association_id: 7, amount_cents: 200 },
        { code: 'VIP', name: 'Regulars', display_name: 'Very Important', amount_cents: 100 },
      ],
    })
    // 03:00 UTC on the 22nd is still the 21st in Denver.
    const payment = await makePayment(t.db, {
      invoice_id: invoice.id,
      amount_cents: 1000,
      amount_refunded_cents: 250,
      status: 'PRF',
      payment_type: 'STR',
      payment_method_type: 'CRD',
      credit_card_last4: '4242',
      credit_card_brand: 'visa',
      processor_a_payment_intent_id: 'pi_1',
      at: '2026-11-22T03:00:00.000Z',
    })

    const res = await t.request('GET', `/api/payments/${payment.id}/`, { token: reports })

    expectAnswer({}, res, 200, {
      id: payment.id,
      url: `${ORIGIN}/api/payments/${payment.id}/`,
      status: 'PRF',
      failure_message: '',
      amount: '10.00',
      // 83 x 1000 / 1583 = 52.43 cents
      amount_pre_tax: '9.48',
      tax_amount: '0.52',
      amount_refunded: '2.50',
      payment_type: 'STR',
      payment_method_type: 'CRD',
      credit_card_last4: '4242',
      credit_card_brand: 'visa',
      bank_account_last4: '',
      bank_account_bank_name: '',
      created_date: '2026-11-21',
      invoice_id: invoice.id,
      invoice_description: 'Day pass and chalk',
      line_items: [
        {
          id: invoice.line_ids[0],
          purchase_type: 'EPA',
          description: 'Day pass',
          amount: (1083 * 1000) / 1583 / 100,
        },
        {
          id: invoice.line_ids[1],
          purchase_type: 'GEN',
          description: 'Chalk',
          amount: (500 * 1000) / 1583 / 100,
        },
      ],
      customer_id: customer.id,
      customer_first_name: 'Lynn',
      customer_last_name: 'Hill',
      customer_email: 'lynn@example.com',
      customer_birthday: '1961-01-03',
      discount_amount: '3.00',
      discount_code: 'SPRING,VIP',
      discount_name: 'Spring sale,Regulars',
      // SPRING has no display name: its code stands in.
      discount_display_name: 'SPRING,Very Important',
      revenue_account_codes: { '4000': 1083 / 1583, '4100': 500 / 1583 },
      location_id: t.seed.gym.id,
      location_name: 'Boulder Barn Downtown',
      staff_user_id: clerk.id,
      staff_user_first_name: 'Alex',
      staff_user_last_name: 'Honnold',
      staff_user_email: 'alex@gym.example',
      processor_a_payment_intent_id: 'pi_1',
      processor_b_external_transaction_id: '',
      processor_b_unique_transaction_id: '',
      processor_c_payment_link_name: '',
      processor_c_payment_link_id: '',
      processor_c_payment_id: '',
      gift_card_number: '',
      created_at: '2026-11-22T03:00:00.000Z',
      updated_at: '2026-11-22T03:00:00.000Z',
    })
  })

  test('a payment of the whole invoice carries its tax and lines in full; an anonymous sale without a discount has nulls', async () => {
    const invoice = await makeInvoice(t.db, {
      gym_id: t.seed.gym.id,
      lines: [
        { net_cents: 1000, tax_cents: 83, revenue_account_code: '4000' },
        { net_cents: 417, revenue_account_code: '4000' },
      ],
    })
    const payment = await makePayment(t.db, { invoice_id: invoice.id, amount_cents: 1500 })

    const { body } = await t.request('GET', `/api/payments/${payment.id}/`, { token: reports })

    expect(body).toMatchObject({
      amount: '15.00',
      amount_pre_tax: '14.17',
      tax_amount: '0.83',
      line_items: [
        { id: invoice.line_ids[0], purchase_type: 'GEN', description: 'Chalk', amount: 10.83 },
        { id: invoice.line_ids[1], purchase_type: 'GEN', description: 'Chalk', amount: 4.17 },
      ],
      customer_id: null,
      customer_first_name: null,
      customer_last_name: null,
      customer_email: null,
      customer_birthday: null,
      discount_amount: null,
      discount_code: '',
      discount_name: '',
      discount_display_name: '',
      revenue_account_codes: { '4000': 1 },
      staff_user_id: null,
      staff_user_first_name: null,
    })
  })

  test('a voucher redemption on a free invoice is 0.00 with no tax, and its codes share the invoice equally', async () => {
    const invoice = await makeInvoice(t.db, {
      gym_id: t.seed.gym.id,
      lines: [
        { net_cents: 0, revenue_account_code: '4000' },
        { net_cents: 0, revenue_account_code: '4200' },
      ],
    })
    const payment = await makePayment(t.db, { invoice_id: invoice.id, amount_cents: 0, payment_type: 'VOU' })

    const { body } = await t.request('GET', `/api/payments/${payment.id}/`, { token: reports })

    expect(body).toMatchObject({
      amount: '0.00',
      amount_pre_tax: '0.00',
      tax_amount: '0.00',
      line_items: [{ amount: 0 }, { amount: 0 }],
      revenue_account_codes: { '4000': 0.5, '4200': 0.5 },
    })
  })

  test('lines without a revenue account code are left out of revenue_account_codes; the coded lines still add up to 1', async () => {
    const mixed = await makeInvoice(t.db, {
      gym_id: t.seed.gym.id,
      lines: [
        { net_cents: 1000, tax_cents: 83, revenue_account_code: '4000' },
        { net_cents: 500, revenue_account_code: '' },
        { net_cents: 250, revenue_account_code: '4100' },
      ],
    })
    const uncoded = await makeInvoice(t.db, {
      gym_id: t.seed.gym.id,
      lines: [{ net_cents: 500, revenue_account_code: '' }],
    })
    const ofMixed = await makePayment(t.db, { invoice_id: mixed.id, amount_cents: 1833 })
    const ofUncoded = await makePayment(t.db, { invoice_id: uncoded.id, amount_cents: 500 })

    const codes = async (id: number) =>
      (await t.request('GET', `/api/payments/${id}/`, { token: reports })).body.revenue_account_codes
    expect(await codes(ofMixed.id)).toEqual({ '4000': 1083 / 1333, '4100': 250 / 1333 })
    expect(await codes(ofUncoded.id)).toEqual({})
  })

  test('the list is newest first, then the higher id; pending and cancelled payments are neither listed nor found', async () => {
    const invoice = await makeInvoice(t.db, { gym_id: t.seed.gym.id })
    const at = (time: string) => `2026-11-20T${time}.000Z`
    const older = await makePayment(t.db, { invoice_id: invoice.id, status: 'FAI', at: at('10:00:00') })
    const first = await makePayment(t.db, { invoice_id: invoice.id, status: 'COM', at: at('11:00:00') })
    const second = await makePayment(t.db, { invoice_id: invoice.id, status: 'REF', at: at('11:00:00') })
    const newest = await makePayment(t.db, { invoice_id: invoice.id, status: 'PRO', at: at('12:00:00') })
    const pending = await makePayment(t.db, { invoice_id: invoice.id, status: 'PEN', at: at('13:00:00') })
    const cancelled = await makePayment(t.db, { invoice_id: invoice.id, status: 'CAN', at: at('13:00:00') })

    const res = await t.request('GET', '/api/payments/', { token: reports })

    expect(res.status).toBe(200)
    expect(res.body.count).toBe(4)
    expect(res.body.results.map((row: { id: number }) => row.id)).toEqual([
      newest.id,
      second.id,
      first.id,
      older.id,
    ])
    for (const hidden of [pending, cancelled]) {
      const one = await t.request('GET', `/api/payments/${hidden.id}/`, { token: reports })
      expectAnswer({ status: hidden.status }, one, 404, notFound)
    }
  })
})

describe('who may read payments', () => {
  test('without a token both paths are 401', async () => {
    expectUnauthenticated(await t.request('GET', '/api/payments/'))
    expectUnauthenticated(await t.request('GET', '/api/payments/1/'))
  })

  test('a staff user without can_access_reports is 403, even with a bad filter; an admin is not', async () => {
    const others = await makeToken(
      t.db,
      await makeUser(t.db, { can_manage_members: 1, can_manage_events: 1 }),
    )
    for (const path of ['/api/payments/', '/api/payments/1/', '/api/payments/?amount_min=x'])
      for (const token of [t.seed.staffToken, others])
        expectAnswer({ path }, await t.request('GET', path, { token }), 403, forbidden)
    expectAnswer({}, await t.request('GET', '/api/payments/', { token: t.seed.adminToken }), 200, emptyPage)
  })

  test('with can_access_reports: the list, 404 for no such payment, 400 for a bad filter', async () => {
    const invoice = await makeInvoice(t.db, { gym_id: t.seed.gym.id })
    const payment = await makePayment(t.db, { invoice_id: invoice.id })
    const list = await t.request('GET', '/api/payments/', { token: reports })
    expect(list.body).toEqual(
      onePage([(await t.request('GET', `/api/payments/${payment.id}/`, { token: reports })).body]),
    )
    expectAnswer({}, await t.request('GET', '/api/payments/999/', { token: reports }), 404, notFound)
    expectAnswer({}, await t.request('GET', '/api/payments/?amount_min=x', { token: reports }), 400, {
      amount_min: ['Enter a number.'],
    })
  })

  test('payments are read-only: writes are 405', async () => {
    for (const [method, path] of [
      ['POST', '/api/payments/'],
      ['PUT', '/api/payments/1/'],
      ['PATCH', '/api/payments/1/'],
      ['DELETE', '/api/payments/1/'],
    ] as const) {
      const res = await t.request(method, path, { token: reports, body: {} })
      expectAnswer({ method, path }, res, 405, methodNotAllowed(method))
    }
  })
})
