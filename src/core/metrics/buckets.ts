import { sql, type RawBuilder } from 'kysely'
import { localDateOf } from '../../db/local-time-sql.ts'
import { choices } from '../../lib/choices.ts'
import { addDays, startOfLocalDay, utcOffsetPeriods, type OffsetPeriod } from '../../lib/local-time.ts'
import { refuse } from './refusal.ts'

/** Bucket sizes, every one calendar-aligned in the organization's zone. */
export const INTERVALS = choices({
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  yearly: 'Yearly',
})
export type Interval = (typeof INTERVALS)[number]

/** More buckets than this (ten years of days) is refused rather than computed. */
export const MAX_BUCKETS = 3_700

export interface Bucket {
  start_date: string
  end_date: string
}

/**
 * The buckets every series of one query shares: the asked range widened to whole buckets, in the
 * organization's zone. Dates are local calendar dates (YYYY-MM-DD); instants are UTC ISO text.
 */
export interface BucketPlan {
  interval: Interval
  timeZone: string
  /** The first day of the first bucket and the last day of the last one. */
  firstDay: string
  lastDay: string
  /** The day before the first bucket, which stock metrics read as the first bucket's start. */
  leadInDay: string
  buckets: Bucket[]
  /** The organization's today, when the query was planned. */
  today: string
  /** The first instant of firstDay and the first instant after lastDay, for index ranges. */
  fromInstant: string
  toInstant: string
  /** The zone's UTC offsets from the lead-in day to the end of lastDay. */
  offsets: OffsetPeriod[]
}

const DAY_MS = 86_400_000
// Calendar dates as the UTC midnight of the same date: plain arithmetic, no zone (the plan is
// enumerated for every query, up to MAX_BUCKETS buckets).
const msOf = (date: string) => Date.parse(`${date}T00:00:00Z`)
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** The first day of the bucket holding the day `ms`. */
function bucketStart(interval: Interval, ms: number): number {
  const d = new Date(ms)
  const [year, month] = [d.getUTCFullYear(), d.getUTCMonth()]
  switch (interval) {
    case 'daily':
      return ms
    case 'weekly':
      return ms - ((d.getUTCDay() + 6) % 7) * DAY_MS // weeks start on Monday (ISO)
    case 'monthly':
      return Date.UTC(year, month, 1)
    case 'quarterly':
      return Date.UTC(year, month - (month % 3), 1)
    case 'yearly':
      return Date.UTC(year, 0, 1)
  }
}

/** The first day of the bucket after the one starting on the day `ms`. */
function nextBucketStart(interval: Interval, ms: number): number {
  const d = new Date(ms)
  const [year, month] = [d.getUTCFullYear(), d.getUTCMonth()]
  switch (interval) {
    case 'daily':
      return ms + DAY_MS
    case 'weekly':
      return ms + 7 * DAY_MS
    case 'monthly':
      return Date.UTC(year, month + 1, 1)
    case 'quarterly':
      return Date.UTC(year, month + 3, 1)
    case 'yearly':
      return Date.UTC(year + 1, 0, 1)
  }
}

/**
 * The buckets from the one holding `startDate` to the one holding `endDate`. The caller has checked
 * both dates; a range past MAX_BUCKETS is refused at `interval`.
 */
export function planBuckets(
  interval: Interval,
  startDate: string,
  endDate: string,
  timeZone: string,
  today: string,
): BucketPlan {
  const last = bucketStart(interval, msOf(endDate))
  const buckets: Bucket[] = []
  for (let start = bucketStart(interval, msOf(startDate)); start <= last;) {
    if (buckets.length === MAX_BUCKETS)
      refuse('interval', `the range holds more than ${MAX_BUCKETS} ${interval} buckets`)
    const next = nextBucketStart(interval, start)
    buckets.push({ start_date: dateOf(start), end_date: dateOf(next - DAY_MS) })
    start = next
  }
  const firstDay = buckets[0]!.start_date
  const lastDay = buckets.at(-1)!.end_date
  const leadInDay = addDays(firstDay, -1)
  const fromInstant = startOfLocalDay(firstDay, timeZone)
  const toInstant = startOfLocalDay(addDays(lastDay, 1), timeZone)
  return {
    interval,
    timeZone,
    firstDay,
    lastDay,
    leadInDay,
    buckets,
    today,
    fromInstant,
    toInstant,
    offsets: utcOffsetPeriods(
      timeZone,
      Date.parse(startOfLocalDay(leadInDay, timeZone)),
      Date.parse(toInstant),
    ),
  }
}

/**
 * The index of the bucket holding `date` (a local YYYY-MM-DD expression), for rows already limited
 * to the plan's days: arithmetic on the date's text, so grouping a year of rows by bucket costs
 * no lookups.
 */
export function bucketOfDay(
  plan: BucketPlan,
  date: RawBuilder<unknown> | RawBuilder<string>,
): RawBuilder<number> {
  const year = sql`CAST(substr(${date}, 1, 4) AS INTEGER)`
  const month = sql`CAST(substr(${date}, 6, 2) AS INTEGER)`
  const [firstYear, firstMonth] = plan.firstDay.split('-').map(Number) as [number, number]
  switch (plan.interval) {
    case 'daily':
      return sql<number>`CAST(julianday(${date}) - julianday(${plan.firstDay}) AS INTEGER)`
    case 'weekly':
      return sql<number>`CAST((julianday(${date}) - julianday(${plan.firstDay})) / 7 AS INTEGER)`
    case 'monthly':
      return sql<number>`(${year} * 12 + ${month} - ${firstYear * 12 + firstMonth})`
    case 'quarterly':
      return sql<number>`(${year} * 4 + (${month} - 1) / 3 - ${firstYear * 4 + Math.floor((firstMonth - 1) / 3)})`
    case 'yearly':
      return sql<number>`(${year} - ${firstYear})`
  }
}

/** The local date of a stored instant, over the plan's days. */
export const localDateOfInstant = (plan: BucketPlan, instant: RawBuilder<unknown>): RawBuilder<string> =>
  localDateOf(instant, plan.offsets)

/** One value per bucket from the buckets that have rows; the others get `fill`. */
export function denseValues<V>(
  plan: BucketPlan,
  rows: readonly { bucket: number; value: V }[],
  fill: V,
): V[] {
  const values = plan.buckets.map((): V => fill)
  for (const row of rows) if (row.bucket >= 0 && row.bucket < values.length) values[row.bucket] = row.value
  return values
}

/**
 * Whether an outcome measured `days` after each day of `bucket` is known by `today`: only once the
 * bucket's whole interval is more than `days` days in the past (retention, conversion windows).
 */
export const isSettled = (bucket: Bucket, today: string, days: number): boolean =>
  addDays(bucket.end_date, days) < today

/** A bucket as a stretch of instants: from the first instant of its first day, up to the next bucket's. */
export interface BucketInstants {
  bucket: number
  fromInstant: string
  toInstant: string
}

/**
 * Each bucket's stretch of UTC instants, for rows read by their instant alone: a statement that
 * sums each stretch of an index needs no wall clock per row. A local midnight is found in the
 * plan's offsets: the earliest instant whose wall clock reads it, or, where the zone skips it, the
 * change that skips it.
 */
export function bucketInstants(plan: BucketPlan): BucketInstants[] {
  const starts = plan.buckets.map((bucket) => {
    const midnight = Date.parse(`${bucket.start_date}T00:00:00.000Z`)
    for (const [i, period] of plan.offsets.entries()) {
      const next = plan.offsets[i + 1]
      const candidate = midnight - period.offsetMinutes * 60_000
      if (next && candidate >= next.startMs) continue
      return new Date(Math.max(candidate, period.startMs)).toISOString()
    }
    throw new Error(`no offset of ${plan.timeZone} holds ${bucket.start_date}`)
  })
  return starts.map((fromInstant, bucket) => ({
    bucket,
    fromInstant,
    toInstant: starts[bucket + 1] ?? plan.toInstant,
  }))
}
