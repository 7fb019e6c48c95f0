import { beforeEach, describe, expect, test } from 'bun:test'
import { countRows } from '../../helpers/factories.ts'
import { makeTaxRate } from '../../helpers/product-factories.ts'
import { useSeededApp, useStaff } from '../../helpers/seeded.ts'

/*
 * POST /api/invoices/: the amounts a sale may hold. A payment's processor fee is at most its amount,
 * and a sale is refused when its lines before discounts, or its total, come to more than a payment's
 * amount can hold (99999999.99: ten digits, two after the point), since nothing could pay it.
 */

const t = useSeededApp()
const staff = useStaff(t, 'members', 'allButMembers')

let colorado: Awaited<ReturnType<typeof makeTaxRate>>
beforeEach(async () => {
  colorado = await makeTaxRate(t.db)
})

const post = (body: unknown) => t.request('POST', '/api/invoices/', { token: staff.members.token, body })

const harness = { purchase_type: 'GEN', description: 'Harness', unit_price: '40.00' }

describe('POST /api/invoices/: a payment processor fee', () => {
  test('more than its payment is refused at that payment, and nothing is recorded', async () => {
    const res = await post({
      line_items: [harness],
      payments: [
        { payment_type: 'OFF', amount: '10.00', processor_fee: '0.30' },
        { payment_type: 'STR', amount: '30.00', processor_fee: '30.01' },
      ],
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      payments: [{}, { processor_fee: ['Ensure this value is less than or equal to the amount (30.00).'] }],
    })
    expect(await countRows(t.db, 'invoices')).toBe(0)
  })

  test('of a payment of nothing must be nothing', async () => {
    const res = await post({
      line_items: [harness],
      payments: [{ payment_type: 'OFF', amount: '0', processor_fee: '0.01' }],
    })
    expect(res.body).toEqual({
      payments: [{ processor_fee: ['Ensure this value is less than or equal to the amount (0.00).'] }],
    })
  })

  test('as large as its payment is recorded', async () => {
    const res = await post({
      line_items: [harness],
      payments: [{ payment_type: 'STR', amount: '40.00', processor_fee: '40' }],
    })
    expect(res.status).toBe(201)
    expect(res.body.payments[0]).toMatchObject({ amount: '40.00', processor_fee: '40.00' })
  })
})

describe('POST /api/invoices/: a sale no payment could hold', () => {
  const dearest = { purchase_type: 'GEN', description: 'Wall', unit_price: '99999999.99' }

  test('lines coming to more than a payment can hold are refused', async () => {
    const res = await post({ line_items: [dearest, { ...harness, unit_price: '0.01' }] })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      line_items: [
        'The lines come to 100000000.00 before discounts, more than a payment can hold (99999999.99).',
      ],
    })
    expect(await countRows(t.db, 'invoices')).toBe(0)
  })

  test('so are a quantity of them', async () => {
    const res = await post({ line_items: [{ ...dearest, quantity: 1000 }] })
    expect(res.body).toEqual({
      line_items: [
        'The lines come to 99999999990.00 before discounts, more than a payment can hold (99999999.99).',
      ],
    })
  })

  test('a total that tax takes past what a payment can hold is refused', async () => {
    const taxed = (unit_price: string) =>
      post({ line_items: [{ ...dearest, unit_price, tax_rate_id: colorado.id }] })
    // 92378752.88 at 8.25% is 7621247.1126 tax, to 7621247.11: 99999999.99 in all, the most...
    expect((await taxed('92378752.88')).body).toMatchObject({ tax_total: '7621247.11', total: '99999999.99' })
    // ...and a cent more takes the same tax: 100000000.00.
    const res = await taxed('92378752.89')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      non_field_errors: ['The invoice total (100000000.00) is more than a payment can hold (99999999.99).'],
    })
    expect(await countRows(t.db, 'invoices')).toBe(1)
  })

  test('a sale of exactly what a payment can hold is recorded and paid', async () => {
    const res = await post({
      line_items: [dearest],
      payments: [{ payment_type: 'OFF', amount: '99999999.99' }],
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ total: '99999999.99', amount_paid: '99999999.99', balance_due: '0.00' })
  })
})

describe("GET /api/payments/<id>/: a dear sale's payment", () => {
  test('carries its share of the tax to the cent, however large the product', async () => {
    // 52428863.03 at 8.25% is 4325381.20 tax: 56754244.23 in all. A payment of 28377124.28 carries
    // 4325381.20 x 28377124.28 / 56754244.23 = 2162690.76500000009 of it, just over half a cent:
    // 2162690.77. Worked out in doubles the product is past whole units and it came to 2162690.76.
    const sale = await post({
      line_items: [
        { purchase_type: 'GEN', description: 'Wall', unit_price: '52428863.03', tax_rate_id: colorado.id },
      ],
      payments: [{ payment_type: 'OFF', amount: '28377124.28' }],
    })
    expect(sale.body).toMatchObject({ tax_total: '4325381.20', total: '56754244.23' })
    const res = await t.request('GET', `/api/payments/${sale.body.payments[0].id}/`, {
      token: staff.allButMembers.token,
    })
    expect(res.body).toMatchObject({
      amount: '28377124.28',
      tax_amount: '2162690.77',
      amount_pre_tax: '26214433.51',
    })
  })
})
