import { wallClockTime } from '../../format.ts'
import type { Credit, CustomerCheckIn, CustomerEntryPass, CustomerMembership, Page } from '../../types.ts'

/** The membership statuses in the desk's words. */
const MEMBERSHIP_STATUSES: Record<string, string> = {
  ACT: 'Active',
  IPP: 'Active, first payment processing',
  PPR: 'Active, renewal payment processing',
  FRZ: 'Frozen',
  FPR: 'Frozen, freeze payment processing',
  PAF: 'Renewal payment failed',
  FPF: 'Freeze payment failed',
  PAY: 'Not started, awaiting payment',
  IPC: 'Not started, awaiting payment',
  CAN: 'Cancelled',
  END: 'Ended',
  DEN: 'Denied',
}

function passState(p: CustomerEntryPass): string {
  const entries = `${p.entries_remaining} of ${p.entries_total} ${p.entries_total === 1 ? 'entry' : 'entries'} left`
  if (p.is_expired) return `${entries}, expired on ${p.expiry_date}`
  return p.expiry_date === null ? entries : `${entries}, until ${p.expiry_date}`
}

const money = (amount: number) => amount.toFixed(2)

/** What lets the customer in, their credits and their last visits, as the page read them. */
export function CustomerHoldings({
  memberships,
  passes,
  credits,
  checkIns,
}: {
  memberships: CustomerMembership[]
  passes: CustomerEntryPass[]
  credits: Credit[]
  checkIns: Page<CustomerCheckIn>
}) {
  return (
    <>
      <section aria-labelledby="entry-heading">
        <h3 id="entry-heading">Memberships and entry passes</h3>
        {memberships.length === 0 && passes.length === 0 ? (
          <p class="muted">No membership or entry pass.</p>
        ) : (
          <ul class="holdings">
            {memberships.map((m) => (
              <li key={`m${m.id}`}>
                {m.membership_name}: {MEMBERSHIP_STATUSES[m.status] ?? m.status}, from {m.start_date}
                {m.end_date !== null && ` to ${m.end_date}`}
              </li>
            ))}
            {passes.map((p) => (
              <li key={`p${p.id}`}>
                {p.entry_pass_name}: {passState(p)}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="credits-heading">
        <h3 id="credits-heading">Credits</h3>
        {credits.length === 0 ? (
          <p class="muted">No credits.</p>
        ) : (
          <ul class="credits">
            {credits.map((c) => (
              <li key={c.id}>
                {money(c.amount_remaining)} of {money(c.amount_total)} left,{' '}
                {c.is_expired ? `expired ${c.expiry_date_str}` : `expires ${c.expiry_date_str}`}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="check-ins-heading">
        <h3 id="check-ins-heading">Last check-ins</h3>
        {checkIns.count === 0 ? (
          <p class="muted">Never checked in.</p>
        ) : (
          <table class="check-ins">
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">In</th>
                <th scope="col">Gym</th>
                <th scope="col">Entry</th>
              </tr>
            </thead>
            <tbody>
              {checkIns.results.map((c) => (
                <tr key={c.id}>
                  <td>{c.check_in_datetime.slice(0, 10)}</td>
                  <td>{wallClockTime(c.check_in_datetime)}</td>
                  <td>{c.location_name}</td>
                  <td>
                    {c.entry_method_description}
                    {c.free_entry_reason !== '' && `: ${c.free_entry_reason}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  )
}
