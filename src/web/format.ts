/** How the desk writes names and times. */

export const fullName = (first: string | undefined, last: string | undefined): string =>
  [first, last].filter((part) => part !== undefined && part !== '').join(' ')

/**
 * The check-ins' local times (`2026-11-22T08:15:00`, the gym's wall clock, no offset) as the clock
 * on the desk's wall reads them: hours and minutes.
 */
export const wallClockTime = (localDateTime: string): string => localDateTime.slice(11, 16)

/**
 * A UTC instant (`2026-11-22T15:00:00Z`) as hours and minutes in the gym's time zone, or in the
 * desk computer's own without one.
 */
export function timeInZone(instant: string, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(
    new Date(instant),
  )
}

/**
 * Whole years from a birthday (`1990-05-01`) to a day (`2026-12-02`), as people count their age. A
 * 29 February birthday comes round on 28 February in other years, as the API counts a minor.
 */
export function ageOn(birthday: string, day: string): number {
  const [by, bm, bd] = birthday.split('-').map(Number) as [number, number, number]
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
  const birthdayThisYear = bm === 2 && bd === 29 && !leap ? 28 : bd
  return y - by - (m < bm || (m === bm && d < birthdayThisYear) ? 1 : 0)
}

/** Under 18: a guardian signs for them, and the desk shows a badge. */
export const MINOR_UNDER = 18

const dayFormats = new Map<string, Intl.DateTimeFormat>()

/** Today (YYYY-MM-DD) on the wall clock of `timeZone`, or of the desk's own computer without one. */
export function todayIn(timeZone?: string): string {
  const key = timeZone ?? ''
  let format = dayFormats.get(key)
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    dayFormats.set(key, format)
  }
  return format.format(new Date())
}
