import { DateTime } from 'luxon'

/** The calendar day (YYYY-MM-DD) that `instant` falls on in `zone`. */
export const localDate = (instant: Date, zone: string): string =>
  DateTime.fromJSDate(instant, { zone }).toISODate()!

/** The first instant of `date` (YYYY-MM-DD) in `zone`, as a UTC ISO string. */
export const startOfLocalDay = (date: string, zone: string): string =>
  DateTime.fromISO(date, { zone }).startOf('day').toUTC().toISO()!

/** The first instant after `date` ends in `zone` (exclusive upper bound for "through the whole day"). */
export const endOfLocalDay = (date: string, zone: string): string =>
  DateTime.fromISO(date, { zone }).plus({ days: 1 }).startOf('day').toUTC().toISO()!

/**
 * Whether something usable "through the end of `expiryDate`" (credits, vouchers, passes,
 * documents) has expired at `now`, judged in `zone`. A null date never expires.
 */
export const isExpired = (expiryDate: string | null, zone: string, now: Date): boolean =>
  expiryDate !== null && localDate(now, zone) > expiryDate

/**
 * The wall-clock time of `instant` in `zone`, to the second and without an offset, e.g.
 * "2026-11-22T08:04:05" (the check-in record's local times). Seconds are truncated, so the text is
 * the same second as the instant's UTC form.
 */
export const localDateTime = (instant: Date, zone: string): string =>
  DateTime.fromJSDate(instant, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ss")
