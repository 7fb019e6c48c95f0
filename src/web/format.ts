/** How the desk writes names and times. */

export const fullName = (first: string | undefined, last: string | undefined): string =>
  [first, last].filter((part) => part !== undefined && part !== '').join(' ')

/**
 * The check-ins' local times (`2026-11-22T08:15:00`, the gym's wall clock, no offset) as the clock
 * on the desk's wall reads them: hours and minutes.
 */
export const wallClockTime = (localDateTime: string): string => localDateTime.slice(11, 16)

/** A UTC instant (`2026-11-22T15:00:00Z`) as hours and minutes in the gym's time zone. */
export function timeInZone(instant: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(
    new Date(instant),
  )
}
