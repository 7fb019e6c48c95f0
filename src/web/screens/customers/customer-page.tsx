import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, messageOf, query } from '../../api.ts'
import { useFocusOnShow } from '../../focus.ts'
import { fullName, wallClockTime } from '../../format.ts'
import type {
  Credit,
  Customer,
  CustomerAlert,
  CustomerCheckIn,
  CustomerEntryPass,
  CustomerMembership,
  CustomerRecord,
  Gym,
  Page,
} from '../../types.ts'
import { ErrorLine } from '../../components/error-line.tsx'
import { CheckInCard } from '../../components/check-in-card.tsx'
import { Family } from '../../components/family.tsx'
import { checkInById, type ScanResult } from '../../desk-check-in.ts'
import type { DeskPlace } from '../screen-props.ts'
import { EditDetails, GiveCard, type CustomerDetails } from './customer-details.tsx'
import { CustomerIdentity, type Identified } from './customer-identity.tsx'
import './customer-page.css'
import { KioskPin } from './kiosk-pin.tsx'
import { LostCards } from './lost-cards.tsx'

/** The check-ins the page lists, newest first. */
const RECENT_CHECK_INS = 10
/** More than any one customer holds; the page lists them all. */
const ALL = 100

/** The membership statuses in the desk's words. */
const MEMBERSHIP_STATUSES: Record<string, string> = {
  ACT: 'Active',
  IPP: 'Active, first payment processing',
  PPR: 'Active, renewal payment processing',
  FRZ: 'Frozen',
  FPR: 'Frozen, freeze payment processing',
  PAF: 'Renewal payment failed',
  FPF: 'Freeze payment failed',
  PAY: 'Not started, awaiting payment',
  IPC: 'Not started, awaiting payment',
  CAN: 'Cancelled',
  END: 'Ended',
  DEN: 'Denied',
}

/** The colours an alert can be given at the desk, each distinct at a glance beside dark text. */
const ALERT_COLOURS = [
  { name: 'Red', hex: 'FF0000' },
  { name: 'Amber', hex: 'FFB000' },
  { name: 'Blue', hex: '1F6FEB' },
  { name: 'Green', hex: '1A7F37' },
  { name: 'Grey', hex: '59636E' },
]

interface Profile {
  customer: CustomerRecord & CustomerDetails & Identified
  alerts: CustomerAlert[]
  memberships: CustomerMembership[]
  passes: CustomerEntryPass[]
  credits: Credit[]
  checkIns: Page<CustomerCheckIn>
}

async function loadProfile(id: number): Promise<Profile> {
  const [customer, alerts, memberships, passes, credits, checkIns] = await Promise.all([
    api<CustomerRecord & CustomerDetails & Identified>('GET', `/api/customers/${id}/`),
    api<Page<CustomerAlert>>(
      'GET',
      `/api/customers/${id}/alerts/${query({ is_active: true, page_size: ALL })}`,
    ),
    api<Page<CustomerMembership>>(
      'GET',
      `/api/customer-memberships/${query({ owner_id: id, page_size: ALL })}`,
    ),
    api<Page<CustomerEntryPass>>(
      'GET',
      `/api/customer-entry-passes/${query({ owner_id: id, page_size: ALL })}`,
    ),
    api<Page<Credit>>('GET', `/api/customers/${id}/credits/${query({ page_size: ALL })}`),
    api<Page<CustomerCheckIn>>(
      'GET',
      `/api/customers/${id}/check-ins/${query({ page_size: RECENT_CHECK_INS })}`,
    ),
  ])
  return {
    customer,
    alerts: alerts.results,
    memberships: memberships.results,
    passes: passes.results,
    credits: credits.results.filter((c) => !c.is_removed),
    checkIns,
  }
}

function waiverState(c: CustomerRecord): string {
  const until = c.latest_waiver_expiration_date
  if (c.active_waiver_exists) return until === null ? 'Signed, never expires' : `Signed, valid until ${until}`
  return until === null ? 'No waiver' : `Expired on ${until}`
}

function passState(p: CustomerEntryPass): string {
  const entries = `${p.entries_remaining} of ${p.entries_total} ${p.entries_total === 1 ? 'entry' : 'entries'} left`
  if (p.is_expired) return `${entries}, expired on ${p.expiry_date}`
  return p.expiry_date === null ? entries : `${entries}, until ${p.expiry_date}`
}

const money = (amount: number) => amount.toFixed(2)

/** Which action answered last, and what: shown under that action's form. */
interface Outcome {
  action: 'free-entry' | 'guest' | 'waiver' | 'alerts'
  text: string
  refused: boolean
}

function OutcomeLine({ outcome, action }: { outcome: Outcome | null; action: Outcome['action'] }) {
  if (outcome === null || outcome.action !== action) return null
  return outcome.refused ? (
    <ErrorLine message={outcome.text} />
  ) : (
    <p class="done" role="status">
      {outcome.text}
    </p>
  )
}

/**
 * One customer: who they are, whether they may climb (waiver, alerts, what lets them in), their
 * credits and last visits; and what the desk does for them, each through its API endpoint, the
 * API's own words shown when it refuses.
 */
export function CustomerPage({
  customerId,
  notice,
  gym,
  open,
  onBack,
}: {
  customerId: number
  /** What brought the desk here, said under the name (a walk-in just signed up). */
  notice?: string
  gym: Gym
  open: (place: DeskPlace) => void
  onBack: () => void
}) {
  const [card, setCard] = useState<ScanResult | null>(null)
  const [editing, setEditing] = useState(false)
  const [profile, setProfile] = useState<Profile | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const [reason, setReason] = useState('')
  const [hostBarcode, setHostBarcode] = useState('')
  const [alertText, setAlertText] = useState('')
  const [alertColour, setAlertColour] = useState(ALERT_COLOURS[0]!.hex)
  const [alertStops, setAlertStops] = useState(false)
  const heading = useFocusOnShow<HTMLHeadingElement>()

  const reload = async () => {
    try {
      setProfile(await loadProfile(customerId))
      setLoadError(null)
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 401)) setLoadError(messageOf(e))
    }
  }
  useEffect(() => void reload(), [customerId])

  /** Sends one action; says it is done, the page read again, or shows the API's refusal. */
  const act = async (
    action: Outcome['action'],
    request: () => Promise<unknown>,
    done: string | (() => string),
  ) => {
    try {
      await request()
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 401))
        setOutcome({ action, text: messageOf(e), refused: true })
      return false
    }
    setOutcome({ action, text: typeof done === 'string' ? done : done(), refused: false })
    await reload()
    return true
  }

  const back = (
    <button class="quiet" onClick={onBack}>
      Back to the search
    </button>
  )
  if (profile === null)
    return (
      <>
        {back}
        {loadError ? <p role="alert">{loadError}</p> : <p>Loading the customer…</p>}
      </>
    )

  const { customer, alerts, memberships, passes, credits, checkIns } = profile
  const name = fullName(customer.first_name, customer.last_name)
  const path = `/api/customers/${customer.id}`

  /** By the door's rules, its card shown under the name. */
  const checkIn = async () => {
    const result = await checkInById(customer.id, gym.id)
    if (result === null) return
    setCard(result)
    if (result.kind === 'checked_in') await reload()
  }

  const letInFree = async (event: Event) => {
    event.preventDefault()
    const sent = reason
    const ok = await act(
      'free-entry',
      () =>
        api('POST', `/api/gym-endpoints/free-entry-check-in/${customer.id}/`, {
          free_entry_reason: sent,
          location_id: gym.id,
        }),
      `${name} let in free at ${gym.name}.`,
    )
    if (ok) setReason('')
  }
  /** The host shows their card: their barcode finds them, and the API decides on their guest passes. */
  const checkInAsGuest = async (event: Event) => {
    event.preventDefault()
    const barcode = hostBarcode.trim()
    let host: Customer | undefined
    const ok = await act(
      'guest',
      async () => {
        // Without a barcode, the API itself says that a host is needed.
        if (barcode !== '') {
          const found = await api<Page<Customer>>(
            'GET',
            `/api/customers/${query({ barcode, is_active: true, page_size: 1 })}`,
          )
          host = found.results[0]
          if (host === undefined)
            throw new ApiError(404, { detail: `No active customer has the barcode ${barcode}.` })
        }
        return api('POST', `/api/gym-endpoints/guest-check-in/${customer.id}/`, {
          host_customer_id: host?.id,
          location_id: gym.id,
        })
      },
      () => `${name} checked in as ${fullName(host!.first_name, host!.last_name)}'s guest at ${gym.name}.`,
    )
    if (ok) setHostBarcode('')
  }
  const addAlert = async (event: Event) => {
    event.preventDefault()
    const ok = await act(
      'alerts',
      () =>
        api('POST', `${path}/alerts/`, {
          alert_text: alertText,
          color_hex: alertColour,
          prevents_check_in: alertStops,
        }),
      'Alert added.',
    )
    if (ok) {
      setAlertText('')
      setAlertStops(false)
    }
  }
  const retire = (alert: CustomerAlert) =>
    act(
      'alerts',
      () => api('PATCH', `${path}/alerts/${alert.id}/`, { is_active: false }),
      `Alert retired: ${alert.alert_text}`,
    )

  return (
    <article class="customer" aria-label={name}>
      {back}
      <CustomerIdentity
        customer={customer}
        timeZone={gym.time_zone}
        heading={heading}
        onChanged={() => void reload()}
      >
        <button type="button" class="check-in-now" onClick={() => void checkIn()}>
          Check in
        </button>
      </CustomerIdentity>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <ErrorLine message={loadError} />
      {card && (
        <CheckInCard result={card} gym={gym} open={open} onDismiss={() => setCard(null)} fromCustomerPage />
      )}
      {editing ? (
        <EditDetails
          customer={customer}
          onSaved={() => {
            setEditing(false)
            void reload()
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <>
          <dl class="identity">
            <dt>Email</dt>
            <dd>{customer.email ?? 'None'}</dd>
            <dt>Phone</dt>
            <dd>{customer.telephone || 'None'}</dd>
            <dt>Birthday</dt>
            <dd>{customer.birthday}</dd>
            <dt>Card</dt>
            <dd>{customer.barcode ?? 'No card'}</dd>
            <dt>Waiver</dt>
            <dd class={customer.active_waiver_exists ? 'waiver' : 'waiver missing'}>
              {waiverState(customer)}
            </dd>
          </dl>
          <button type="button" class="quiet" onClick={() => setEditing(true)}>
            Edit details
          </button>
        </>
      )}
      <GiveCard customer={customer} onSaved={() => void reload()} />
      <Family customerId={customer.id} gym={gym} />

      <section aria-labelledby="alerts-heading">
        <h3 id="alerts-heading">Alerts</h3>
        {alerts.length === 0 && customer.site_conflicts.length === 0 ? (
          <p class="muted">No alerts.</p>
        ) : (
          <ul class="alerts">
            <LostCards lost={customer.site_conflicts} />
            {alerts.map((a) => (
              <li key={a.id} style={{ borderLeftColor: `#${a.color_hex}` }}>
                <span>
                  {a.alert_text}
                  {a.prevents_check_in && <strong> (stops check-in)</strong>}
                </span>
                <button
                  class="small quiet"
                  onClick={() => void retire(a)}
                  aria-label={`Retire alert: ${a.alert_text}`}
                >
                  Retire
                </button>
              </li>
            ))}
          </ul>
        )}
        <form class="action" onSubmit={addAlert}>
          <label>
            New alert
            <input name="alert_text" value={alertText} onInput={(e) => setAlertText(e.currentTarget.value)} />
          </label>
          <label>
            Colour
            <select
              name="color_hex"
              value={alertColour}
              onChange={(e) => setAlertColour(e.currentTarget.value)}
            >
              {ALERT_COLOURS.map((c) => (
                <option key={c.hex} value={c.hex}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <label class="inline">
            <input
              type="checkbox"
              name="prevents_check_in"
              checked={alertStops}
              onChange={(e) => setAlertStops(e.currentTarget.checked)}
            />
            Stops check-in
          </label>
          <button type="submit">Add alert</button>
        </form>
        <OutcomeLine outcome={outcome} action="alerts" />
      </section>

      <section aria-labelledby="entry-heading">
        <h3 id="entry-heading">Memberships and entry passes</h3>
        {memberships.length === 0 && passes.length === 0 ? (
          <p class="muted">No membership or entry pass.</p>
        ) : (
          <ul class="holdings">
            {memberships.map((m) => (
              <li key={`m${m.id}`}>
                {m.membership_name}: {MEMBERSHIP_STATUSES[m.status] ?? m.status}, from {m.start_date}
                {m.end_date !== null && ` to ${m.end_date}`}
              </li>
            ))}
            {passes.map((p) => (
              <li key={`p${p.id}`}>
                {p.entry_pass_name}: {passState(p)}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="credits-heading">
        <h3 id="credits-heading">Credits</h3>
        {credits.length === 0 ? (
          <p class="muted">No credits.</p>
        ) : (
          <ul class="credits">
            {credits.map((c) => (
              <li key={c.id}>
                {money(c.amount_remaining)} of {money(c.amount_total)} left,{' '}
                {c.is_expired ? `expired ${c.expiry_date_str}` : `expires ${c.expiry_date_str}`}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="check-ins-heading">
        <h3 id="check-ins-heading">Last check-ins</h3>
        {checkIns.count === 0 ? (
          <p class="muted">Never checked in.</p>
        ) : (
          <table class="check-ins">
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">In</th>
                <th scope="col">Gym</th>
                <th scope="col">Entry</th>
              </tr>
            </thead>
            <tbody>
              {checkIns.results.map((c) => (
                <tr key={c.id}>
                  <td>{c.check_in_datetime.slice(0, 10)}</td>
                  <td>{wallClockTime(c.check_in_datetime)}</td>
                  <td>{c.location_name}</td>
                  <td>
                    {c.entry_method_description}
                    {c.free_entry_reason !== '' && `: ${c.free_entry_reason}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="actions-heading">
        <h3 id="actions-heading">At the desk</h3>
        <form class="action" onSubmit={letInFree}>
          <label>
            Reason for free entry
            <input
              name="free_entry_reason"
              value={reason}
              onInput={(e) => setReason(e.currentTarget.value)}
            />
          </label>
          <button type="submit">Let in free</button>
        </form>
        <OutcomeLine outcome={outcome} action="free-entry" />
        <form class="action" onSubmit={checkInAsGuest}>
          <label>
            Guest of the member with the barcode
            <input
              name="host_barcode"
              autocomplete="off"
              value={hostBarcode}
              onInput={(e) => setHostBarcode(e.currentTarget.value)}
            />
          </label>
          <button type="submit">Check in as a guest</button>
        </form>
        <OutcomeLine outcome={outcome} action="guest" />
        {/* A waiver is signed by the customer, on the waiver screen: the desk never ticks it for them. */}
        <div class="action">
          <button type="button" onClick={() => open({ screen: 'waiver', customerId })}>
            Sign waiver
          </button>
        </div>
        <KioskPin customerId={customerId} />
      </section>
    </article>
  )
}
