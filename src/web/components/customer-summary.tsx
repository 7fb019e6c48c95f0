import { fullName } from '../format.ts'
import type { Customer } from '../types.ts'
import { AgeBadge, CustomerPhoto } from './customer-photo.tsx'

/** A customer as `/api/customers/` lists them: each field a search row shows is in the record. */
export type FoundCustomer = Customer

/** The waiver in a word or two: signed, expired (and when), or none. */
function waiverWords(c: FoundCustomer): string {
  if (c.active_waiver_exists) return 'Waiver signed'
  return c.latest_waiver_expiration_date === null
    ? 'No waiver'
    : `Waiver expired ${c.latest_waiver_expiration_date}`
}

/**
 * One search row's contents: enough to tell two customers of the same name apart at a glance (the
 * photo, age, phone, card) and whether they may climb (a membership, a waiver).
 */
export function CustomerSummary({ customer: c, today }: { customer: FoundCustomer; today?: string }) {
  return (
    <span class="summary">
      <CustomerPhoto customer={c} />
      <span class="summary-text">
        <span class="summary-line">
          <span class="name">{fullName(c.first_name, c.last_name)}</span>
          <AgeBadge birthday={c.birthday} today={today} />
        </span>
        <span class="details">
          {[c.telephone || null, c.email, c.barcode ?? 'no card'].filter((d) => d !== null).join(' · ')}
        </span>
        <span class="summary-line states">
          <span class={c.has_active_membership ? 'state good' : 'state'}>
            {c.has_active_membership ? 'Member' : 'No membership'}
          </span>
          <span class={c.active_waiver_exists ? 'state good' : 'state bad'}>{waiverWords(c)}</span>
        </span>
      </span>
    </span>
  )
}
