import { useState } from 'preact/hooks'
import { useCustomerSearch } from '../../customers.ts'
import type { ScreenProps } from '../screen-props.ts'
import { CustomerFinder } from '../../components/customer-finder.tsx'
import { CustomerPage } from './customer-page.tsx'
import { WalkInSignUp } from './walk-in.tsx'

/** Find a customer by name, email or barcode, and open their page (at once when the desk names one). */
export function CustomersScreen({ gym, place, open }: ScreenProps) {
  const searching = useCustomerSearch()
  const [opened, setOpened] = useState<{ id: number; notice?: string } | null>(
    place.customerId === undefined ? null : { id: place.customerId },
  )
  const [signingUp, setSigningUp] = useState(false)

  if (opened !== null)
    return (
      <main class="customers">
        <CustomerPage
          customerId={opened.id}
          notice={opened.notice}
          gym={gym}
          open={open}
          onBack={() => setOpened(null)}
        />
      </main>
    )
  if (signingUp)
    return (
      <main class="customers">
        <WalkInSignUp
          onSignedUp={(signedUp) => {
            setSigningUp(false)
            setOpened(signedUp)
          }}
          onSignWaiver={(customerId) => open({ screen: 'waiver', customerId })}
          onCancel={() => setSigningUp(false)}
        />
      </main>
    )

  return (
    <main class="customers">
      <CustomerFinder
        searching={searching}
        submitLabel="Search"
        onChoose={(c) => setOpened({ id: c.id })}
        checkIn={{ gym, open }}
      >
        <span class="spacer" />
        <button type="button" class="quiet" onClick={() => setSigningUp(true)}>
          Sign up a walk-in
        </button>
      </CustomerFinder>
    </main>
  )
}
