import type { LineItemPurchaseType } from '../db/schema.ts'
import { type DemoContext, stream } from './context.ts'
import type { Person } from './customers.ts'
import type { Holdings } from './memberships.ts'
import type { Catalog } from './products.ts'
import { sellHoldings } from './sales-desk.ts'
import { deskMs, Ledger } from './sales-ledger.ts'
import { sellMemberships } from './sales-memberships.ts'
import { Payments } from './sales-payments.ts'
import { sellRetail } from './sales-retail.ts'

/** Processor A has charged cards on file for the last three years; processor B did before. */
const PROCESSOR_A_YEARS = 3
/** The share of completed payments refunded later, in part or in full. */
const REFUNDED_SHARE = 0.02

/**
 * The gym's sales over the demo's history: every membership's initial sale, renewals and freeze
 * fees; the sales of entry passes, vouchers, bookings and gifts customers hold; what credits paid
 * for; over-the-counter retail; then refunds of about one completed payment in fifty.
 */
export function buildSales(
  ctx: DemoContext,
  people: readonly Person[],
  catalog: Catalog,
  holdings: Holdings,
): void {
  const ledger = new Ledger()
  const payments = new Payments(
    stream(ctx, 'sales-payments'),
    ctx.cal,
    ctx.cal.today - PROCESSOR_A_YEARS * 365,
  )
  sellMemberships(ctx, holdings, ledger, payments)
  sellHoldings(ctx, catalog, people, ledger, payments)
  sellRetail(ctx, catalog, people, ledger, payments)
  refundSome(ctx, ledger, payments)
  ledger.write(ctx)
}

const REASONS: Partial<Record<LineItemPurchaseType, readonly string[]>> = {
  MIN: ['Changed their mind within the first week', 'Moved away before starting'],
  MRE: ['Billed after asking to cancel', 'Charged twice by the processor'],
  MFR: ['Freeze fee waived by the manager'],
  EPA: ['Bought the wrong pass', 'Could not climb that day: injury'],
  VPO: ['Bought the wrong pack'],
  GIF: ['Gift returned unused'],
  GEN: ['Item returned', 'Rang up the wrong item', 'Rental gear was faulty'],
}

/**
 * Refunds, each on its own later day, by a manager: about 2% of completed payments, some in
 * part. Credit payments are not refunded (that would put money back on the credit) and bookings
 * were refunded when cancelled.
 */
function refundSome(ctx: DemoContext, ledger: Ledger, payments: Payments): void {
  const rng = stream(ctx, 'sales-refunds')
  const { cal, staff } = ctx
  for (const sale of ledger.sales) {
    const reasons = REASONS[sale.lines[0]!.purchaseType]
    if (!reasons) continue
    for (const payment of sale.payments) {
      const { status, payment_type, amount_cents: amount } = payment.row
      if (status !== 'COM' || payment_type === 'CRE' || amount === 0 || payment.day >= cal.today) continue
      if (!rng.chance(REFUNDED_SHARE)) continue
      const atMs = deskMs(rng, cal, Math.min(cal.today, payment.day + rng.int(1, 30)))
      if (atMs === null) continue
      // In part: what one returned item or the unused part came to, in whole dollars.
      const part = Math.round((amount * rng.int(20, 80)) / 10_000) * 100
      payments.refund(payment, {
        atMs,
        amountCents: amount >= 200 && rng.chance(0.4) ? Math.min(amount - 1, Math.max(100, part)) : amount,
        reason: rng.pick(reasons),
        staffUserId: rng.chance(0.8) ? staff.managerId : staff.adminId,
      })
    }
  }
}
