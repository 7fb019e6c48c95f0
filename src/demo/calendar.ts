import { DateTime } from 'luxon'
import type { BillingInterval } from '../db/schema.ts'
import { BILLING_PERIODS } from '../domain/billing.ts'
import { localTimeOfDay } from '../lib/local-time.ts'

const DAY_MS = 86_400_000

/**
 * Organization-local calendar arithmetic for the demo. Dates are day numbers (days since
 * 1970-01-01 as a local calendar date) so the tens of thousands of rows need no date objects.
 * A day's UTC offset is worked out once, with one cached Intl formatter (luxon's per-call setup
 * cost more than everything else the demo generates).
 */
export class Calendar {
  readonly today: number
  readonly nowMs: number
  private readonly offsets = new Map<number, number>()
  private readonly dates = new Map<number, string>()
  private readonly times: string[] = []
  private readonly parts: Intl.DateTimeFormat

  constructor(
    readonly zone: string,
    now: Date,
  ) {
    this.nowMs = now.getTime()
    this.today = Calendar.toDay(DateTime.fromMillis(this.nowMs, { zone }).toISODate()!)
    this.parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    })
  }

  static toDay(date: string): number {
    return Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS)
  }

  /** YYYY-MM-DD */
  date(day: number): string {
    let text = this.dates.get(day)
    if (text === undefined) {
      text = new Date(day * DAY_MS).toISOString().slice(0, 10)
      this.dates.set(day, text)
    }
    return text
  }

  weekday(day: number): number {
    // 1970-01-01 was a Thursday; 0 = Sunday.
    return (((day + 4) % 7) + 7) % 7
  }

  /**
   * The UTC instant of `minute` minutes into local `day`, never later than now (the demo has no
   * records from the future except events). Demo times fall between 05:00 and 23:00, so the
   * offset at noon is right even on a day the clocks change.
   */
  stamp(day: number, minute: number): string {
    return new Date(Math.min(this.instantMs(day, minute), this.nowMs)).toISOString()
  }

  /** Like stamp, but may lie in the future (event times). */
  instantMs(day: number, minute: number): number {
    let offset = this.offsets.get(day)
    if (offset === undefined) {
      // The offset at local noon: guess with the offset at UTC noon, then check at the guess.
      const noonUtc = day * DAY_MS + 12 * 3_600_000
      offset = this.offsetAt(noonUtc - this.offsetAt(noonUtc) * 60_000)
      this.offsets.set(day, offset)
    }
    return day * DAY_MS + (minute - offset) * 60_000
  }

  /**
   * The wall-clock time of day (HH:MM:SS, seconds truncated) at `ms` on local `day`, as
   * localTimeOfDay gives it: from the day's own offset (right for the demo's times, as in
   * instantMs) and one text per second of the day, so the million and a half check-ins' times
   * need no look-up of the zone's offset at each instant.
   */
  timeOfDay(day: number, ms: number): string {
    const second = Math.floor((ms - this.instantMs(day, 0)) / 1000)
    // localTimeOfDay in UTC of that second of 1970-01-01 is its time of day.
    return (this.times[second] ??= localTimeOfDay(second * 1000, 'UTC'))
  }

  /** The local day an instant falls on. */
  dayOf(ms: number): number {
    return Math.floor((ms + this.offsetAt(ms) * 60_000) / DAY_MS)
  }

  /** The zone's UTC offset in minutes at an instant (local wall time minus UTC). */
  private offsetAt(ms: number): number {
    const f: Record<string, number> = {}
    for (const p of this.parts.formatToParts(ms)) if (p.type !== 'literal') f[p.type] = Number(p.value)
    const wall = Date.UTC(f.year!, f.month! - 1, f.day!, f.hour!, f.minute!)
    return Math.round((wall - (ms - (ms % 60_000))) / 60_000)
  }

  /** `day` plus whole months, clamped to the month's last day (Jan 31 + 1 month = Feb 28). */
  addMonths(day: number, months: number): number {
    const d = new Date(day * DAY_MS)
    const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months
    const year = Math.floor(total / 12)
    const month = total - year * 12
    const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
    return Math.round(Date.UTC(year, month, Math.min(d.getUTCDate(), last)) / DAY_MS)
  }

  /** The day `count` billing periods after `day`. */
  addPeriods(day: number, interval: BillingInterval, count: number): number {
    const p = PERIODS[interval]
    return 'days' in p ? day + p.days * count : this.addMonths(day, p.months * count)
  }

  /** The first billing day after `after` for a membership that started on `start`. */
  nextBillDay(start: number, interval: BillingInterval, after: number): number {
    return this.addPeriods(start, interval, this.periodsAfter(start, interval, after))
  }

  /** The last billing day (or the start) on or before `day`. */
  lastBillDay(start: number, interval: BillingInterval, day: number): number {
    return this.addPeriods(start, interval, this.periodsAfter(start, interval, day) - 1)
  }

  /** The number k >= 1 of the first billing period ending after `after` (bills are start + k periods). */
  private periodsAfter(start: number, interval: BillingInterval, after: number): number {
    const p = PERIODS[interval]
    if ('days' in p) return Math.max(1, Math.floor((after - start) / p.days) + 1)
    let k = Math.max(1, Math.floor((after - start) / (31 * p.months)))
    while (this.addMonths(start, p.months * k) <= after) k++
    return k
  }

  /** The length of one billing period in days (approximately, for months). */
  periodDays(interval: BillingInterval): number {
    const p = PERIODS[interval]
    return 'days' in p ? p.days : p.months * 30
  }
}

/** The billing periods memberships have, and a month for a type without an interval. */
const PERIODS: Record<BillingInterval, { days: number } | { months: number }> = {
  '': { months: 1 },
  ...BILLING_PERIODS,
}
