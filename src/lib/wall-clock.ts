/**
 * The wall clock of an instant in an IANA zone, without luxon: the door reads today's date and the
 * time of day in the gym's zone on every scan, and a luxon DateTime builds a whole object and asks
 * Intl each call, where this is arithmetic once the minute's offset is known.
 *
 * The only zone knowledge needed is the UTC offset at the instant; the calendar fields then follow
 * from plain arithmetic on (instant + offset). Offsets come from Intl (the same ICU time zone data
 * luxon reads) and are cached per zone for the last minute asked about.
 */

export interface WallClock {
  year: number
  /** 1-12 */
  month: number
  /** 1-31 */
  day: number
  /** 0 = Sunday ... 6 = Saturday (as Date#getUTCDay and WEEK_DAYS count) */
  weekday: number
  hour: number
  minute: number
  /** truncated: 08:04:05.999 reads 08:04:05 */
  second: number
  /** the zone's UTC offset at the instant, minutes east of UTC (Denver in winter: -420) */
  offsetMinutes: number
}

const MINUTE_MS = 60_000
const DAY_MS = 86_400_000

/**
 * Since this instant every zone's offset is a whole number of minutes and every change of offset
 * falls on a whole UTC minute (the last offset with seconds, Monrovia's -00:44:30, ended on
 * 1972-01-07; checked over every zone the runtime knows up to 2100), so all instants of one UTC
 * minute share one offset and caching it per minute is exact. Earlier instants (local mean times
 * such as Denver's -06:59:56 before 1883) are looked up every time, to the second.
 */
const WHOLE_MINUTE_OFFSETS_SINCE = Date.UTC(1972, 0, 8)

interface ZoneOffsets {
  /** formats "11/22/2026, GMT-07:00"; only the offset part is read */
  format: Intl.DateTimeFormat
  /** the UTC minute (ms / 60 000, floored) `offsetMs` holds for; NaN before the first look-up */
  minute: number
  offsetMs: number
}

/** Per zone: its formatter and the offset of the last minute asked about (the door asks about now). */
const zones = new Map<string, ZoneOffsets>()

function zoneOffsets(zone: string): ZoneOffsets {
  let entry = zones.get(zone)
  if (entry === undefined) {
    // Throws a RangeError for an unknown zone; stored zones are checked by isKnownTimeZone.
    const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    entry = { format, minute: NaN, offsetMs: 0 }
    zones.set(zone, entry)
  }
  return entry
}

/**
 * The offset in "GMT-07:00", "GMT+05:45", "GMT-06:59:56" or a bare "GMT", in ms: read from one
 * formatted string on a cache miss, where luxon's IANAZone.offset asks Intl for every part
 * (formatToParts).
 */
function parseOffset(text: string): number {
  const at = text.lastIndexOf('GMT') + 3
  if (at === 2) throw new RangeError(`No UTC offset in "${text}"`)
  if (at === text.length) return 0
  const signChar = text.charCodeAt(at)
  // ICU may write U+2212 MINUS SIGN rather than the ASCII hyphen.
  const sign = signChar === 0x2d || signChar === 0x2212 ? -1 : 1
  const hours = Number(text.slice(at + 1, at + 3))
  const minutes = Number(text.slice(at + 4, at + 6) || '0')
  const seconds = Number(text.slice(at + 7, at + 9) || '0')
  const offsetMs = sign * ((hours * 60 + minutes) * 60 + seconds) * 1000
  if (!Number.isFinite(offsetMs)) throw new RangeError(`Unreadable UTC offset in "${text}"`)
  return offsetMs
}

function offsetMsAt(zone: string, ms: number): number {
  const entry = zoneOffsets(zone)
  const minute = Math.floor(ms / MINUTE_MS)
  if (entry.minute === minute) return entry.offsetMs
  // Intl throws a RangeError for an invalid instant, as a date the caller could not have meant.
  const offsetMs = parseOffset(entry.format.format(ms))
  if (ms >= WHOLE_MINUTE_OFFSETS_SINCE) {
    entry.minute = minute
    entry.offsetMs = offsetMs
  }
  return offsetMs
}

/** The UTC offset of `zone` at `instant`, in minutes east of UTC (cached per zone and minute). */
export const utcOffsetMinutes = (instant: Date | number, zone: string): number =>
  offsetMsAt(zone, typeof instant === 'number' ? instant : instant.getTime()) / MINUTE_MS

/** A stretch of one UTC offset in a zone: from `startMs` until the next period's start. */
export interface OffsetPeriod {
  startMs: number
  offsetMinutes: number
}

/** Per zone and UTC year, the changes of offset in it: what a year's calendar says never changes. */
const yearChanges = new Map<string, OffsetPeriod[]>()

/**
 * The changes of `zone`'s offset during one UTC year, each from the first minute of its new offset.
 * The year is sampled day by day (no zone has changed its offset twice within a day since local mean
 * times ended) and each change is narrowed down to its minute.
 */
function offsetChangesIn(zone: string, year: number): OffsetPeriod[] {
  const key = `${zone} ${year}`
  const known = yearChanges.get(key)
  if (known !== undefined) return known
  const changes: OffsetPeriod[] = []
  const end = Date.UTC(year + 1, 0, 1) - MINUTE_MS
  let before = Date.UTC(year, 0, 1) - MINUTE_MS
  let offset = offsetMsAt(zone, before)
  while (before < end) {
    const after = Math.min(before + DAY_MS, end)
    const next = offsetMsAt(zone, after)
    if (next !== offset) {
      // The offset is `offset` at `low` and `next` at `high`: halve the gap down to one minute.
      let low = before
      let high = after
      while (high - low > MINUTE_MS) {
        const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS
        if (offsetMsAt(zone, middle) === offset) low = middle
        else high = middle
      }
      changes.push({ startMs: high, offsetMinutes: next / MINUTE_MS })
      offset = next
    }
    before = after
  }
  yearChanges.set(key, changes)
  return changes
}

/**
 * The offsets `zone` has between two instants: the one at `fromMs`, then each change up to `toMs`,
 * in order. For instants since 1972, whose offsets are whole minutes.
 */
export function utcOffsetPeriods(zone: string, fromMs: number, toMs: number): OffsetPeriod[] {
  const periods: OffsetPeriod[] = [{ startMs: fromMs, offsetMinutes: offsetMsAt(zone, fromMs) / MINUTE_MS }]
  const lastYear = new Date(toMs).getUTCFullYear()
  for (let year = new Date(fromMs).getUTCFullYear(); year <= lastYear; year++)
    for (const change of offsetChangesIn(zone, year))
      if (change.startMs > fromMs && change.startMs <= toMs) periods.push(change)
  return periods
}

/** The calendar and clock fields a person in `zone` reads at `instant`. */
export function wallClock(instant: Date | number, zone: string): WallClock {
  const ms = typeof instant === 'number' ? instant : instant.getTime()
  const offsetMs = offsetMsAt(zone, ms)
  const local = ms + offsetMs
  const days = Math.floor(local / DAY_MS)
  const msOfDay = local - days * DAY_MS
  const secondOfDay = Math.floor(msOfDay / 1000)
  // Days since 1970-01-01 to the proleptic Gregorian date (Howard Hinnant's civil_from_days).
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153)
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
  return {
    year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day: dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1,
    // 1970-01-01 was a Thursday.
    weekday: (((days + 4) % 7) + 7) % 7,
    hour: Math.floor(secondOfDay / 3600),
    minute: Math.floor(secondOfDay / 60) % 60,
    second: secondOfDay % 60,
    offsetMinutes: offsetMs / MINUTE_MS,
  }
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'))
const fourDigits = (year: number) => (year >= 1000 ? String(year) : String(year).padStart(4, '0'))

const isoDate = (w: WallClock) => `${fourDigits(w.year)}-${TWO_DIGITS[w.month]}-${TWO_DIGITS[w.day]}`
const isoTime = (w: WallClock) => `${TWO_DIGITS[w.hour]}:${TWO_DIGITS[w.minute]}:${TWO_DIGITS[w.second]}`

/** The calendar day (YYYY-MM-DD) that `instant` falls on in `zone`. */
export const localDate = (instant: Date | number, zone: string): string => isoDate(wallClock(instant, zone))

/** The wall-clock time of day (HH:MM:SS, seconds truncated) that `instant` shows in `zone`. */
export const localTimeOfDay = (instant: Date | number, zone: string): string =>
  isoTime(wallClock(instant, zone))

/**
 * The wall-clock time of `instant` in `zone`, to the second and without an offset, e.g.
 * "2026-11-22T08:04:05" (the check-in record's local times). Seconds are truncated, so the text is
 * the same second as the instant's UTC form.
 */
export function localDateTime(instant: Date | number, zone: string): string {
  const w = wallClock(instant, zone)
  return `${isoDate(w)}T${isoTime(w)}`
}

/**
 * "2026-11-22T08:15:00-07:00": the wall-clock time to the second (truncated, as localDateTime) with
 * the zone's UTC offset at that instant (the webhook's check_in_datetime). Takes a UTC ISO string
 * too, as the outbox holds the check-in's created_at.
 */
export function localDateTimeWithOffset(instant: Date | number | string, zone: string): string {
  const w = wallClock(typeof instant === 'string' ? Date.parse(instant) : instant, zone)
  const abs = Math.abs(w.offsetMinutes)
  const sign = w.offsetMinutes < 0 ? '-' : '+'
  return `${isoDate(w)}T${isoTime(w)}${sign}${TWO_DIGITS[Math.floor(abs / 60)]}:${TWO_DIGITS[Math.floor(abs % 60)]}`
}
