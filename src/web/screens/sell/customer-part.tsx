import { useCustomerSearch } from '../../customers.ts'
import { fullName } from '../../format.ts'
import type { Customer } from '../../types.ts'
import { CustomerFinder } from '../../components/customer-finder.tsx'
import { FieldMessages } from './field-messages.tsx'

/** Whom the sale is for: found by name, email or barcode, or none (retail alone). */
export function CustomerPart({
  customer,
  onChoose,
  messages,
}: {
  customer: Customer | null
  onChoose: (customer: Customer | null) => void
  messages: readonly string[] | undefined
}) {
  return (
    <section aria-labelledby="sale-customer">
      <h2 id="sale-customer">Customer</h2>
      {customer === null ? (
        <CustomerChooser onChoose={onChoose} />
      ) : (
        <p class="chosen">
          <span>{fullName(customer.first_name, customer.last_name)}</span>
          <button type="button" class="small quiet" onClick={() => onChoose(null)}>
            Change customer
          </button>
        </p>
      )}
      <FieldMessages messages={messages} />
    </section>
  )
}

function CustomerChooser({ onChoose }: { onChoose: (customer: Customer) => void }) {
  const searching = useCustomerSearch()
  return (
    <>
      <CustomerFinder
        searching={searching}
        submitLabel="Find"
        formLabel="Find the customer"
        onChoose={onChoose}
      />
      <p class="muted">No customer chosen: a sale of retail items only.</p>
    </>
  )
}
