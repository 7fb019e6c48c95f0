import { fullName, timeInZone } from '../../format.ts'
import type { CheckedIn, Gym, RefusalCode, Refused } from '../../types.ts'

/** What the last scan answered, for the card. */
export type ScanResult =
  | { kind: 'checked_in'; checkIn: CheckedIn }
  | { kind: 'refused'; barcode: string; refusal: Refused }
  | { kind: 'failed'; message: string }

/** Why the door said no, in the desk's words (the alerts themselves are listed below it). */
const REASONS: Record<RefusalCode, string> = {
  customer_not_found: 'No active customer has this barcode.',
  check_in_alerts: 'Held by an alert:',
  duplicate_check_in: 'Already checked in here in the last 5 minutes.',
  no_entry_method: 'No entry method: no active membership, entry pass or event booking.',
  invalid_location: "This desk's gym is not known any more: choose the gym again.",
}

/** The large card a scan shows: green when the customer is in, red with the reason when not. */
export function CheckInCard({ result, gym }: { result: ScanResult; gym: Gym }) {
  if (result.kind === 'checked_in') {
    const c = result.checkIn
    const milestones = c.milestones === '' ? [] : c.milestones.split('\n')
    return (
      <section class="card ok" aria-label="Scan result">
        <p class="verdict">Checked in</p>
        <h2>{fullName(c.customer_first_name, c.customer_last_name)}</h2>
        <p class="entry">{c.entry_method_description}</p>
        <p class="count">Check-in number {c.check_in_count}</p>
        {milestones.length > 0 && (
          <ul class="milestones">
            {milestones.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        )}
        {c.customer_alerts.length > 0 && (
          <ul class="alerts">
            {c.customer_alerts.map((a) => (
              <li key={a.alert_text} style={{ borderLeftColor: `#${a.color_hex}` }}>
                {a.alert_text}
              </li>
            ))}
          </ul>
        )}
        {c.reservations.length > 0 && (
          <ul class="reservations">
            {c.reservations.map((r) => (
              <li key={r.id}>
                {r.event_name}, {timeInZone(r.start_datetime, gym.time_zone)}–
                {timeInZone(r.end_datetime, gym.time_zone)}
              </li>
            ))}
          </ul>
        )}
      </section>
    )
  }
  if (result.kind === 'failed')
    return (
      <section class="card refused" aria-label="Scan result">
        <p class="verdict">Not checked in</p>
        <p class="reason">{result.message}</p>
      </section>
    )
  const r = result.refusal
  const name = fullName(r.customer_first_name, r.customer_last_name)
  return (
    <section class="card refused" aria-label="Scan result">
      <p class="verdict">Not checked in</p>
      <h2>{name === '' ? `Barcode ${result.barcode}` : name}</h2>
      <p class="reason">{REASONS[r.error] ?? r.error}</p>
      {r.alerts && r.alerts.length > 0 && (
        <ul class="alerts">
          {r.alerts.map((a) => (
            <li key={a}>{a}</li>
          ))}
        </ul>
      )}
    </section>
  )
}
