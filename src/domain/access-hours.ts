import { jsonTypeName } from '../lib/json.ts'

/**
 * A membership type's access hours: null means any time; otherwise weekly windows, each on one day
 * of the week in the gym's own time zone ("MON 06:00-10:00"). The door reads them when it decides
 * whether a membership lets someone in now.
 */
export const WEEK_DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const
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
