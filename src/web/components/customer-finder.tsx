import type { ComponentChildren } from 'preact'
import { foundSummary, type CustomerSearch } from '../customers.ts'
import { useFocusOnShow } from '../focus.ts'
import { fullName } from '../format.ts'
import type { Customer } from '../types.ts'
import { ErrorLine } from './error-line.tsx'

/**
 * Up and down move between the search box and the matches, as in any list of suggestions; Tab
 * walks the same buttons, and Enter chooses the one with the focus.
 */
function moveThroughMatches(event: KeyboardEvent) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
  const finder = event.currentTarget as HTMLElement
  const stops = [...finder.querySelectorAll<HTMLElement>('input[name="search"], .matches button')]
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
 * search bar after its button.
 */
export function CustomerFinder({
  searching,
  submitLabel,
  formLabel,
  onChoose,
  children,
}: {
  searching: CustomerSearch
  submitLabel: string
  formLabel?: string
  onChoose: (customer: Customer) => void
  children?: ComponentChildren
}) {
  const { text, setText, found, error, search } = searching
  const searchBox = useFocusOnShow<HTMLInputElement>()
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
      {found && (
        <>
          <p class="found" role="status">
            {foundSummary(found)}
          </p>
          <ul class="matches">
            {found.results.map((c) => (
              <li key={c.id}>
                <button type="button" class="match" onClick={() => onChoose(c)}>
                  <span class="name">{fullName(c.first_name, c.last_name)}</span>
                  <span class="details">{[c.email, c.barcode].filter((d) => d !== null).join(' · ')}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
