import { foundSummary, useCustomerSearch } from '../../customers.ts'
import { fullName, todayIn } from '../../format.ts'
import { ErrorLine } from '../../components/error-line.tsx'
import { CustomerSummary } from '../../components/customer-summary.tsx'

/**
 * For a customer without their card: find them by name, email, barcode or phone as staff type, and
 * check them in by the door's rules. Each row's photo, age, phone and status tell two of one name
 * apart; a text that is exactly someone's barcode lists them alone, first (checking in stays a
 * press of their button: a pause in the typing never records a check-in).
 */
export function CustomerSearch({
  timeZone,
  onCheckIn,
}: {
  timeZone: string
  onCheckIn: (customerId: number) => void
}) {
  const { text, setText, found, exact, error, search, clear } = useCustomerSearch()
  const today = todayIn(timeZone)
  const shown = exact ? [exact] : (found?.results ?? [])

  return (
    <section class="search" aria-label="Find a customer">
      <form onSubmit={search} role="search">
        <label>
          Forgot their card? Find by name or phone
          <input type="search" name="search" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <button type="submit">Find</button>
      </form>
      <ErrorLine message={error} />
      {found && (
        <>
          <p class="found">{exact ? `Card ${exact.barcode}.` : foundSummary(found)}</p>
          <ul class="found-list">
            {shown.map((c) => (
              <li key={c.id}>
                <CustomerSummary customer={c} today={today} />
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
