/** How the Classes screen names days, spots and answers: pure, so the tests read them without a page. */
import type { Answer, ClassEvent } from '../../types.ts'

/** The days the picker offers: today and the six after it, the week ahead at the desk. */
export const DAYS_SHOWN = 7

/** The calendar day `n` days after `day` (both YYYY-MM-DD). */
export function addDays(day: string, n: number): string {
  const date = new Date(`${day}T12:00:00Z`)
  date.setUTCDate(date.getUTCDate() + n)
  return date.toISOString().slice(0, 10)
}

/** The picker's days, from `today`. */
export const pickerDays = (today: string): string[] =>
  Array.from({ length: DAYS_SHOWN }, (_, n) => addDays(today, n))

const shortDay = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
})
const longDay = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  timeZone: 'UTC',
})

/** A day as the picker names it: "Today", "Tomorrow", then "Thu 14 May". */
export function dayLabel(day: string, today: string): string {
  if (day === today) return 'Today'
  if (day === addDays(today, 1)) return 'Tomorrow'
  return shortDay.format(new Date(`${day}T12:00:00Z`))
}

/** A day as the list's heading names it: "Today", "Tomorrow", then "Thursday 14 May". */
export function dayHeading(day: string, today: string): string {
  const short = dayLabel(day, today)
  return short === 'Today' || short === 'Tomorrow' ? short : longDay.format(new Date(`${day}T12:00:00Z`))
}

/** Whether the list shows the event as full (red), cancelled (struck through) or open. */
export function spotsTone(event: ClassEvent): 'cancelled' | 'full' | 'open' {
  if (event.is_cancelled) return 'cancelled'
  return event.spots_left === 0 ? 'full' : 'open'
}

/**
 * An event's spots in words: "3 of 12 left", "3 left" (only the type's capacity limits it), "7
 * booked" (nothing limits it), "Full", each with "Waitlist 2" after it while customers wait; a
 * cancelled event is "Cancelled".
 */
export function spotsWords(
  event: Pick<ClassEvent, 'is_cancelled' | 'spots_left' | 'capacity' | 'num_reservations' | 'num_waitlisted'>,
): string {
  if (event.is_cancelled) return 'Cancelled'
  const spots =
    event.spots_left === null
      ? `${event.num_reservations} booked`
      : event.spots_left === 0
        ? 'Full'
        : event.capacity === null
          ? `${event.spots_left} left`
          : `${event.spots_left} of ${event.capacity} left`
  return event.num_waitlisted > 0 ? `${spots} · Waitlist ${event.num_waitlisted}` : spots
}

/** One answer as the roster shows it: "Shoe size: 42", "Belayed before? Yes". */
export function answerWords(answer: Answer): string {
  const value = answer.answer === true ? 'Yes' : answer.answer === false ? 'No' : answer.answer
  const text = answer.question_text.trim()
  return /[?:]$/.test(text) ? `${text} ${value}` : `${text}: ${value}`
}
