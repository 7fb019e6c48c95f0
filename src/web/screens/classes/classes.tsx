import { useEffect, useState } from 'preact/hooks'
import { ApiError, messageOf } from '../../api.ts'
import { CheckInCard } from '../../components/check-in-card.tsx'
import { ErrorLine } from '../../components/error-line.tsx'
import { resultTone, type ScanResult } from '../../desk-check-in.ts'
import { timeInZone, todayIn } from '../../format.ts'
import type { Account, ClassEvent, Gym } from '../../types.ts'
import type { DeskPlace, ScreenProps } from '../screen-props.ts'
import { ClassBooking } from './class-booking.tsx'
import { readTypeDetails, useClassDay, type Roster, type TypeDetails } from './class-data.ts'
import { ClassRoster, type Said } from './class-roster.tsx'
import { dayHeading, dayLabel, pickerDays, spotsTone, spotsWords } from './class-words.ts'
import './classes.css'

/** A check-in's card shows this long unless it is a refusal, as at the check-in screen. */
const CARD_SHOWN_MS = 6000

/** Checking a customer in is the desk's check-in by id, which needs the manage-members permission. */
const mayCheckIn = (a: Account) => a.can_manage_members || a.is_organization_admin

/** The event to show first: the first not yet over and not cancelled, else the first. */
function firstToShow(events: ClassEvent[]): ClassEvent | undefined {
  const now = Date.now()
  return events.find((e) => !e.is_cancelled && Date.parse(e.end_at) > now) ?? events[0]
}

/** When booking the event closes: its start plus its type's late booking window. */
const bookingClosesAt = (event: ClassEvent, details: TypeDetails): string =>
  new Date(Date.parse(event.start_at) + details.lateBookingWindowMinutes * 60_000).toISOString()

/** Whether booking it has closed, by the desk's clock (the API refuses a booking sent later anyway). */
const bookingClosed = (event: ClassEvent, details: TypeDetails): boolean =>
  Date.now() > Date.parse(bookingClosesAt(event, details))

/** Up and down move between the day's events, as in any list; Enter or Space opens one. */
function moveThroughEvents(event: KeyboardEvent) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
  const list = event.currentTarget as HTMLElement
  const stops = [...list.querySelectorAll<HTMLElement>('button.class-item')]
  const at = stops.indexOf(document.activeElement as HTMLElement)
  const next = stops[at + (event.key === 'ArrowDown' ? 1 : -1)]
  if (at === -1 || next === undefined) return
  event.preventDefault()
  next.focus()
}

/**
 * Today's and the coming days' classes at the desk's gym, each with its spots and waitlist; the
 * chosen one's roster (answers, check-in, cancel), its waitlist (promote, remove) and booking a
 * customer onto it, or onto its waitlist when it is full.
 */
export function ClassesScreen({ account, gym, open }: ScreenProps) {
  const today = todayIn(gym.time_zone)
  const [day, setDay] = useState(today)
  const [chosenId, setChosenId] = useState<number | null>(null)
  const { events, roster, error, reload } = useClassDay(gym.id, day, chosenId)
  const chosen = events?.find((e) => e.id === chosenId) ?? null

  useEffect(() => {
    if (events === null || chosen !== null) return
    setChosenId(firstToShow(events)?.id ?? null)
  }, [events])

  const pickDay = (next: string) => {
    if (next === day) return
    setDay(next)
    setChosenId(null)
  }

  return (
    <main class="classes">
      <div role="group" aria-label="Day" class="class-days">
        {pickerDays(today).map((d) => (
          <button key={d} type="button" class="quiet" aria-pressed={d === day} onClick={() => pickDay(d)}>
            {dayLabel(d, today)}
          </button>
        ))}
      </div>
      <ErrorLine message={error} />
      <div class="classes-body">
        <section class="class-list" aria-labelledby="class-list-heading">
          <h2 id="class-list-heading">
            {dayHeading(day, today)}
            <span class="muted"> · {gym.name}</span>
          </h2>
          {events === null ? (
            error === null && <p>Loading the classes…</p>
          ) : events.length === 0 ? (
            <p class="muted">No classes on this day.</p>
          ) : (
            <ul onKeyDown={moveThroughEvents}>
              {events.map((e) => (
                <li key={e.id}>
                  <button
                    type="button"
                    class={`class-item ${spotsTone(e)}`}
                    aria-current={e.id === chosenId ? 'true' : undefined}
                    onClick={() => setChosenId(e.id)}
                  >
                    <span class="class-time">{timeInZone(e.start_at, gym.time_zone)}</span>
                    <span class="class-name">{e.name}</span>
                    <span class="class-spots">{spotsWords(e)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        {chosen && (
          <ClassDetail
            key={chosen.id}
            event={chosen}
            roster={roster}
            gym={gym}
            isToday={day === today}
            checkInAllowed={mayCheckIn(account)}
            open={open}
            reload={reload}
          />
        )}
      </div>
    </main>
  )
}

/** The event's type's questions and cutoff, or why they could not be read. */
function useTypeDetails(eventTypeId: number) {
  const [details, setDetails] = useState<TypeDetails | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let current = true
    readTypeDetails(eventTypeId)
      .then((read) => current && setDetails(read))
      .catch((e: unknown) => {
        if (current && !(e instanceof ApiError && e.status === 401))
          setError(`Its questions could not be read: ${messageOf(e)}`)
      })
    return () => {
      current = false
    }
  }, [eventTypeId])
  return { details, error }
}

/** One event: when, its spots, what the last change did, the check-in card, booking, roster. */
function ClassDetail({
  event,
  roster,
  gym,
  isToday,
  checkInAllowed,
  open,
  reload,
}: {
  event: ClassEvent
  roster: Roster | null
  gym: Gym
  isToday: boolean
  checkInAllowed: boolean
  open: (place: DeskPlace) => void
  reload: () => Promise<void>
}) {
  const { details, error } = useTypeDetails(event.event_type_id)
  const [said, setSaid] = useState<Said | null>(null)
  const [card, setCard] = useState<ScanResult | null>(null)
  // A green or amber card clears itself, as at the check-in screen; a red one stays until dismissed.
  useEffect(() => {
    if (card === null || resultTone(card) === 'refused') return
    const timer = setTimeout(() => setCard(null), CARD_SHOWN_MS)
    return () => clearTimeout(timer)
  }, [card])
  // What a change did is said once the roster shows it.
  const changed = async (next: Said | null) => {
    await reload()
    setSaid(next)
    if (next !== null) setCard(null)
  }
  const when = `${timeInZone(event.start_at, gym.time_zone)}–${timeInZone(event.end_at, gym.time_zone)}`

  return (
    <section class="class-detail" aria-labelledby="class-detail-heading">
      <h2 id="class-detail-heading">{event.name}</h2>
      <p class={`class-facts ${spotsTone(event)}`}>
        {when} · {spotsWords(event)}
        {event.event_type_name !== event.name && <span class="muted"> · {event.event_type_name}</span>}
      </p>
      {said &&
        (said.refused ? (
          <ErrorLine message={said.text} />
        ) : (
          <p class="done" role="status">
            {said.text}
          </p>
        ))}
      {card && <CheckInCard result={card} gym={gym} open={open} onDismiss={() => setCard(null)} />}
      {event.is_cancelled ? (
        <p class="muted">This class is cancelled: nobody can book it.</p>
      ) : (
        <>
          <ErrorLine message={error} />
          {details && bookingClosed(event, details) ? (
            <p class="muted">
              Booking closed at {timeInZone(bookingClosesAt(event, details), gym.time_zone)}.
            </p>
          ) : (
            details && (
              <ClassBooking
                event={event}
                questions={details.questions}
                onDone={(text) => void changed({ text, refused: false })}
              />
            )
          )}
        </>
      )}
      {roster === null ? (
        <p>Loading the roster…</p>
      ) : (
        <ClassRoster
          event={event}
          roster={roster}
          cutoffHours={details?.waitlistPromotionCutoffHours ?? null}
          checkInAllowed={checkInAllowed && isToday}
          onCard={(result) => {
            setSaid(null)
            setCard(result)
          }}
          onChanged={changed}
        />
      )}
      {!checkInAllowed && isToday && (
        <p class="muted">Checking customers in needs the manage-members permission.</p>
      )}
    </section>
  )
}
