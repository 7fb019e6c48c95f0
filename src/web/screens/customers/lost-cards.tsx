import { lostCardLine } from '../../site-words.ts'
import type { LostCard } from '../../types.ts'

/**
 * The cards this customer lost to another site's customer, listed with their alerts (shown until
 * they are given a new card; retired by nothing else).
 */
export function LostCards({ lost }: { lost: LostCard[] }) {
  return (
    <>
      {lost.map((card) => (
        <li key={`${card.barcode}-${card.detected_at}`}>
          <span>{lostCardLine(card)}</span>
        </li>
      ))}
    </>
  )
}
