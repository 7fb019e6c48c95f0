import { DateTime } from 'luxon'
import type { BillingInterval } from '../db/schema.ts'

/** One billing period of each interval: whole days, or whole months. */
export const BILLING_PERIODS: Record<Exclude<BillingInterval, ''>, { days: number } | { months: number }> = {
  WEE: { days: 7 },
  BWK: { days: 14 },
  FWK: { days: 28 },
  MON: { months: 1 },
  QUA: { months: 3 },
  HYR: { months: 6 },
  YRL: { months: 12 },
}

/**
 * The bill date one `interval` after `billDate` (YYYY-MM-DD). Monthly periods keep `billingDay`,
 * the day of the month the membership bills on (its start date's): a bill date that a short month
 * pulled back to its last day returns to that day where the next month has it, so a membership
 * started on 31 January bills on 28 February and then on 31 March, not on the 28th ever after.
 */
export function followingBillDate(
  billDate: string,
  interval: Exclude<BillingInterval, ''>,
  billingDay: number,
): string {
  const date = DateTime.fromISO(billDate, { zone: 'UTC' })
  const period = BILLING_PERIODS[interval]
  if ('days' in period) return date.plus({ days: period.days }).toISODate()!
  const pulledBack = date.day === date.daysInMonth && date.day < billingDay
  const month = date.startOf('month').plus({ months: period.months })
  return month.set({ day: Math.min(pulledBack ? billingDay : date.day, month.daysInMonth!) }).toISODate()!
}

/** The day of the month a membership that started on `startDate` bills on. */
export const billingDayOf = (startDate: string): number => DateTime.fromISO(startDate, { zone: 'UTC' }).day

/**
 * The next bill date of a membership that started on `startDate` once one more period is paid:
 * one interval after `billDate`, its next bill date on record, or after its start when none is
 * (nothing has been billed since it started).
 */
export const billDateAfter = (
  startDate: string,
  billDate: string | null,
  interval: Exclude<BillingInterval, ''>,
): string => followingBillDate(billDate ?? startDate, interval, billingDayOf(startDate))
