import { useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import { checkInById, type ScanResult } from '../../desk-check-in.ts'
import { Confirm } from '../../components/confirm.tsx'
import { fullName } from '../../format.ts'
import type { Answer, ClassEvent, Reservation, WaitlistEntry } from '../../types.ts'
import type { Roster } from './class-data.ts'
import { answerWords } from './class-words.ts'

/** What an action on the roster says when it is done, or the API's refusal in its words. */
export interface Said {
  text: string
  refused: boolean
}

const HOUR_MS = 3_600_000

const nameOf = (r: { customer_first_name: string; customer_last_name: string }) =>
  fullName(r.customer_first_name, r.customer_last_name)

/**
 * Checks a booked customer in as the desk checks anyone in: the door's decision at the event's gym
 * (POST /api/customers/<id>/check-in/), which takes their entry from a reservation happening now
 * (EVE) before a membership or a pass, and marks that reservation checked in itself. Once they are
 * in (or already inside), the reservation is read again and, if the door took their entry another
 * way (the class has not started yet, or they came in earlier), marked checked in with PATCH. A
 * refusal marks nothing: the card says why.
 */
async function checkInAttendee(reservation: Reservation, gymId: number): Promise<ScanResult | null> {
  const result = await checkInById(reservation.customer_id, gymId)
  if (result === null || (result.kind !== 'checked_in' && result.kind !== 'duplicate')) return result
  const now = await api<Reservation>('GET', `/api/reservations/${reservation.id}/`)
  if (!now.checked_in) await api('PATCH', `/api/reservations/${reservation.id}/`, { checked_in: true })
  return result
}

/**
 * The event's bookings, each with the customer's answers, whether they are checked in (and a button
 * to check them in, on the event's own day, for staff who may check customers in) and a Cancel that
 * asks first; then the waitlist in order, each with a Remove that asks first, and Promote while the
 * class has a spot free. Cancelled bookings are listed apart, closed.
 */
export function ClassRoster({
  event,
  roster,
  cutoffHours,
  checkInAllowed,
  onCard,
  onChanged,
}: {
  event: ClassEvent
  roster: Roster
  /** The type's waitlist promotion cutoff: a spot opening earlier than this goes to the first waiting. */
  cutoffHours: number | null
  /** Whether "Check in" shows: the event's day, and staff who may check customers in. */
  checkInAllowed: boolean
  onCard: (result: ScanResult) => void
  /** After a change: the roster is read again and `said` shown (none: the last one cleared). */
  onChanged: (said: Said | null) => Promise<void>
}) {
  const [asking, setAsking] = useState<string | null>(null)
  /** Keep: the question goes, and the focus back to the button that asked it. */
  const keep = (asker: string) => {
    setAsking(null)
    setTimeout(() => document.querySelector<HTMLElement>(`[aria-label="${CSS.escape(asker)}"]`)?.focus())
  }
  const [busy, setBusy] = useState(false)
  const live = roster.reservations.filter((r) => !r.is_cancelled)
  const cancelled = roster.reservations.filter((r) => r.is_cancelled)
  const first = roster.waiting[0]
  // The API promotes only into a free spot: a full class offers no Promote.
  const full = event.spots_left === 0
  const movesUpByItself =
    cutoffHours !== null && Date.parse(event.start_at) - Date.now() > cutoffHours * HOUR_MS

  /**
   * One change: its request, then the roster read again and what it did said (a text is done, a
   * Said may be a refusal); null says nothing (the check-in's card speaks, or the session ended).
   */
  const act = async (request: () => Promise<string | Said | null>) => {
    if (busy) return
    setBusy(true)
    setAsking(null)
    let said: string | Said | null
    try {
      said = await request()
    } catch (e) {
      said = e instanceof ApiError && e.status === 401 ? null : { text: messageOf(e), refused: true }
    }
    await onChanged(typeof said === 'string' ? { text: said, refused: false } : said)
    setBusy(false)
  }

  const checkIn = (r: Reservation) =>
    act(async () => {
      const result = await checkInAttendee(r, event.gym_id)
      if (result === null) return null
      if (result.kind === 'failed') return { text: result.message, refused: true }
      onCard(result)
      return null
    })
  const cancel = (r: Reservation) =>
    act(async () => {
      await api('POST', `/api/reservations/${r.id}/cancel/`, {})
      const said = `${nameOf(r)}'s booking is cancelled.`
      if (first === undefined) return said
      const entry = await api<WaitlistEntry>('GET', `/api/waitlist-entries/${first.id}/`)
      return entry.status === 'PRO' ? `${said} ${nameOf(first)} has the spot, from the waitlist.` : said
    })
  const promote = (w: WaitlistEntry) =>
    act(async () => {
      await api('POST', `/api/waitlist-entries/${w.id}/promote/`, {})
      return `${nameOf(w)} is booked on ${event.name}, from the waitlist.`
    })
  const remove = (w: WaitlistEntry) =>
    act(async () => {
      await api('POST', `/api/waitlist-entries/${w.id}/cancel/`, {})
      return `${nameOf(w)} is off the waitlist.`
    })

  const spotGoesTo =
    first === undefined
      ? ''
      : movesUpByItself
        ? ` The spot goes to ${nameOf(first)}, first on the waitlist.`
        : ' The waitlist does not move up by itself this close to the start: promote by hand.'

  return (
    <>
      <section aria-labelledby="roster-heading">
        <h3 id="roster-heading">Booked ({live.length})</h3>
        {live.length === 0 ? (
          <p class="muted">Nobody is booked yet.</p>
        ) : (
          <ul class="roster">
            {live.map((r) => (
              <li key={r.id}>
                <Who name={nameOf(r)} answers={r.answers} />
                {asking === `r${r.id}` ? (
                  <Confirm
                    question={`Cancel ${nameOf(r)}'s booking?${spotGoesTo}`}
                    yes="Yes, cancel it"
                    onYes={() => void cancel(r)}
                    onKeep={() => keep(`Cancel ${nameOf(r)}'s booking`)}
                  />
                ) : (
                  <div class="row-actions">
                    {r.checked_in ? (
                      <span class="checked-in">Checked in</span>
                    ) : (
                      checkInAllowed &&
                      !event.is_cancelled && (
                        <button
                          type="button"
                          disabled={busy}
                          aria-label={`Check in ${nameOf(r)}`}
                          onClick={() => void checkIn(r)}
                        >
                          Check in
                        </button>
                      )
                    )}
                    <button
                      type="button"
                      class="quiet"
                      disabled={busy}
                      aria-label={`Cancel ${nameOf(r)}'s booking`}
                      onClick={() => setAsking(`r${r.id}`)}
                    >
                      Cancel
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
        {cancelled.length > 0 && (
          <details class="cancelled-bookings">
            <summary>Cancelled bookings ({cancelled.length})</summary>
            <ul class="roster">
              {cancelled.map((r) => (
                <li key={r.id}>
                  <Who name={nameOf(r)} answers={r.answers} />
                </li>
              ))}
            </ul>
          </details>
        )}
      </section>
      <section aria-labelledby="waitlist-heading">
        <h3 id="waitlist-heading">Waitlist ({roster.waiting.length})</h3>
        {roster.waiting.length === 0 ? (
          <p class="muted">Nobody is waiting.</p>
        ) : full ? (
          <p class="muted">Promote shows once a spot is free.</p>
        ) : null}
        {roster.waiting.length > 0 && (
          <ol class="roster waitlist">
            {roster.waiting.map((w) => (
              <li key={w.id}>
                <Who name={nameOf(w)} answers={w.answers} position={w.position} />
                {asking === `w${w.id}` ? (
                  <Confirm
                    question={`Take ${nameOf(w)} off the waitlist?`}
                    yes="Yes, remove"
                    onYes={() => void remove(w)}
                    onKeep={() => keep(`Remove ${nameOf(w)} from the waitlist`)}
                  />
                ) : (
                  <div class="row-actions">
                    {!full && (
                      <button
                        type="button"
                        disabled={busy}
                        aria-label={`Promote ${nameOf(w)}`}
                        onClick={() => void promote(w)}
                      >
                        Promote
                      </button>
                    )}
                    <button
                      type="button"
                      class="quiet"
                      disabled={busy}
                      aria-label={`Remove ${nameOf(w)} from the waitlist`}
                      onClick={() => setAsking(`w${w.id}`)}
                    >
                      Remove
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  )
}

/** A customer's name (their place on the waitlist before it) and their answers under it. */
function Who({ name, answers, position }: { name: string; answers: Answer[]; position?: number | null }) {
  return (
    <div class="who">
      <span class="name">
        {position != null && <span class="position">{position}.</span>}
        {name}
      </span>
      {answers.length > 0 && <span class="answers">{answers.map(answerWords).join(' · ')}</span>}
    </div>
  )
}
