import { beforeEach, describe, expect, test } from 'bun:test'
import { makeDiscount } from '../../helpers/product-factories.ts'
import { useSeededApp, useStaff } from '../../helpers/seeded.ts'

/*
 * POST /api/invoices/: a discount spread over many small lines. Each line's share is the running
 * total of the exact shares rounded half to even, less the same for the lines before it, so no
 * share is below 0.00 or above its line's gross and the shares add up to the discount exactly.
 */

const t = useSeededApp()
const staff = useStaff(t, 'members')

beforeEach(async () => {
  await makeDiscount(t.db, { code: 'MILITARY15', name: 'Military', percent_off_hundredths: 1500 })
  await makeDiscount(t.db, { code: 'THIRD', name: 'A third off', percent_off_hundredths: 3333 })
})

/** An anonymous sale of GEN lines at these prices with one discount code. */
const sell = (prices: readonly string[], code: string) =>
  t.request('POST', '/api/invoices/', {
    token: staff.members.token,
    body: {
      discount_codes: [code],
      line_items: prices.map((unit_price) => ({ purchase_type: 'GEN', description: 'Chalk', unit_price })),
    },
  })

type LineOut = { unit_price: string; discount_amount: string; net_amount: string; total: string }

/** Each line's gross, discount share and net, as the sale answered them. */
const shares = (lines: LineOut[]) =>
  lines.map((line) => [line.unit_price, line.discount_amount, line.net_amount, line.total])

const cents = (amount: string) => Math.round(Number(amount) * 100)

describe('POST /api/invoices/: a discount over many small lines', () => {
  test('15% over 0.25, 0.25, 0.25 and 0.01: no share below zero', async () => {
    // 15% of 0.76 is 0.114, to 0.11. Running exact shares: 0.11 x 25/76 = 0.0362 -> 0.04;
    // x 50/76 = 0.0724 -> 0.07; x 75/76 = 0.1086 -> 0.11; x 76/76 = 0.11. Shares: their steps.
    const res = await sell(['0.25', '0.25', '0.25', '0.01'], 'MILITARY15')
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      subtotal: '0.76',
      discount_total: '0.11',
      total: '0.65',
      discounts: [{ code: 'MILITARY15', amount: '0.11' }],
    })
    expect(shares(res.body.line_items)).toEqual([
      ['0.25', '0.04', '0.21', '0.21'],
      ['0.25', '0.03', '0.22', '0.22'],
      ['0.25', '0.04', '0.21', '0.21'],
      ['0.01', '0.00', '0.01', '0.01'],
    ])
  })

  test('15% over nine lines of 0.05: no share below zero', async () => {
    // 15% of 0.45 is 0.0675, to 0.07; the running exact share after k lines is 0.07 x k/9:
    // 0.0078, 0.0156, 0.0233, 0.0311, 0.0389, 0.0467, 0.0544, 0.0622, 0.07 -> 1, 2, 2, 3, 4, 5,
    // 5, 6, 7 cents.
    const res = await sell(Array(9).fill('0.05'), 'MILITARY15')
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ subtotal: '0.45', discount_total: '0.07', total: '0.38' })
    expect(res.body.line_items.map((line: LineOut) => line.discount_amount)).toEqual([
      '0.01',
      '0.01',
      '0.00',
      '0.01',
      '0.01',
      '0.01',
      '0.00',
      '0.01',
      '0.01',
    ])
  })

  test('33.33% over 2,000 lines of 0.05: each share within a cent of exact, adding up', async () => {
    // 33.33% of 100.00 is 33.33; each line's exact share is 0.016665, so every share is 0.01 or
    // 0.02, and 2,000 shares adding up to 33.33 are 1,333 of 0.02 and 667 of 0.01.
    const res = await sell(Array(2000).fill('0.05'), 'THIRD')
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ subtotal: '100.00', discount_total: '33.33', total: '66.67' })
    const discounts: string[] = res.body.line_items.map((line: LineOut) => line.discount_amount)
    expect(discounts.filter((amount) => amount === '0.02')).toHaveLength(1333)
    expect(discounts.filter((amount) => amount === '0.01')).toHaveLength(667)
    // The running exact share after 1, 2 and 3 lines is 0.016665, 0.03333, 0.049995: 2, 3, 5 cents.
    expect(discounts.slice(0, 3)).toEqual(['0.02', '0.01', '0.02'])
    expect(discounts.reduce((sum, amount) => sum + cents(amount), 0)).toBe(3333)
  })
})
