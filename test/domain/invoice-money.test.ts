import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import {
  discountAmounts,
  divideHalfEven,
  lineTaxCents,
  priceInvoice,
  scaleHalfEven,
  spreadDiscount,
  type DiscountTerms,
} from '../../src/domain/invoice-money.ts'

/* An invoice's arithmetic (src/domain/invoice-money.ts), every cent worked out by hand beside it. */

describe('divideHalfEven', () => {
  const cases: Array<[numerator: number, denominator: number, expected: number, why: string]> = [
    [5, 2, 2, '2.5 rounds to the even 2'],
    [7, 2, 4, '3.5 rounds to the even 4'],
    [9, 4, 2, '2.25 rounds down'],
    [11, 4, 3, '2.75 rounds up'],
    [0, 3, 0, 'nothing is nothing'],
    [12, 4, 3, 'exact'],
  ]
  for (const [numerator, denominator, expected, why] of cases)
    test(`${numerator} / ${denominator} is ${expected}: ${why}`, () =>
      expect(divideHalfEven(numerator, denominator)).toBe(expected))
})

describe('discountAmounts', () => {
  const tenPercent: DiscountTerms = { percentOffHundredths: 1000 }
  const cases: Array<[name: string, gross: number, discounts: DiscountTerms[], expected: number[]]> = [
    ['none', 10000, [], []],
    // 10% of 100.00 is 10.00, leaving 90.00; then 5.00 off
    ['a percentage, then an amount', 10000, [tenPercent, { amountOffCents: 500 }], [1000, 500]],
    // 5.00 off first leaves 95.00; 10% of that is 9.50
    [
      'an amount, then a percentage of what it left',
      10000,
      [{ amountOffCents: 500 }, tenPercent],
      [500, 950],
    ],
    ['an amount larger than the invoice takes it to zero', 300, [{ amountOffCents: 500 }], [300]],
    ['a second discount finds nothing left', 300, [{ amountOffCents: 500 }, tenPercent], [300, 0]],
    // 10% of 10.05 is 1.005: half a cent, to the even 1.00
    ['half a cent rounds to even (down)', 1005, [tenPercent], [100]],
    // 10% of 10.15 is 1.015: half a cent, to the even 1.02
    ['half a cent rounds to even (up)', 1015, [tenPercent], [102]],
    // 12.50% of 19.99 is 2.49875
    ['a fractional percentage', 1999, [{ percentOffHundredths: 1250 }], [250]],
  ]
  for (const [name, gross, discounts, expected] of cases)
    test(name, () => expect(discountAmounts(gross, discounts)).toEqual(expected))
})

describe('scaleHalfEven', () => {
  const cases: Array<[value: number, factor: number, denominator: number, expected: number, why: string]> = [
    [11, 25, 76, 4, '3.618 rounds up'],
    [3, 1, 6, 0, '0.5 rounds to the even 0'],
    [3, 3, 6, 2, '1.5 rounds to the even 2'],
    [7, 9, 9, 7, 'exact'],
    // 3189953623187 x 3063212783504 is about 9.8e24, far past a double's whole units: divided in
    // doubles it comes to 2700976005534, but the rest is 1808912633692 of 3617768798134, over half.
    [3189953623187, 3063212783504, 3617768798134, 2700976005535, 'a product past 2^53, exactly'],
  ]
  for (const [value, factor, denominator, expected, why] of cases)
    test(`${value} x ${factor} / ${denominator} is ${expected}: ${why}`, () =>
      expect(scaleHalfEven(value, factor, denominator)).toBe(expected))
})

describe('spreadDiscount', () => {
  // Each line's share is the running exact share rounded, less the same for the lines before it.
  const cases: Array<[name: string, gross: number[], total: number, expected: number[]]> = [
    ['no discount', [1000, 500], 0, [0, 0]],
    ['one line takes it all', [1000], 250, [250]],
    // 10.00 over 60.00, 30.00, 10.00: exactly 6.00, 3.00 and 1.00
    ['in proportion to gross', [6000, 3000, 1000], 1000, [600, 300, 100]],
    // 1.00 over three equal lines: running 0.3333 -> 0.33, 0.6667 -> 0.67, 1.00
    ['each share within a cent of exact', [1000, 1000, 1000], 100, [33, 34, 33]],
    // 0.05 over 15.00 and 5.00: running 0.0375 -> 0.04, then 0.05; the last takes the 0.01 left
    ['the last line takes the remainder', [1500, 500], 5, [4, 1]],
    // 0.02 over 3.00 and 1.00: running 0.015 is half a cent, to the even 0.02; the last takes nothing
    ['half a cent rounds to even', [300, 100], 2, [2, 0]],
    // 0.02 over four 0.01 lines: running 0.005 -> 0.00, 0.01, 0.015 -> 0.02, 0.02
    ['halves alternate down and up', [1, 1, 1, 1], 2, [0, 1, 1, 0]],
    // 0.03 over 0.01 x4 and 0.02: running 0.005 -> 0, 0.01, 0.015 -> 0.02, 0.02, 0.03
    ['the last line never takes more than its gross', [1, 1, 1, 1, 2], 3, [0, 1, 1, 0, 1]],
    // MILITARY15 on 0.25, 0.25, 0.25, 0.01 takes 0.11: running 0.0362 -> 0.04, 0.0724 -> 0.07,
    // 0.1086 -> 0.11, 0.11. Rounding each share alone gave 0.04 three times and the last -0.01.
    ['a discount of four small lines leaves none below zero', [25, 25, 25, 1], 11, [4, 3, 4, 0]],
    // 0.07 over nine 0.05 lines: running 0.07 x k/9 -> 1, 2, 2, 3, 4, 5, 5, 6, 7 cents. Rounding each
    // 0.0078 alone gave 0.01 eight times and the last -0.01.
    [
      'a discount of nine equal lines leaves none below zero',
      Array(9).fill(5),
      7,
      [1, 1, 0, 1, 1, 1, 0, 1, 1],
    ],
    ['a discount of the whole gross takes each line whole', [25, 1, 50], 76, [25, 1, 50]],
    ['a free line takes no share', [2000, 0, 1000], 300, [200, 0, 100]],
    ['nothing to spread over', [0, 0], 0, [0, 0]],
    ['no lines', [], 0, []],
  ]
  for (const [name, gross, total, expected] of cases)
    test(name, () => {
      const shares = spreadDiscount(gross, total)
      expect(shares).toEqual(expected)
      expect(shares.reduce((sum, share) => sum + share, 0)).toBe(total)
    })

  /** Lines' gross in cents, and a discount of at most their sum, as discountAmounts leaves one. */
  const spread = (maxGross: number) =>
    fc
      .array(fc.integer({ min: 0, max: maxGross }), { minLength: 1, maxLength: 60 })
      .chain((gross) =>
        fc.tuple(fc.constant(gross), fc.integer({ min: 0, max: gross.reduce((sum, g) => sum + g, 0) })),
      )

  const holdsEveryPromise = ([gross, total]: [number[], number]) => {
    const shares = spreadDiscount(gross, total)
    const grossTotal = gross.reduce((sum, g) => sum + g, 0)
    expect(shares).toHaveLength(gross.length)
    shares.forEach((share, i) => {
      expect(Number.isInteger(share)).toBe(true)
      expect(share).toBeGreaterThanOrEqual(0)
      expect(share).toBeLessThanOrEqual(gross[i]!)
      // At most a cent from exact: |share x grossTotal - total x gross| <= grossTotal
      const off = BigInt(share) * BigInt(grossTotal) - BigInt(total) * BigInt(gross[i]!)
      expect(off <= BigInt(grossTotal) && -off <= BigInt(grossTotal)).toBe(true)
    })
    expect(shares.reduce((sum, share) => sum + share, 0)).toBe(total)
  }

  test('any lines and discount: every share in [0, its gross], adding up exactly', () =>
    fc.assert(fc.property(spread(2_000), holdsEveryPromise), { numRuns: 2000 }))

  test('lines as dear as a line can be: the same, with products past 2^53', () =>
    fc.assert(fc.property(spread(99_999_999_999_000), holdsEveryPromise), { numRuns: 500 }))
})

describe('lineTaxCents', () => {
  const cases: Array<[net: number, basisPoints: number, expected: number, why: string]> = [
    [1234, 825, 102, '12.34 at 8.25% is 1.01805'],
    [1000, 825, 82, '10.00 at 8.25% is 0.825: half a cent, to the even 0.82'],
    [1020, 1250, 128, '10.20 at 12.5% is 1.275: half a cent, to the even 1.28'],
    [1300, 825, 107, '13.00 at 8.25% is 1.0725'],
    [5000, 0, 0, 'no tax rate'],
  ]
  for (const [net, basisPoints, expected, why] of cases)
    test(`${why}`, () => expect(lineTaxCents(net, basisPoints)).toBe(expected))
})

describe('priceInvoice', () => {
  test('a mixed invoice with two discounts and two tax rates', () => {
    // Gross: 2 x 25.00 = 50.00 at 8.25%, 12.00 at 5%, 8.00 untaxed; 70.00 in all.
    // Discounts: 10% of 70.00 = 7.00, then 3.00 off the 63.00 left: 10.00 in all.
    // Spread by gross, running: 10.00 x 50/70 = 7.142857 -> 7.14; 10.00 x 62/70 = 8.857142 ->
    // 8.86, less 7.14 is 1.72; the last line the remainder 10.00 - 8.86 = 1.14.
    // Net: 42.86, 10.28, 6.86 (60.00). Tax: 42.86 x 8.25% = 3.53595 -> 3.54; 10.28 x 5% = 0.514
    // -> 0.51; none. Total: 60.00 + 4.05 = 64.05.
    const priced = priceInvoice(
      [
        { unitPriceCents: 2500, quantity: 2, taxRateBasisPoints: 825 },
        { unitPriceCents: 1200, quantity: 1, taxRateBasisPoints: 500 },
        { unitPriceCents: 800, quantity: 1, taxRateBasisPoints: 0 },
      ],
      [{ percentOffHundredths: 1000 }, { amountOffCents: 300 }],
    )
    expect(priced).toEqual({
      lines: [
        { grossCents: 5000, discountCents: 714, netCents: 4286, taxCents: 354 },
        { grossCents: 1200, discountCents: 172, netCents: 1028, taxCents: 51 },
        { grossCents: 800, discountCents: 114, netCents: 686, taxCents: 0 },
      ],
      discountCents: [700, 300],
      discountTotalCents: 1000,
      taxTotalCents: 405,
      totalCents: 6405,
    })
  })

  test('without discounts each line is its gross plus its tax', () => {
    // 3 x 4.99 = 14.97 at 8.25% = 1.235025 -> 1.24; total 16.21
    expect(priceInvoice([{ unitPriceCents: 499, quantity: 3, taxRateBasisPoints: 825 }], [])).toEqual({
      lines: [{ grossCents: 1497, discountCents: 0, netCents: 1497, taxCents: 124 }],
      discountCents: [],
      discountTotalCents: 0,
      taxTotalCents: 124,
      totalCents: 1621,
    })
  })
})
