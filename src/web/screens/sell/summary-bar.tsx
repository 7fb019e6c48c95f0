import { FieldMessages } from './field-messages.tsx'
import type { Quote } from './use-quote.ts'

/**
 * The sale's totals as the API priced them, and "Post the sale", in a bar that stays at the bottom
 * of the window however long the sale grows.
 */
export function SummaryBar({
  quote,
  refused,
  empty,
  unpaid,
  sending,
  messages,
  onStartOver,
}: {
  /** The quote of the sale as it is now; null while it is asked for, or when it is refused. */
  quote: Quote | null
  /** The sale as it is cannot be priced: its refusals show at their fields. */
  refused: boolean
  /** Nothing in the sale yet. */
  empty: boolean
  /** What the payments leave to pay, when they leave anything. */
  unpaid: string | null
  sending: boolean
  /** What refuses the sale as a whole (not one of its fields), and any failure, in words. */
  messages: string[]
  onStartOver: () => void
}) {
  const figure = (amount: string | undefined) => (empty ? '0.00' : (amount ?? (refused ? '—' : '…')))
  return (
    <div class="sale-summary" role="region" aria-label="Sale total">
      <dl class="sale-totals">
        <div>
          <dt>Subtotal</dt>
          <dd>{figure(quote?.subtotal)}</dd>
        </div>
        <div>
          <dt>Discounts</dt>
          <dd>{figure(quote?.discount_total)}</dd>
        </div>
        <div>
          <dt>Tax</dt>
          <dd>{figure(quote?.tax_total)}</dd>
        </div>
        <div class="total">
          <dt>Total</dt>
          <dd data-total>{figure(quote?.total)}</dd>
        </div>
        {unpaid !== null && (
          <div class="unpaid">
            <dt>Left to pay</dt>
            <dd>{unpaid}</dd>
          </div>
        )}
      </dl>
      <div class="sale-messages">
        <FieldMessages messages={messages} />
      </div>
      <div class="actions">
        <button type="button" class="quiet" onClick={onStartOver}>
          Start over
        </button>
        <button type="submit" form="sale-form" disabled={sending || empty}>
          Post the sale
        </button>
      </div>
    </div>
  )
}
