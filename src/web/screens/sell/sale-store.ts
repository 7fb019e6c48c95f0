/**
 * The sale in progress, kept here rather than in the screen's state so that it outlives the
 * screen: the desk switching to Check-in and back finds it as it was. Posting it or "Start over"
 * clears it; a sale drafted by another user, or at another gym, is never shown.
 */
import { useEffect, useState } from 'preact/hooks'
import { PAYMENT_METHODS, type SaleDraft } from './sale-draft.ts'

const emptySale = (owner: string): SaleDraft => ({
  owner,
  customer: null,
  lines: [],
  discountCode: '',
  payments: [{ method: PAYMENT_METHODS[0].method, amount: null }],
  lastKey: 0,
})

let current: SaleDraft = emptySale('')
const listeners = new Set<() => void>()

/** The sale in progress of `owner`; a new one when the last was someone else's. */
function saleOf(owner: string): SaleDraft {
  if (current.owner !== owner) current = emptySale(owner)
  return current
}

/** Changes the sale in progress, and redraws every screen that shows it. */
export function changeSale(change: (sale: SaleDraft) => SaleDraft): void {
  current = change(current)
  for (const listener of listeners) listener()
}

/** Clears the sale in progress: after it was posted, or on "Start over". */
export const startOver = (): void => changeSale((sale) => emptySale(sale.owner))

/** The sale in progress of `owner`, redrawn as it changes. */
export function useSale(owner: string): SaleDraft {
  const [, redraw] = useState(0)
  useEffect(() => {
    const listener = () => redraw((n) => n + 1)
    listeners.add(listener)
    return () => void listeners.delete(listener)
  }, [])
  return saleOf(owner)
}
