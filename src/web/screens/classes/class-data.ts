/** What the Classes screen reads: a day's events at the gym, and one event's roster and questions. */
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, ApiError, messageOf, query } from '../../api.ts'
import type { ClassEvent, EventQuestion, EventType, Page, Reservation, WaitlistEntry } from '../../types.ts'
import { addDays } from './class-words.ts'

/** Other desks' bookings and the door's check-ins show within this. */
const REFRESH_MS = 10_000

/** The largest page the API gives. */
const PAGE_SIZE = 100

/** Every record of a collection for `params`, a page at a time (a class of 1,000 is ten pages). */
async function readAll<T>(path: string, params: Record<string, string | number | boolean>): Promise<T[]> {
  const all: T[] = []
  for (let page = 1; ; page++) {
    const got = await api<Page<T>>('GET', `${path}${query({ ...params, page_size: PAGE_SIZE, page })}`)
    all.push(...got.results)
    if (got.next === null || got.results.length === 0) return all
  }
}

/** The gym's events starting on `day` (the organization's local day), by start. */
export const readDay = (gymId: number, day: string): Promise<ClassEvent[]> =>
  readAll<ClassEvent>('/api/events/', { gym_id: gymId, starts_after: day, starts_before: addDays(day, 1) })

/** One event's bookings (cancelled ones too) and its waitlist as it stands now. */
export interface Roster {
  eventId: number
  reservations: Reservation[]
  /** Waiting (WAI), by position. */
  waiting: WaitlistEntry[]
}

async function readRoster(eventId: number): Promise<Roster> {
  const [reservations, entries] = await Promise.all([
    readAll<Reservation>('/api/reservations/', { event_id: eventId }),
    readAll<WaitlistEntry>('/api/waitlist-entries/', { event_id: eventId, status: 'WAI' }),
  ])
  const waiting = entries.sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
  return { eventId, reservations, waiting }
}

/** What booking an event of a type asks, and when its waitlist stops moving up by itself. */
export interface TypeDetails {
  /** Its active questions, in the order asked. */
  questions: EventQuestion[]
  waitlistPromotionCutoffHours: number
  /** Minutes after an event's start it may still be booked (negative: closed before the start). */
  lateBookingWindowMinutes: number
}

const typeDetails = new Map<number, Promise<TypeDetails>>()

/** An event type's active questions, cutoff and booking window, read once per screen's life (a failed read again). */
export function readTypeDetails(eventTypeId: number): Promise<TypeDetails> {
  let details = typeDetails.get(eventTypeId)
  if (details === undefined) {
    details = Promise.all([
      readAll<EventQuestion>(`/api/event-types/${eventTypeId}/questions/`, { is_active: true }),
      api<EventType>('GET', `/api/event-types/${eventTypeId}/`),
    ]).then(([questions, type]) => ({
      questions,
      waitlistPromotionCutoffHours: type.waitlist_promotion_cutoff_hours,
      lateBookingWindowMinutes: type.late_booking_window_minutes,
    }))
    details.catch(() => typeDetails.delete(eventTypeId))
    typeDetails.set(eventTypeId, details)
  }
  return details
}

/** Forgets the types read, so a screen opened again asks their questions afresh. */
export const forgetTypeDetails = () => typeDetails.clear()

/**
 * The day's events and the chosen one's roster, read as the day or the choice changes and again
 * every REFRESH_MS (each read waiting for the one before); `reload` reads both at once, after a
 * change the desk made. The answers to a day or an event no longer shown are dropped.
 */
export function useClassDay(gymId: number, day: string, eventId: number | null) {
  const [events, setEvents] = useState<ClassEvent[] | null>(null)
  const [roster, setRoster] = useState<Roster | null>(null)
  const [error, setError] = useState<string | null>(null)
  const wanted = useRef({ day, eventId })
  wanted.current = { day, eventId }

  const reload = async () => {
    const asked = { day, eventId }
    try {
      const [dayEvents, eventRoster] = await Promise.all([
        readDay(gymId, asked.day),
        asked.eventId === null ? null : readRoster(asked.eventId),
      ])
      if (wanted.current.day !== asked.day) return
      setEvents(dayEvents)
      if (wanted.current.eventId === asked.eventId) setRoster(eventRoster)
      setError(null)
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 401)) setError(messageOf(e))
    }
  }
  const reloadRef = useRef(reload)
  reloadRef.current = reload

  useEffect(() => {
    setEvents(null)
    setError(null)
  }, [day])
  useEffect(() => {
    if (roster?.eventId !== eventId) setRoster(null)
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const refresh = async () => {
      await reloadRef.current()
      if (!stopped) timer = setTimeout(refresh, REFRESH_MS)
    }
    void refresh()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [gymId, day, eventId])
  useEffect(() => forgetTypeDetails, [])

  return { events, roster: roster?.eventId === eventId ? roster : null, error, reload }
}
