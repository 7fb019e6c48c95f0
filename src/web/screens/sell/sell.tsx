import { useState } from 'preact/hooks'
import type { ScreenProps } from '../screen-props.ts'
import { SaleForm, type Sold } from './sale-form.tsx'
import { Receipt } from './sell-receipt.tsx'
import './sell.css'

/**
 * Draft a sale and post it, then its receipt; New sale starts the next one. The sale in progress
 * outlives the screen (sale-store.ts): the desk can check someone in and come back to it.
 */
export function SellScreen({ account, gym, place }: ScreenProps) {
  const [sold, setSold] = useState<Sold | null>(null)
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
        <button onClick={() => window.print()}>Print</button>
        <button class="quiet" onClick={() => setSold(null)}>
          New sale
        </button>
      </div>
    </main>
  )
}
