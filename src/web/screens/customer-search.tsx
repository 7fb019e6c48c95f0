import { useState } from 'preact/hooks'
import { messageOf } from '../api.ts'
import { findCustomers, foundSummary } from '../customers.ts'
import { fullName } from '../format.ts'
import type { Customer, Page } from '../types.ts'

/** For a customer without their card: find them by name and check them in with the barcode on file. */
export function CustomerSearch({ onCheckIn }: { onCheckIn: (barcode: string) => void }) {
  const [text, setText] = useState('')
  const [found, setFound] = useState<Page<Customer> | null>(null)
  const [error, setError] = useState<string | null>(null)

  const search = async (event: Event) => {
    event.preventDefault()
    if (text.trim() === '') return
    setError(null)
    try {
      setFound(await findCustomers(text))
    } catch (e) {
      setError(messageOf(e))
    }
  }

  return (
    <section class="search" aria-label="Find a customer">
      <form onSubmit={search} role="search">
        <label>
          Forgot their card? Find by name
          <input type="search" name="search" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <button type="submit">Find</button>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {found && (
        <>
          <p class="found">{foundSummary(found)}</p>
          <ul class="found-list">
            {found.results.map((c) => (
              <li key={c.id}>
                <span>
                  {fullName(c.first_name, c.last_name)}
                  {c.email && <span class="muted"> {c.email}</span>}
                </span>
                {c.barcode === null ? (
                  <span class="muted">No card on file</span>
                ) : (
                  <button
                    onClick={() => {
                      setFound(null)
                      setText('')
                      onCheckIn(c.barcode!)
                    }}
                  >
                    Check in {fullName(c.first_name, c.last_name)}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
