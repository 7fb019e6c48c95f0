import { type AccessWindow, WEEK_DAYS } from '../domain/access-hours.ts'
import type { Calendar } from './calendar.ts'
import type { Random } from './random.ts'

/**
 * When people climb: the season, the day of the week and the time of day, as relative weights the
 * check-in generator draws from. The gyms open 06:00-22:00; times are local minutes.
 */

/** Busier in winter, quieter in summer (people climb outside), by month, January first. */
const SEASON = [1.25, 1.2, 1.1, 1, 0.85, 0.75, 0.7, 0.75, 0.95, 1.05, 1.15, 1.1] as const

/** Sunday first: early-week evenings are the busiest, Friday nights the quietest. */
const WEEKDAY = [0.85, 1.1, 1.15, 1.1, 1.05, 0.8, 1] as const

const SLOT_MINUTES = 30
const OPENS = 6 * 60

/**
 * Half-hour slots from 06:00 to 22:00: on weekdays a bump before work, a lunch hour, and the
 * evening peak after work (16:00-21:00 holds most visits); at weekends a long midday.
 */
const WEEKDAY_SLOTS = [
  1, 2, 3, 3, 2, 1.5, 1, 1, 1, 1, 1.5, 1.5, 1.5, 1.5, 1.5, 1.2, 1.2, 1.2, 1.2, 2, 5, 7, 9, 10, 9, 8, 7, 5,
  3.5, 2, 0.8, 0.3,
] as const
const WEEKEND_SLOTS = [
  0.2, 0.3, 0.5, 0.8, 1, 1.5, 3, 4, 6, 6, 6, 6, 7, 7, 7, 7, 6, 6, 5, 5, 5, 5, 4.5, 4, 3.5, 3, 2.5, 2, 1.5, 1,
  0.5, 0.3,
] as const

/** How much busier (or quieter) the gym is on `day` than on an average one. */
export function dayWeight(cal: Calendar, day: number): number {
  const month = Number(cal.date(day).slice(5, 7))
  return SEASON[month - 1]! * WEEKDAY[cal.weekday(day)]!
}

/**
 * Draws the local minute of a visit on a given weekday, within a membership's access hours when
 * it has them. Each weekday's cumulative slot weights are worked out once per set of hours.
 */
export class VisitClock {
  private readonly tables = new Map<readonly AccessWindow[] | null, Float64Array[]>()

  /** Whether anyone with these access hours can come in on this weekday (0 = Sunday). */
  opensOn(weekday: number, hours: readonly AccessWindow[] | null): boolean {
    return this.table(hours)[weekday]!.at(-1)! > 0
  }

  /** A local minute on `weekday`; only call it for a weekday `opensOn` allows. */
  minute(rng: Random, weekday: number, hours: readonly AccessWindow[] | null): number {
    const cumulative = this.table(hours)[weekday]!
    const x = rng.next() * cumulative.at(-1)!
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid]! > x) hi = mid
      else lo = mid + 1
    }
    return OPENS + lo * SLOT_MINUTES + rng.int(0, SLOT_MINUTES - 1)
  }

  private table(hours: readonly AccessWindow[] | null): Float64Array[] {
    let table = this.tables.get(hours)
    if (!table) {
      table = WEEK_DAYS.map((name, weekday) => {
        const weights = weekday === 0 || weekday === 6 ? WEEKEND_SLOTS : WEEKDAY_SLOTS
        const cumulative = new Float64Array(weights.length)
        let sum = 0
        weights.forEach((w, i) => {
          const start = OPENS + i * SLOT_MINUTES
          if (hours === null || hours.some((h) => h.day === name && covers(h, start))) sum += w
          cumulative[i] = sum
        })
        return cumulative
      })
      this.tables.set(hours, table)
    }
    return table
  }
}

/** The whole slot lies in the window (start inclusive, end exclusive, as the door reads them). */
function covers(window: AccessWindow, start: number): boolean {
  const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))
  return minutes(window.start) <= start && start + SLOT_MINUTES <= minutes(window.end)
}
