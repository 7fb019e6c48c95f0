import { jsonTypeName } from '../lib/json.ts'
import { someOf } from '../lib/choices.ts'
import { wallClock } from '../lib/local-time.ts'
import { SCHEDULE_WEEKDAYS } from './schedules.ts'

/**
 * A membership type's access hours: null means any time; otherwise weekly windows, each on one day
 * of the week in the gym's own time zone ("MON 06:00-10:00"). The door reads them when it decides
 * whether a membership lets someone in now.
 */
export const WEEK_DAYS = someOf(SCHEDULE_WEEKDAYS, ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'])
export type WeekDay = (typeof WEEK_DAYS)[number]

export interface AccessWindow {
  day: WeekDay
  /** HH:MM, inclusive */
  start: string
  /** HH:MM, exclusive; "24:00" runs to the end of the day */
  end: string
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/
const END_OF_DAY = '24:00'

export const accessHoursMessages = {
  notObject: (n: number, got: string) =>
    `Window ${n}: expected an object with day, start and end but got type "${got}".`,
  day: (n: number, value: unknown) =>
    `Window ${n}: "${String(value)}" is not a valid day; use one of ${WEEK_DAYS.join(', ')}.`,
  time: (n: number, key: string, value: unknown) =>
    value === undefined
      ? `Window ${n}: ${key} is required.`
      : `Window ${n}: "${String(value)}" is not a valid ${key} time; use HH:MM (24-hour clock).`,
  order: (n: number) => `Window ${n}: start must be before end.`,
  empty: 'Give at least one window, or null for access at any time.',
}

/**
 * Reads a request's access hours: the stored windows (null for any time), or the messages saying
 * what is wrong with them (windows are numbered from 1, as a person counts them).
 */
export function parseAccessHours(
  value: unknown,
): { windows: AccessWindow[] | null; errors: [] } | { windows?: undefined; errors: string[] } {
  if (value === null) return { windows: null, errors: [] }
  if (!Array.isArray(value)) {
    return { errors: [`Expected a list of items but got type "${jsonTypeName(value)}".`] }
  }
  // An empty list would mean "never": the door would refuse every member of the type.
  if (value.length === 0) return { errors: [accessHoursMessages.empty] }
  const errors: string[] = []
  const windows: AccessWindow[] = []
  value.forEach((item: unknown, index) => {
    const n = index + 1
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      errors.push(accessHoursMessages.notObject(n, jsonTypeName(item)))
      return
    }
    const { day, start, end } = item as Record<string, unknown>
    const before = errors.length
    if (typeof day !== 'string' || !(WEEK_DAYS as readonly string[]).includes(day)) {
      errors.push(accessHoursMessages.day(n, day))
    }
    if (typeof start !== 'string' || !TIME.test(start))
      errors.push(accessHoursMessages.time(n, 'start', start))
    if (typeof end !== 'string' || !(TIME.test(end) || end === END_OF_DAY)) {
      errors.push(accessHoursMessages.time(n, 'end', end))
    }
    if (errors.length > before) return
    if ((start as string) >= (end as string)) {
      errors.push(accessHoursMessages.order(n))
      return
    }
    windows.push({ day: day as WeekDay, start: start as string, end: end as string })
  })
  return errors.length > 0 ? { errors } : { windows, errors: [] }
}

/** The stored JSON (TEXT column) back into windows. */
export const readAccessHours = (stored: string | null): AccessWindow[] | null =>
  stored === null ? null : (JSON.parse(stored) as AccessWindow[])

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
