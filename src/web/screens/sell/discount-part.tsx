import { discountLabel, type Discount } from './catalogue.ts'
import { FieldMessages } from './field-messages.tsx'

/** The discount, chosen from the active ones (none by default). */
export function DiscountPart({
  discounts,
  code,
  onChange,
  messages,
}: {
  discounts: Discount[]
  code: string
  onChange: (code: string) => void
  messages: readonly string[] | undefined
}) {
  return (
    <section aria-labelledby="sale-discount">
      <h2 id="sale-discount">Discount</h2>
      <div class="action">
        <label class="grow">
          Discount code
          <select name="discount" value={code} onChange={(e) => onChange(e.currentTarget.value)}>
            <option value="">No discount</option>
            {discounts.map((discount) => (
              <option key={discount.id} value={discount.code}>
                {discountLabel(discount)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <FieldMessages messages={messages} />
    </section>
  )
}
