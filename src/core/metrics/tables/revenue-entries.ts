import { sql } from 'kysely'
import type { Db } from '../../../db/connection.ts'

/**
 * Writes revenue_entries again from every paid payment (COM, PRF, REF) and every refund there is,
 * as its triggers on payments and refunds keep it one row at a time (migration 0011): for a bulk
 * load of sales (the demo), where one pass over the finished tables costs far less than the
 * trigger for each payment. payment_line_shares says what each line of a payment is; a line's
 * share is its net times the money moved over the invoice's total, negative for a refund, and its
 * fee share its total times the fee over the invoice's total.
 */
export async function rebuildRevenueEntries(db: Db): Promise<void> {
  await db.deleteFrom('revenue_entries').execute()
  await sql`
    INSERT INTO revenue_entries (at, payment_id, refund_id, line_id, purchase_type, product_id, gym_id,
      payment_type, amount, fee)
    SELECT s.created_at, s.payment_id, 0, s.line_id, s.purchase_type, s.product_id, s.gym_id,
      s.payment_type,
      s.net_cents * CAST(s.amount_cents AS REAL) / s.invoice_total,
      s.line_total * CAST(s.processor_fee_cents AS REAL) / s.invoice_total
    FROM payment_line_shares AS s
    WHERE s.status IN ('COM', 'PRF', 'REF') AND s.invoice_total > 0
    UNION ALL
    SELECT r.created_at, s.payment_id, r.id, s.line_id, s.purchase_type, s.product_id, s.gym_id,
      s.payment_type,
      -s.net_cents * CAST(r.amount_cents AS REAL) / s.invoice_total,
      s.line_total * CAST(r.processor_fee_cents AS REAL) / s.invoice_total
    FROM refunds AS r JOIN payment_line_shares AS s ON s.payment_id = r.payment_id
    WHERE s.invoice_total > 0`.execute(db)
}
