import { useState } from 'preact/hooks'
import { api, ApiError, query } from '../../api.ts'
import { fullName } from '../../format.ts'
import type { Customer, Gym, Page } from '../../types.ts'
import type { DeskPlace } from '../screen-props.ts'
import { OutcomeLine, type Act, type Outcome } from './customer-action.tsx'
import { KioskPin } from './kiosk-pin.tsx'

/** What the desk does for the customer besides checking them in: free entry, a member's guest, a waiver, a kiosk PIN. */
export function DeskActions({
  customer,
  name,
  gym,
  open,
  outcome,
  act,
}: {
  customer: Customer
  name: string
  gym: Gym
  open: (place: DeskPlace) => void
  outcome: Outcome | null
  act: Act
}) {
  const [reason, setReason] = useState('')
  const [hostBarcode, setHostBarcode] = useState('')
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
  return (
    <section aria-labelledby="actions-heading">
      <h3 id="actions-heading">At the desk</h3>
      <form class="action" onSubmit={letInFree}>
        <label>
          Reason for free entry
          <input name="free_entry_reason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
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
        <button type="button" onClick={() => open({ screen: 'waiver', customerId: customer.id })}>
          Sign waiver
        </button>
      </div>
      <KioskPin customerId={customer.id} />
    </section>
  )
}
