import { useFocusOnShow } from '../../focus.ts'
import type { Place } from './error-places.ts'
import { FieldMessages } from './field-messages.tsx'
import type { DraftPayment } from './sale-draft.ts'

export type Method = { method: string; label: string }

/**
 * One or two payments. Each amount follows what the sale leaves to pay (`shown`, from the quote)
 * until it is typed: the first is the total, a second what the first leaves.
 */
export function PaymentsPart({
  payments,
  shown,
  methods,
  errors,
  creditsError,
  onChange,
  onAddSecond,
  onRemoveSecond,
}: {
  payments: DraftPayment[]
  /** Each payment's amount as shown: as typed, or what is left to pay. */
  shown: string[]
  methods: Method[]
  errors: Map<Place, string[]>
  creditsError: string | null
  onChange: (index: number, payment: DraftPayment) => void
  onAddSecond: () => void
  onRemoveSecond: () => void
}) {
  return (
    <section aria-labelledby="sale-payments">
      <h2 id="sale-payments">Payment</h2>
      {payments.map((payment, index) => (
        <PaymentFields
          key={index}
          legend={index === 0 ? 'First payment' : 'Second payment'}
          methods={methods}
          payment={payment}
          amount={shown[index] ?? ''}
          onChange={(changed) => onChange(index, changed)}
          onRemove={index === 1 ? onRemoveSecond : undefined}
          messages={errors.get(`payment:${index}`)}
          takesFocus={index === 1}
        />
      ))}
      {payments.length === 1 && (
        <button type="button" class="quiet" onClick={onAddSecond}>
          Add a second payment
        </button>
      )}
      {creditsError && <p class="error">The customer's credits could not be read: {creditsError}</p>}
      <FieldMessages messages={errors.get('payments')} />
    </section>
  )
}

/** One payment's method (a way to pay at the desk, or one of the customer's credits) and amount. */
function PaymentFields({
  legend,
  methods,
  payment,
  amount,
  onChange,
  onRemove,
  messages,
  takesFocus,
}: {
  legend: string
  methods: Method[]
  payment: DraftPayment
  amount: string
  onChange: (payment: DraftPayment) => void
  onRemove?: () => void
  messages: readonly string[] | undefined
  /** The method takes the focus when the fields show: a payment just added. */
  takesFocus: boolean
}) {
  const method = useFocusOnShow<HTMLSelectElement>()
  return (
    <fieldset class="payment">
      <legend>{legend}</legend>
      <div class="action">
        <label>
          Method
          <select
            ref={takesFocus ? method : undefined}
            value={payment.method}
            onChange={(e) => onChange({ ...payment, method: e.currentTarget.value })}
          >
            {methods.map((m) => (
              <option key={m.method} value={m.method}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Amount
          <input
            inputMode="decimal"
            class="amount"
            autocomplete="off"
            value={amount}
            onInput={(e) => onChange({ ...payment, amount: e.currentTarget.value })}
          />
        </label>
        {onRemove && (
          <button type="button" class="small quiet" onClick={onRemove}>
            Remove
          </button>
        )}
      </div>
      <FieldMessages messages={messages} />
    </fieldset>
  )
}
