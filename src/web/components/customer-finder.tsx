import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { foundSummary, type CustomerSearch } from '../customers.ts'
import { checkInById, type ScanResult } from '../desk-check-in.ts'
import { useFocusOnShow } from '../focus.ts'
import { fullName } from '../format.ts'
import type { DeskPlace } from '../screens/screen-props.ts'
import type { Customer, Gym } from '../types.ts'
import { CheckInCard } from './check-in-card.tsx'
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

/**
 * A search by name, email or barcode and its matches, each a button that chooses the customer; the
 * search box takes the focus when it shows. The search's state is the caller's (`searching`), so a
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
  onChoose: (customer: Customer) => void
  checkIn?: { gym: Gym; open: (place: DeskPlace) => void }
  children?: ComponentChildren
}) {
  const { text, setText, found, error, search } = searching
  const searchBox = useFocusOnShow<HTMLInputElement>()
  const [checkedIn, setCheckedIn] = useState<ScanResult | null>(null)
  const checkInOne = async (customer: Customer) => {
    const result = await checkInById(customer.id, checkIn!.gym.id)
    if (result !== null) setCheckedIn(result)
  }
  return (
    <div class="finder" onKeyDown={moveThroughMatches}>
      <form class="search-bar" onSubmit={search} role="search" aria-label={formLabel}>
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
                  <span class="name">{fullName(c.first_name, c.last_name)}</span>
                  <span class="details">
                    {[c.email, c.barcode ?? (checkIn ? 'no card' : null)]
                      .filter((d) => d !== null)
                      .join(' · ')}
                  </span>
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
