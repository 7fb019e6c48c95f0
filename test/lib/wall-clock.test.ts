import { describe, expect, test } from 'bun:test'
import { DateTime } from 'luxon'
import {
  localDate,
  localDateTime,
  localDateTimeWithOffset,
  utcOffsetMinutes,
  utcOffsetPeriods,
  wallClock,
  type WallClock,
} from '../../src/lib/local-time.ts'

/**
 * The luxon-free wall clock against luxon, which the door used before. Luxon costs ~14 µs a call
 * here, so the year is swept every 7 minutes with each instant judged in one zone in turn (each
 * zone every 56 minutes, at every hour of every day), and the places where a mistake would hide are
 * walked minute by minute: the DST transition days, and local midnight at the turn of the year.
 * Mismatches are collected and compared with [] once, so a failure lists the first few.
 */

const ZONES = [
  'America/Denver',
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe', // DST moves the clock by 30 minutes
  'Asia/Kolkata', // +05:30
  'Pacific/Chatham', // +12:45 / +13:45
  'UTC',
  'America/Sao_Paulo', // -03:00, no DST since 2019
]

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

const luxonFields = (ms: number, zone: string): WallClock => {
  const dt = DateTime.fromMillis(ms, { zone })
  return {
    year: dt.year,
    month: dt.month,
    day: dt.day,
    weekday: dt.weekday % 7, // luxon: 1 = Monday ... 7 = Sunday
    hour: dt.hour,
    minute: dt.minute,
    second: dt.second,
    offsetMinutes: dt.offset,
  }
}

/** Compares wallClock with luxon for each (instant, zone); returns the first mismatches and a count. */
function compareFields(probes: Iterable<[number, string]>) {
  const mismatches: unknown[] = []
  let checked = 0
  for (const [ms, zone] of probes) {
    const got = wallClock(ms, zone)
    const expected = luxonFields(ms, zone)
    checked++
    if (!Bun.deepEquals(got, expected, true) && mismatches.length < 10) {
      mismatches.push({ zone, instant: new Date(ms).toISOString(), got, expected })
    }
  }
  return { mismatches, checked }
}

/** Compares the three formatters with luxon's own formatting. */
function compareTexts(probes: Iterable<[number, string]>) {
  const mismatches: unknown[] = []
  let checked = 0
  for (const [ms, zone] of probes) {
    const dt = DateTime.fromMillis(ms, { zone })
    const got = [localDate(new Date(ms), zone), localDateTime(ms, zone), localDateTimeWithOffset(ms, zone)]
    const expected = [
      dt.toISODate(),
      dt.toFormat("yyyy-MM-dd'T'HH:mm:ss"),
      dt.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ"),
    ]
    checked++
    if (got.join() !== expected.join() && mismatches.length < 10) {
      mismatches.push({ zone, instant: new Date(ms).toISOString(), got, expected })
    }
  }
  return { mismatches, checked }
}

const YEAR_START = Date.parse('2025-12-31T00:00:00.000Z')
const YEAR_END = Date.parse('2027-01-02T00:00:00.000Z')

/** Every `step` across 2026 (a day either side), zones in turn, seconds and milliseconds varying. */
function* sweep(step: number): Generator<[number, string]> {
  let k = 0
  for (let t = YEAR_START; t < YEAR_END; t += step, k++) {
    yield [t + ((k * 13) % 60) * 1000 + ((k * 337) % 1000), ZONES[k % ZONES.length]!]
  }
}

/** The first instant of each change of offset in `zone` during 2026 (from luxon). */
function transitions(zone: string): number[] {
  const offset = (ms: number) => DateTime.fromMillis(ms, { zone }).offset
  const found: number[] = []
  for (let t = YEAR_START; t < YEAR_END; t += DAY) {
    if (offset(t) === offset(t + DAY)) continue
    let [lo, hi] = [t, t + DAY]
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2)
      if (offset(mid) === offset(t)) lo = mid
      else hi = mid
    }
    found.push(hi)
  }
  return found
}

/**
 * The whole local day of each transition, minute by minute. Each minute is asked about at its
 * last millisecond first and then its first, so a cached offset is reused within the minute and
 * never carried into the next one.
 */
function* transitionDays(zone: string): Generator<[number, string]> {
  for (const at of transitions(zone)) {
    const start = DateTime.fromMillis(at, { zone }).startOf('day')
    const end = start.plus({ days: 1 }).toMillis()
    for (let t = start.toMillis(); t < end; t += MINUTE) {
      yield [t + MINUTE - 1, zone]
      yield [t, zone]
    }
  }
}

/** Minute by minute through local midnight at the turn of 2026 into 2027, in every zone. */
function* newYearsMidnight(): Generator<[number, string]> {
  for (const zone of ZONES) {
    const midnight = DateTime.fromISO('2027-01-01T00:00:00', { zone }).toMillis()
    for (let t = midnight - HOUR; t <= midnight + HOUR; t += MINUTE) {
      yield [t - 1, zone]
      yield [t, zone]
    }
  }
}

describe('wall clock against luxon', () => {
  test('every 7 minutes across 2026, each instant in one zone in turn', () => {
    const { mismatches, checked } = compareFields(sweep(7 * MINUTE))
    expect(mismatches).toEqual([])
    expect(checked).toBeGreaterThan(75_000)
  })

  test('the DST days in each zone that has them, every minute at its first and last millisecond', () => {
    const counts = Object.fromEntries(ZONES.map((zone) => [zone, transitions(zone).length]))
    expect(counts).toEqual({
      'America/Denver': 2,
      'America/New_York': 2,
      'Europe/London': 2,
      'Australia/Lord_Howe': 2,
      'Asia/Kolkata': 0,
      'Pacific/Chatham': 2,
      UTC: 0,
      'America/Sao_Paulo': 0,
    })
    for (const zone of ZONES) {
      const { mismatches } = compareFields(transitionDays(zone))
      expect({ zone, mismatches }).toEqual({ zone, mismatches: [] })
    }
  })

  test('local midnight into 2027 in every zone, minute by minute', () => {
    const fields = compareFields(newYearsMidnight())
    expect(fields.mismatches).toEqual([])
    expect(compareTexts(newYearsMidnight()).mismatches).toEqual([])
    expect(fields.checked).toBe(ZONES.length * 121 * 2)
  })

  test('the texts (localDate, localDateTime, localDateTimeWithOffset) every 7 hours and on the DST days', () => {
    expect(compareTexts(sweep(7 * HOUR)).mismatches).toEqual([])
    for (const zone of ZONES) {
      const every7th = [...transitionDays(zone)].filter((_, i) => i % 14 < 2)
      expect({ zone, ...compareTexts(every7th) }).toEqual({ zone, mismatches: [], checked: every7th.length })
    }
  })

  test('the offset periods across 2026 in each zone start at the changes luxon finds, with its offsets', () => {
    const offset = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).offset
    for (const zone of ZONES) {
      const periods = utcOffsetPeriods(zone, YEAR_START, YEAR_END)
      expect({ zone, starts: periods.map((period) => period.startMs) }).toEqual({
        zone,
        starts: [YEAR_START, ...transitions(zone)],
      })
      const wrong = periods.filter(({ startMs, offsetMinutes }) => offset(startMs, zone) !== offsetMinutes)
      expect({ zone, wrong }).toEqual({ zone, wrong: [] })
    }
  })

  test('before 1972 offsets with seconds (local mean time) are exact to the second, as luxon has them', () => {
    const cases: Array<[string, string, string]> = [
      ['1880-01-01T12:00:00.000Z', 'America/Denver', '1880-01-01T05:00:04-06:59'],
      ['1971-06-01T23:30:00.000Z', 'Africa/Monrovia', '1971-06-01T22:45:30-00:44'],
    ]
    for (const [instant, zone, text] of cases) {
      expect(localDateTimeWithOffset(instant, zone)).toBe(text)
      expect(wallClock(Date.parse(instant), zone)).toEqual(luxonFields(Date.parse(instant), zone))
    }
  })
})

describe('wall clock', () => {
  test('the fields of an instant (fixed clock of the tests: Sunday morning in Denver)', () => {
    expect(wallClock(new Date('2026-11-22T15:04:05.123Z'), 'America/Denver')).toEqual({
      year: 2026,
      month: 11,
      day: 22,
      weekday: 0,
      hour: 8,
      minute: 4,
      second: 5,
      offsetMinutes: -420,
    })
  })

  test('one minute asked about in several zones in turn: each zone keeps its own offset', () => {
    const instant = '2026-11-22T15:04:05.123Z'
    for (let round = 0; round < 3; round++) {
      expect(localDateTimeWithOffset(instant, 'America/Denver')).toBe('2026-11-22T08:04:05-07:00')
      expect(localDateTimeWithOffset(instant, 'Asia/Kolkata')).toBe('2026-11-22T20:34:05+05:30')
      expect(localDateTimeWithOffset(instant, 'Pacific/Chatham')).toBe('2026-11-23T04:49:05+13:45')
      expect(localDateTimeWithOffset(instant, 'UTC')).toBe('2026-11-22T15:04:05+00:00')
      expect(utcOffsetMinutes(new Date(instant), 'America/Sao_Paulo')).toBe(-180)
    }
  })

  test('near midnight with a negative offset the local day is the day before', () => {
    expect(localDate(new Date('2026-11-23T06:59:59.999Z'), 'America/Denver')).toBe('2026-11-22')
    expect(localDate(new Date('2026-11-23T07:00:00.000Z'), 'America/Denver')).toBe('2026-11-23')
    expect(localDateTime(new Date('2027-01-01T02:59:59.999Z'), 'America/Sao_Paulo')).toBe(
      '2026-12-31T23:59:59',
    )
  })

  test('the calendar arithmetic agrees with Date across years 1000-9999 and around every kind of leap day', () => {
    const instants: number[] = []
    for (let t = Date.UTC(1000, 0, 1); t < Date.UTC(9999, 11, 31); t += 53 * DAY + 1_234_567) instants.push(t)
    // 1900 and 2100 are not leap years, 2000 and 2400 are; each day from Feb 27 to Mar 2, and New Year.
    for (const year of [1600, 1900, 1999, 2000, 2024, 2026, 2100, 2400]) {
      for (let t = Date.UTC(year, 1, 27); t < Date.UTC(year, 2, 3); t += 6 * HOUR) instants.push(t, t - 1)
      instants.push(Date.UTC(year, 0, 1) - 1, Date.UTC(year, 0, 1))
    }
    const mismatches: string[] = []
    for (const t of instants) {
      const d = new Date(t)
      const w = wallClock(t, 'UTC')
      const got = [w.year, w.month, w.day, w.weekday, w.hour, w.minute, w.second]
      const expected = [
        d.getUTCFullYear(),
        d.getUTCMonth() + 1,
        d.getUTCDate(),
        d.getUTCDay(),
        d.getUTCHours(),
        d.getUTCMinutes(),
        d.getUTCSeconds(),
      ]
      if (got.join() !== expected.join() && mismatches.length < 10) mismatches.push(d.toISOString())
    }
    expect(mismatches).toEqual([])
  })

  test('offset periods: the offset at the start, then each change to the minute, a skipped day too', () => {
    expect(
      utcOffsetPeriods(
        'America/Denver',
        Date.parse('2025-06-01T00:00:00Z'),
        Date.parse('2026-12-31T00:00:00Z'),
      ).map(({ startMs, offsetMinutes }) => [new Date(startMs).toISOString(), offsetMinutes]),
    ).toEqual([
      ['2025-06-01T00:00:00.000Z', -360],
      ['2025-11-02T08:00:00.000Z', -420],
      ['2026-03-08T09:00:00.000Z', -360],
      ['2026-11-01T08:00:00.000Z', -420],
    ])
    // Samoa skipped 2011-12-30, moving from -10:00 to +14:00 at its start; UTC has no change at all.
    expect(
      utcOffsetPeriods(
        'Pacific/Apia',
        Date.parse('2011-12-29T00:00:00Z'),
        Date.parse('2012-01-02T00:00:00Z'),
      ),
    ).toEqual([
      { startMs: Date.parse('2011-12-29T00:00:00Z'), offsetMinutes: -600 },
      { startMs: Date.parse('2011-12-30T10:00:00Z'), offsetMinutes: 840 },
    ])
    expect(
      utcOffsetPeriods('UTC', Date.parse('2020-01-01T00:00:00Z'), Date.parse('2027-01-01T00:00:00Z')),
    ).toEqual([{ startMs: Date.parse('2020-01-01T00:00:00Z'), offsetMinutes: 0 }])
  })

  test('an unknown zone is an error, not a wrong date', () => {
    expect(() => localDate(new Date(), 'Mars/Olympus_Mons')).toThrow(RangeError)
  })
})
