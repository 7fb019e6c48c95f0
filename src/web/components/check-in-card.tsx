import type { DeskPlace } from '../screens/screen-props.ts'
import { resultCustomer, resultTone, type ScanResult } from '../desk-check-in.ts'
import { fullName, timeInZone, todayIn, wallClockTime } from '../format.ts'
import type { Gym } from '../types.ts'
import { AgeBadge, CustomerPhoto } from './customer-photo.tsx'
import { Family } from './family.tsx'
import './check-in-card.css'

const WAIVER_REASONS = ['no_waiver', 'waiver_expired']
/** The family list reads after the card has been seen, never in the way of the next scan's answer. */
const FAMILY_AFTER_MS = 400

/** A refusal's way forward: sign the waiver, sell a pass, or open the customer. */
function Actions({
  result,
  open,
  onDismiss,
  fromCustomerPage,
}: {
  result: ScanResult
  open: (place: DeskPlace) => void
  onDismiss?: () => void
  fromCustomerPage?: boolean
}) {
  const customer = resultCustomer(result)
  const refusal = result.kind === 'refused' ? result.refusal : null
  const needsWaiver = refusal?.reasons.some((r) => WAIVER_REASONS.includes(r.code)) ?? false
  return (
    <div class="card-actions">
      {customer && needsWaiver && (
        <button type="button" onClick={() => open({ screen: 'waiver', customerId: customer.id })}>
          Sign waiver
        </button>
      )}
      {customer && refusal?.error === 'no_entry_method' && (
        <button type="button" onClick={() => open({ screen: 'sell', customerId: customer.id })}>
          Sell a day pass
        </button>
      )}
      {customer && !fromCustomerPage && (
        <button type="button" onClick={() => open({ screen: 'customers', customerId: customer.id })}>
          Open customer
        </button>
      )}
      {onDismiss && (
        <button type="button" class="dismiss" onClick={onDismiss}>
          Dismiss
        </button>
      )}
    </div>
  )
}

/** Whom a card is about, as the answer names them. */
interface Named {
  customer_first_name: string
  customer_last_name: string
  customer_birthday: string | null
  customer_profile_image_url: string | null
}

/**
 * The face to compare with the one at the counter, and the age (a minor's badge): beside the card's
 * text, though last in it, so the card reads verdict first. The photo loads after the card has
 * shown; the card never waits for it.
 */
function Who({ named, gym }: { named: Named; gym: Gym }) {
  return (
    <div class="card-who">
      <CustomerPhoto
        size="medium"
        customer={{
          first_name: named.customer_first_name,
          last_name: named.customer_last_name,
          profile_image_url: named.customer_profile_image_url,
        }}
      />
      <AgeBadge birthday={named.customer_birthday} today={todayIn(gym.time_zone)} />
    </div>
  )
}

/**
 * The large card a check-in shows: green when the customer is in (with a notice to say, if any),
 * amber when they are already inside, red with the reasons and a way forward when not.
 */
export function CheckInCard({
  result,
  gym,
  open,
  onDismiss,
  onFamilyResult,
  fromCustomerPage,
}: {
  result: ScanResult
  gym: Gym
  open: (place: DeskPlace) => void
  /** On the customer's own page: no "Open customer". */
  fromCustomerPage?: boolean
  /** A red card stays until dismissed: given, it shows a Dismiss button. */
  onDismiss?: () => void
  /** Given, a green card lists the customer's family to check in too. */
  onFamilyResult?: (result: ScanResult) => void
}) {
  const tone = resultTone(result)
  if (result.kind === 'checked_in') {
    const c = result.checkIn
    return (
      <section class={`card ${tone}`} aria-label="Check-in result">
        <p class="verdict">Checked in</p>
        <h2>{fullName(c.customer_first_name, c.customer_last_name)}</h2>
        <p class="entry">{c.entry_method_description}</p>
        {c.notices.length > 0 && (
          <ul class="notices">
            {c.notices.map((n) => (
              <li key={n.code}>{n.detail}</li>
            ))}
          </ul>
        )}
        <p class="count">Check-in number {c.check_in_count}</p>
        {c.milestone_list.length > 0 && (
          <ul class="milestones">
            {c.milestone_list.map((m) => (
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
        {onFamilyResult && (
          <Family customerId={c.customer_id} gym={gym} onResult={onFamilyResult} delayMs={FAMILY_AFTER_MS} />
        )}
        <Who named={c} gym={gym} />
      </section>
    )
  }
  if (result.kind === 'duplicate') {
    const r = result.refusal
    return (
      <section class="card notice" aria-label="Check-in result">
        <p class="verdict">
          {r.inside_since ? `Already inside since ${wallClockTime(r.inside_since)}` : 'Already inside'}
        </p>
        <h2>{fullName(r.customer_first_name, r.customer_last_name)}</h2>
        <p class="reason">Checked in here a moment ago: nothing new recorded.</p>
        <Actions result={result} open={open} fromCustomerPage={fromCustomerPage} />
        <Who named={r} gym={gym} />
      </section>
    )
  }
  return (
    <section class="card refused" aria-label="Check-in result">
      <p class="verdict">Not checked in</p>
      {result.kind === 'refused' ? (
        <>
          <h2>{fullName(result.refusal.customer_first_name, result.refusal.customer_last_name)}</h2>
          <ul class="reasons">
            {result.refusal.reasons.map((r) => (
              <li key={`${r.code}${r.detail}`} class={r.code === 'alert' ? 'alert-reason' : undefined}>
                {r.detail}
              </li>
            ))}
          </ul>
        </>
      ) : result.kind === 'not_found' ? (
        <>
          <h2>Barcode {result.barcode}</h2>
          <p class="reason">No active customer has this barcode.</p>
        </>
      ) : (
        <p class="reason">{result.message}</p>
      )}
      <Actions result={result} open={open} onDismiss={onDismiss} fromCustomerPage={fromCustomerPage} />
      {result.kind === 'refused' && <Who named={result.refusal} gym={gym} />}
    </section>
  )
}
