import { useState } from 'preact/hooks'
import { foundSummary, useCustomerSearch } from '../customers.ts'
import { useFocusOnShow } from '../focus.ts'
import { fullName } from '../format.ts'
import type { ScreenProps } from '../screens.ts'
import { CustomerPage } from './customer-page.tsx'
import { WalkInSignUp } from './walk-in.tsx'

/**
 * Up and down move between the search box and the matches, as in any list of suggestions; Tab
 * walks the same buttons, and Enter opens the one with the focus.
 */
function moveThroughMatches(event: KeyboardEvent) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
  const screen = (event.currentTarget as HTMLElement).closest('main')!
  const stops = [...screen.querySelectorAll<HTMLElement>('input[name="search"], .matches button')]
  const at = stops.indexOf(document.activeElement as HTMLElement)
  const next = stops[at + (event.key === 'ArrowDown' ? 1 : -1)]
  if (at === -1 || next === undefined) return
  event.preventDefault()
  next.focus()
}

/** Find a customer by name, email or barcode, and open their page. */
export function CustomersScreen({ gym }: ScreenProps) {
  const { text, setText, found, error, search } = useCustomerSearch()
  const [opened, setOpened] = useState<{ id: number; notice?: string } | null>(null)
  const [signingUp, setSigningUp] = useState(false)
  const searchBox = useFocusOnShow<HTMLInputElement>()

  if (opened !== null)
    return (
      <main class="customers">
        <CustomerPage
          customerId={opened.id}
          notice={opened.notice}
          gym={gym}
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
          onCancel={() => setSigningUp(false)}
        />
      </main>
    )

  return (
    <main class="customers" onKeyDown={moveThroughMatches}>
      <form class="search-bar" onSubmit={search} role="search">
        <label>
          Name, email or barcode
          <input
            ref={searchBox}
            type="search"
            name="search"
            autocomplete="off"
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Search</button>
        <span class="spacer" />
        <button type="button" class="quiet" onClick={() => setSigningUp(true)}>
          Sign up a walk-in
        </button>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {found && (
        <>
          <p class="found" role="status">
            {foundSummary(found)}
          </p>
          <ul class="matches">
            {found.results.map((c) => (
              <li key={c.id}>
                <button class="match" onClick={() => setOpened({ id: c.id })}>
                  <span class="name">{fullName(c.first_name, c.last_name)}</span>
                  <span class="details">{[c.email, c.barcode].filter((d) => d !== null).join(' · ')}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </main>
  )
}
