import type { Db } from '../../db/connection.ts'
import { localDate } from '../../lib/local-time.ts'
import { IdempotencyKeyUsed } from './conflicts.ts'
import { lineKind } from './lines/index.ts'
import type { LineLinks, PostContext } from './lines/line-kind.ts'
import { drawPayments } from './payments.ts'
import {
  findInvoiceByIdempotencyKey,
  insertInvoice,
  insertInvoiceDiscounts,
  insertLineItem,
  insertPayments,
} from './queries.ts'
import { priceSale, type Sale } from './sale.ts'

/**
 * Posting an invoice: the invoice, its discounts, its lines with what each grants (each purchase
 * type posts its own, lines/), and its payments, in one transaction, so a sale is recorded whole or
 * not at all. checkSale has checked every reference and amount; this prices the lines and writes,
 * and refuses only what another sale changed in between (conflicts.ts).
 */
export async function postInvoice(
  deps: { db: Db; clock: { now(): Date } },
  sale: Sale,
  zone: string,
): Promise<number> {
  const now = deps.clock.now()
  const at = now.toISOString()
  const today = localDate(now, zone)
  const priced = priceSale(sale)
  // A membership bought or renewed with a payment still at the terminal waits for that payment.
  const processing = sale.payments.some((payment) => payment.status === 'PRO')
  return deps.db.transaction().execute(async (trx) => {
    if (sale.idempotency) {
      // Read inside the transaction, which holds the one connection: a sale with the same key
      // posted at the same instant is either already here or waits for this one to commit.
      const recorded = await findInvoiceByIdempotencyKey(trx, sale.staffUserId, sale.idempotency.key)
      if (recorded) throw new IdempotencyKeyUsed(recorded.id, recorded.request_digest)
    }
    const invoiceId = await insertInvoice(trx, {
      customer_id: sale.customerId,
      gym_id: sale.gymId,
      staff_user_id: sale.staffUserId,
      description: sale.description,
      idempotency_key: sale.idempotency?.key ?? null,
      request_digest: sale.idempotency?.requestDigest ?? null,
      created_at: at,
      updated_at: at,
    })
    await insertInvoiceDiscounts(
      trx,
      sale.discounts.map((discount, i) => ({
        invoice_id: invoiceId,
        position: i,
        discount_id: discount.id,
        code: discount.code,
        name: discount.name,
        display_name: discount.display_name,
        association_id: discount.association_id,
        amount_cents: priced.discountCents[i]!,
      })),
    )
    for (const [index, line] of sale.lines.entries()) {
      const price = priced.lines[index]!
      const context: PostContext = { trx, sale, invoiceId, index, now, at, today, zone, processing }
      const insertLine = (links: LineLinks) =>
        insertLineItem(trx, {
          invoice_id: invoiceId,
          position: index,
          purchase_type: line.purchaseType,
          description: line.description,
          quantity: line.quantity,
          unit_price_cents: line.unitPriceCents,
          discount_cents: price.discountCents,
          net_cents: price.netCents,
          tax_rate_id: line.taxRateId,
          tax_rate_basis_points: line.taxRateBasisPoints,
          tax_cents: price.taxCents,
          revenue_account_code: line.revenueAccountCode,
          membership_type_id: links.membership_type_id ?? null,
          entry_pass_type_id: links.entry_pass_type_id ?? null,
          event_id: links.event_id ?? null,
          voucher_pack_id: links.voucher_pack_id ?? null,
          customer_membership_id: links.customer_membership_id ?? null,
          reservation_id: links.reservation_id ?? null,
          customer_event_voucher_id: links.customer_event_voucher_id ?? null,
          period_start: links.period_start ?? null,
        })
      await lineKind(line.purchaseType).post(line, context, insertLine)
    }
    await drawPayments(trx, sale.payments, at)
    await insertPayments(
      trx,
      sale.payments.map((payment) => ({ ...payment, invoice_id: invoiceId, created_at: at, updated_at: at })),
    )
    return invoiceId
  })
}
