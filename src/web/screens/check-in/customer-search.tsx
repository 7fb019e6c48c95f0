import { foundSummary, useCustomerSearch } from '../../customers.ts'
import { fullName } from '../../format.ts'
import { ErrorLine } from '../../components/error-line.tsx'

/** For a customer without their card: find them by name and check them in by the door's rules. */
export function CustomerSearch({ onCheckIn }: { onCheckIn: (customerId: number) => void }) {
  const { text, setText, found, error, search, clear } = useCustomerSearch()

  return (
    <section class="search" aria-label="Find a customer">
      <form onSubmit={search} role="search">
        <label>
          Forgot their card? Find by name
          <input type="search" name="search" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <button type="submit">Find</button>
      </form>
      <ErrorLine message={error} />
      {found && (
        <>
          <p class="found">{foundSummary(found)}</p>
          <ul class="found-list">
            {found.results.map((c) => (
              <li key={c.id}>
                <span>
                  {fullName(c.first_name, c.last_name)}
                  {c.email && <span class="muted"> {c.email}</span>}
                  {c.barcode === null && <span class="muted"> · no card</span>}
                </span>
                <button
                  onClick={() => {
                    clear()
                    onCheckIn(c.id)
                  }}
                >
                  Check in {fullName(c.first_name, c.last_name)}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
