import { DateTime } from 'luxon'
import { localDate } from '../lib/local-time.ts'

/**
 * The last day something issued at `now` may be used when it lasts `validDays` days counting
 * today (1 = today only), in the organization's zone; null when no limit is set. Entry passes and
 * event vouchers expire so, whether issued by hand or sold.
 */
export function defaultExpiryDate(validDays: number | null, now: Date, zone: string): string | null {
  if (validDays === null) return null
  return DateTime.fromISO(localDate(now, zone))
    .plus({ days: validDays - 1 })
    .toISODate()!
}
