import { useState } from 'preact/hooks'
import type { ScreenProps } from '../screen-props.ts'
import { SaleForm, type Sold } from './sale-form.tsx'
import { Receipt } from './sell-receipt.tsx'
import { CheckInCard } from '../../components/check-in-card.tsx'
import { checkInById, type ScanResult } from '../../desk-check-in.ts'
import './sell.css'

/**
 * Draft a sale and post it, then its receipt; New sale starts the next one. The sale in progress
 * outlives the screen (sale-store.ts): the desk can check someone in and come back to it.
 */
export function SellScreen({ account, gym, place, open }: ScreenProps) {
  const [sold, setSold] = useState<Sold | null>(null)
  const [card, setCard] = useState<ScanResult | null>(null)
  if (sold === null)
    return (
      <main class="sell">
        <SaleForm account={account} gym={gym} place={place} onSold={setSold} />
      </main>
    )
  return (
    <main class="sell sold">
      <Receipt
        invoice={sold.invoice}
        customer={sold.customer}
        organization={account.organization_name}
        gym={gym}
      />
      <div class="actions receipt-actions">
        {/* What a walk-in buys a day pass for: to climb now, one click on from the receipt. */}
        {sold.customer !== null && card === null && (
          <button onClick={() => void checkInById(sold.customer!.id, gym.id).then(setCard)}>
            Check in {sold.customer.first_name}
          </button>
        )}
        <button class={sold.customer === null ? '' : 'quiet'} onClick={() => window.print()}>
          Print
        </button>
        <button
          class="quiet"
          onClick={() => {
            setSold(null)
            setCard(null)
          }}
        >
          New sale
        </button>
      </div>
      {card !== null && <CheckInCard result={card} gym={gym} open={open} onDismiss={() => setCard(null)} />}
    </main>
  )
}
