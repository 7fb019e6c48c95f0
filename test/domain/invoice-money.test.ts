import { describe, expect, test } from 'bun:test'
import {
  discountAmounts,
  divideHalfEven,
  lineTaxCents,
  priceInvoice,
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

describe('spreadDiscount', () => {
  const cases: Array<[name: string, gross: number[], total: number, expected: number[]]> = [
    ['no discount', [1000, 500], 0, [0, 0]],
    ['one line takes it all', [1000], 250, [250]],
    // 10.00 over 60.00, 30.00, 10.00: exactly 6.00, 3.00 and 1.00
    ['in proportion to gross', [6000, 3000, 1000], 1000, [600, 300, 100]],
    // 1.00 over three equal lines: 0.3333 each rounds to 0.33, the last takes the 0.34 left
    ['the last line takes the remainder', [1000, 1000, 1000], 100, [33, 33, 34]],
    // 0.05 over 15.00 and 5.00: 0.0375 rounds to 0.04, the last takes 0.01
    ['a share rounds up', [1500, 500], 5, [4, 1]],
    // 0.02 over 3.00 and 1.00: 0.015 is half a cent, to the even 0.02; the last takes nothing
    ['half a cent rounds to even', [300, 100], 2, [2, 0]],
    // 0.03 over 0.01 x4 and 0.02: each 0.01 line's share is 0.005, to the even 0.00, which would
    // leave 0.03 on a 0.02 line; the cent over goes back to the line before it
    ['the last line never takes more than its gross', [1, 1, 1, 1, 2], 3, [0, 0, 0, 1, 2]],
    ['a free line takes no share', [2000, 0, 1000], 300, [200, 0, 100]],
    ['nothing to spread over', [0, 0], 0, [0, 0]],
  ]
  for (const [name, gross, total, expected] of cases)
    test(name, () => {
      const shares = spreadDiscount(gross, total)
      expect(shares).toEqual(expected)
      expect(shares.reduce((sum, share) => sum + share, 0)).toBe(total)
    })
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
    // Spread by gross: 10.00 x 50/70 = 7.142857 -> 7.14; 10.00 x 12/70 = 1.714285 -> 1.71;
    // the last line the remainder 10.00 - 7.14 - 1.71 = 1.15.
    // Net: 42.86, 10.29, 6.85 (60.00). Tax: 42.86 x 8.25% = 3.53595 -> 3.54; 10.29 x 5% = 0.5145
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
        { grossCents: 1200, discountCents: 171, netCents: 1029, taxCents: 51 },
        { grossCents: 800, discountCents: 115, netCents: 685, taxCents: 0 },
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
