import type { Place } from './error-places.ts'
import { FieldMessages } from './field-messages.tsx'
import type { DraftLine } from './sale-draft.ts'
import type { QuoteLine } from './use-quote.ts'

/** A line's name as the form shows it. */
export const lineName = (line: DraftLine): string => (line.retail ? line.description : line.product.name)

/**
 * The lines of the sale, each with its quantity (and a membership's first day), and its money as
 * the API priced it: gross, its share of the discounts, tax and total. `priced` holds each line's
 * price by its key, when the quote answers the sale as it is.
 */
export function SaleLines({
  lines,
  priced,
  errors,
  taxRateName,
  onChange,
  onRemove,
}: {
  lines: DraftLine[]
  priced: Map<number, QuoteLine>
  errors: Map<Place, string[]>
  taxRateName: (id: number | null) => string
  onChange: (key: number, change: Partial<DraftLine>) => void
  onRemove: (key: number) => void
}) {
  return (
    <section aria-labelledby="sale-lines">
      <h2 id="sale-lines">In this sale</h2>
      {lines.length === 0 ? (
        <p class="muted">Nothing yet: add a product or a retail item.</p>
      ) : (
        <ul class="sale-lines">
          {lines.map((line) => {
            const name = lineName(line)
            const price = priced.get(line.key)
            return (
              <li key={line.key}>
                <span class="item">
                  {name}
                  <span class="muted">
                    {line.retail
                      ? ` ${line.unitPrice} each, ${taxRateName(line.taxRateId)}`
                      : ` ${line.product.price} each`}
                  </span>
                </span>
                <label class="inline">
                  Qty
                  <input
                    type="number"
                    min={1}
                    class="quantity"
                    aria-label={`Quantity of ${name}`}
                    value={line.quantity}
                    onInput={(e) => onChange(line.key, { quantity: e.currentTarget.value })}
                  />
                </label>
                {!line.retail && line.kind.purchaseType === 'MIN' && (
                  <label class="inline">
                    Starts
                    <input
                      type="date"
                      aria-label={`${name} starts`}
                      value={line.startDate}
                      onInput={(e) => onChange(line.key, { startDate: e.currentTarget.value })}
                    />
                  </label>
                )}
                <span class="line-money" aria-label={`${name}: price`}>
                  {price ? <LineMoney price={price} /> : '…'}
                </span>
                <button
                  type="button"
                  class="small quiet"
                  aria-label={`Remove ${name}`}
                  onClick={() => onRemove(line.key)}
                >
                  Remove
                </button>
                <FieldMessages messages={errors.get(`line:${line.key}`)} />
              </li>
            )
          })}
        </ul>
      )}
      <FieldMessages messages={errors.get('lines')} />
    </section>
  )
}

/** A line's money as the API priced it. */
function LineMoney({ price }: { price: QuoteLine }) {
  const discounted = price.discount_amount !== '0.00'
  const taxed = price.tax_amount !== '0.00'
  return (
    <>
      {discounted && <s class="muted">{price.gross_amount}</s>}
      {discounted && <span class="muted"> −{price.discount_amount}</span>}
      {taxed && <span class="muted"> +{price.tax_amount} tax</span>}
      <strong> {price.total}</strong>
    </>
  )
}
