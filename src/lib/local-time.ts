import { DateTime } from 'luxon'
import { localDate } from './wall-clock.ts'

// The wall clock of an instant (the door's hot path) is computed without luxon, in wall-clock.ts.
export {
  localDate,
  localDateTime,
  localDateTimeWithOffset,
  localTimeOfDay,
  utcOffsetMinutes,
  utcOffsetPeriods,
  wallClock,
  type OffsetPeriod,
  type WallClock,
} from './wall-clock.ts'

/** The first instant of `date` (YYYY-MM-DD) in `zone`, as a UTC ISO string. */
export const startOfLocalDay = (date: string, zone: string): string =>
  DateTime.fromISO(date, { zone }).startOf('day').toUTC().toISO()!

/** The first instant after `date` ends in `zone` (exclusive upper bound for "through the whole day"). */
export const endOfLocalDay = (date: string, zone: string): string =>
  DateTime.fromISO(date, { zone }).plus({ days: 1 }).startOf('day').toUTC().toISO()!

/** The calendar day `days` after `date` (YYYY-MM-DD; negative: before). */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/**
 * Whether something usable "through the end of `expiryDate`" (credits, vouchers, passes,
 * documents) has expired at `now`, judged in `zone`. A null date never expires.
 */
export const isExpired = (expiryDate: string | null, zone: string, now: Date): boolean =>
  expiryDate !== null && localDate(now, zone) > expiryDate

/** Strict YYYY-MM-DD that is also a real calendar day (TypeBox's own check takes 2024-02-30). */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return false
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!))
  return d.getUTCFullYear() === +m[1]! && d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]!
}
