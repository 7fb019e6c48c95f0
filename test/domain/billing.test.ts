import { describe, expect, test } from 'bun:test'
import { billingDayOf, followingBillDate } from '../../src/domain/billing.ts'
import type { BillingInterval } from '../../src/db/schema.ts'

/* A recurring membership's bill dates (src/domain/billing.ts), one interval at a time. */

describe('followingBillDate', () => {
  const cases: Array<
    [name: string, billDate: string, interval: Exclude<BillingInterval, ''>, start: string, expected: string]
  > = [
    ['a week', '2026-11-24', 'WEE', '2026-11-24', '2026-12-01'],
    ['two weeks across the year end', '2026-12-24', 'BWK', '2026-12-24', '2027-01-07'],
    ['four weeks', '2026-11-24', 'FWK', '2026-11-24', '2026-12-22'],
    ['a month', '2026-11-24', 'MON', '2026-11-24', '2026-12-24'],
    ['a quarter', '2026-11-24', 'QUA', '2026-11-24', '2027-02-24'],
    ['half a year', '2026-11-24', 'HYR', '2026-11-24', '2027-05-24'],
    ['a year', '2026-11-24', 'YRL', '2026-11-24', '2027-11-24'],
    ['the 31st into a 28-day February', '2027-01-31', 'MON', '2027-01-31', '2027-02-28'],
    ['back to the 31st after February', '2027-02-28', 'MON', '2027-01-31', '2027-03-31'],
    ['the 31st into a 30-day month', '2027-03-31', 'MON', '2027-01-31', '2027-04-30'],
    [
      'the 30th after April keeps the 30th where its start was',
      '2027-04-30',
      'MON',
      '2027-01-30',
      '2027-05-30',
    ],
    ['a leap day a year on', '2028-02-29', 'YRL', '2028-02-29', '2029-02-28'],
    ['a year after a pulled-back leap day', '2029-02-28', 'YRL', '2028-02-29', '2030-02-28'],
    [
      'the last day of February that is the billing day stays',
      '2027-02-28',
      'MON',
      '2027-01-28',
      '2027-03-28',
    ],
    [
      'a bill date moved off the start day keeps its own day',
      '2026-11-15',
      'MON',
      '2026-01-01',
      '2026-12-15',
    ],
  ]
  for (const [name, billDate, interval, start, expected] of cases)
    test(`${name}: ${billDate} + ${interval} is ${expected}`, () =>
      expect(followingBillDate(billDate, interval, billingDayOf(start))).toBe(expected))
})
