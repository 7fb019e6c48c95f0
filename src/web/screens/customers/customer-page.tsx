import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, messageOf, query } from '../../api.ts'
import { useFocusOnShow } from '../../focus.ts'
import { fullName } from '../../format.ts'
import type {
  Credit,
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
import { useCustomerAction } from './customer-action.tsx'
import { CustomerAlerts } from './customer-alerts.tsx'
import { CustomerHoldings } from './customer-holdings.tsx'
import { CustomerIdentity, type Identified } from './customer-identity.tsx'
import { DeskActions } from './desk-actions.tsx'
import './customer-page.css'

/** The check-ins the page lists, newest first. */
const RECENT_CHECK_INS = 10
/** More than any one customer holds; the page lists them all. */
const ALL = 100

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
  const { outcome, act } = useCustomerAction(reload)

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

      <CustomerAlerts
        path={path}
        alerts={alerts}
        lostCards={customer.site_conflicts}
        outcome={outcome}
        act={act}
      />

      <CustomerHoldings memberships={memberships} passes={passes} credits={credits} checkIns={checkIns} />

      <DeskActions customer={customer} name={name} gym={gym} open={open} outcome={outcome} act={act} />
    </article>
  )
}
