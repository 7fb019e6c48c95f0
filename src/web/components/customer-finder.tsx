import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { foundSummary, type CustomerSearch } from '../customers.ts'
import { checkInById, type ScanResult } from '../desk-check-in.ts'
import { useFocusOnShow } from '../focus.ts'
import { fullName, todayIn } from '../format.ts'
import type { DeskPlace } from '../screens/screen-props.ts'
import type { Gym } from '../types.ts'
import { CheckInCard } from './check-in-card.tsx'
import { CustomerSummary, type FoundCustomer } from './customer-summary.tsx'
import { ErrorLine } from './error-line.tsx'

/**
 * Up and down move between the search box and the matches, as in any list of suggestions; Tab
 * walks the same buttons, and Enter chooses the one with the focus.
 */
function moveThroughMatches(event: KeyboardEvent) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
  const finder = event.currentTarget as HTMLElement
  const stops = [...finder.querySelectorAll<HTMLElement>('input[name="search"], .matches button.match')]
  const at = stops.indexOf(document.activeElement as HTMLElement)
  const next = stops[at + (event.key === 'ArrowDown' ? 1 : -1)]
  if (at === -1 || next === undefined) return
  event.preventDefault()
  next.focus()
}

/** The search box's label, also what the other screens' searches say. */
export const SEARCH_LABEL = 'Name, email or barcode, or phone'

/**
 * A search by name, email, barcode or phone, as staff type, and its matches, each a button that
 * chooses the customer (its photo, age, phone and status tell two of one name apart); the text
 * being exactly a customer's barcode chooses them at once. The search box takes the focus when it
 * shows. The search's state is the caller's (`searching`), so a
 * screen that shows something else for a while finds its matches again. `children` go in the
 * search bar after its button. Given `checkIn`, each match also has a "Check in" by the door's rules,
 * its card shown above the matches.
 */
export function CustomerFinder({
  searching,
  submitLabel,
  formLabel,
  onChoose,
  checkIn,
  children,
}: {
  searching: CustomerSearch
  submitLabel: string
  formLabel?: string
  onChoose: (customer: FoundCustomer) => void
  checkIn?: { gym: Gym; open: (place: DeskPlace) => void }
  children?: ComponentChildren
}) {
  const { text, setText, found, exact, takeExact, error, search } = searching
  const searchBox = useFocusOnShow<HTMLInputElement>()
  const [checkedIn, setCheckedIn] = useState<ScanResult | null>(null)
  useEffect(() => {
    if (exact === null) return
    takeExact()
    onChoose(exact)
  }, [exact])
  const today = todayIn(checkIn?.gym.time_zone)
  const checkInOne = async (customer: FoundCustomer) => {
    const result = await checkInById(customer.id, checkIn!.gym.id)
    if (result !== null) setCheckedIn(result)
  }
  return (
    <div class="finder" onKeyDown={moveThroughMatches}>
      <form class="search-bar" onSubmit={search} role="search" aria-label={formLabel}>
        <label>
          {SEARCH_LABEL}
          <input
            ref={searchBox}
            type="search"
            name="search"
            autocomplete="off"
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </label>
        <button type="submit">{submitLabel}</button>
        {children}
      </form>
      <ErrorLine message={error} />
      {checkIn && checkedIn && (
        <CheckInCard
          result={checkedIn}
          gym={checkIn.gym}
          open={checkIn.open}
          onDismiss={() => setCheckedIn(null)}
          onFamilyResult={() => {}}
        />
      )}
      {found && (
        <>
          <p class="found" role="status">
            {foundSummary(found)}
          </p>
          <ul class="matches">
            {found.results.map((c) => (
              <li key={c.id} class={checkIn ? 'with-check-in' : undefined}>
                <button type="button" class="match" onClick={() => onChoose(c)}>
                  <CustomerSummary customer={c} today={today} />
                </button>
                {checkIn && (
                  <button
                    type="button"
                    class="match-check-in"
                    aria-label={`Check in ${fullName(c.first_name, c.last_name)}`}
                    onClick={() => void checkInOne(c)}
                  >
                    Check in
                  </button>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
