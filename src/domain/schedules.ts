import { choices } from '../lib/choices.ts'

/**
 * An event type's schedules (classes.md, "Schedules"): on which days of the week, at what wall-clock
 * time, its events recur. The API reads and writes them; the generator (core/classes/schedules.ts)
 * makes their events.
 */

/** The days a schedule names, in the order they are stored and read back (Monday first). */
export const SCHEDULE_WEEKDAYS = choices({
  MON: 'Monday',
  TUE: 'Tuesday',
  WED: 'Wednesday',
  THU: 'Thursday',
  FRI: 'Friday',
  SAT: 'Saturday',
  SUN: 'Sunday',
})
export type ScheduleWeekday = (typeof SCHEDULE_WEEKDAYS)[number]

/** JavaScript's getUTCDay() order, Sunday first. */
const BY_UTC_DAY: readonly ScheduleWeekday[] = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT']

/** The day of the week of a calendar date (YYYY-MM-DD). */
export const weekdayOf = (date: string): ScheduleWeekday =>
  BY_UTC_DAY[new Date(`${date}T00:00:00Z`).getUTCDay()]!

/** The days as stored: each once, Monday first. */
export const sortedWeekdays = (days: readonly ScheduleWeekday[]): ScheduleWeekday[] =>
  SCHEDULE_WEEKDAYS.filter((day) => days.includes(day))

/** A wall-clock time as a schedule takes it: HH:MM, 00:00 to 23:59. */
export const START_TIME_PATTERN = '^([01]\\d|2[0-3]):[0-5]\\d$'

export const scheduleMessages = {
  time: 'Time has wrong format. Use one of these formats instead: hh:mm.',
  emptyWeekdays: 'This list may not be empty.',
  weekdayTwice: (day: string) => `"${day}" is given more than once.`,
  endBeforeStart: 'The end date must not be before the start date.',
  exceptionTwice: (date: string) => `This schedule already has an exception on ${date}.`,
}
