import { wallClock } from '../../lib/local-time.ts'
import { WEEK_DAYS } from '../../domain/access-hours.ts'
import type { AccessWindow } from './facts.ts'

/** "HH:MM" (or "24:00") as minutes since local midnight. */
const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

/**
 * Whether `now` falls inside one of a membership type's weekly windows, judged on the wall clock of
 * `zone` (the gym's): the weekday and the time of day a person at the door would read. null means
 * any time; an empty list means never (no window was given).
 *
 * Judging by the wall clock is what a sign on the door means, and it settles the DST days: on the
 * fall-back day the repeated hour is inside a window twice (01:30 MDT and 01:30 MST both read
 * 01:30), and on the spring-forward day a window that starts in the skipped hour opens at 03:00,
 * the first minute that exists after its start, while one lying wholly inside the gap never opens.
 * Start is inclusive and end exclusive, so "24:00" covers the day's last minute (23:59:59.999).
 */
export function isWithinAccessHours(
  windows: readonly AccessWindow[] | null,
  now: Date,
  zone: string,
): boolean {
  if (windows === null) return true
  const local = wallClock(now, zone)
  // Both count weekdays from 0 = Sunday.
  const day = WEEK_DAYS[local.weekday]
  // Windows are whole minutes, start inclusive and end exclusive, so the seconds never matter.
  const minute = local.hour * 60 + local.minute
  return windows.some((w) => w.day === day && minutesOf(w.start) <= minute && minute < minutesOf(w.end))
}
