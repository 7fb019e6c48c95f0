import type { LineItemPurchaseType } from '../db/schema.ts'
import { priceInvoice, type PricedInvoice } from '../domain/invoice-money.ts'
import type { Calendar } from './calendar.ts'
import type { DemoContext, Row } from './context.ts'
import type { DemoDiscount, Terms } from './products.ts'
import type { Random } from './random.ts'

/**
 * The demo's sales as the desk would have posted them. The generators describe each sale in time
 * (what was sold, to whom, how it was paid, what was refunded later); the ledger prices every
 * invoice with the invoice arithmetic POST /api/invoices/ uses, and writes the rows with ids in the
 * order the sales happened, as a real desk's ids run.
 */

/** What a line sold and what it granted, pointing at rows other generators made. */
export interface LineLinks {
  membershipTypeId?: number
  entryPassTypeId?: number
  eventId?: number
  voucherPackId?: number
  customerMembershipId?: number
  reservationId?: number
  customerEventVoucherId?: number
  /** MRE: the first day of the billing period the renewal paid */
  periodStart?: string
}

export interface SaleLine extends LineLinks {
  purchaseType: LineItemPurchaseType
  terms: Terms
  quantity: number
  /** EPA: the pass it issued, which records the invoice's id */
  pass?: Row<'customer_entry_passes'>
  /** GIF: the gift it sold */
  gift?: SoldGift
}

export interface SoldGift {
  code: string
  entryPassTypeId: number | null
  voucherPackId: number | null
  /** Who redeemed it, when, and what that granted; null while nobody has */
  redeemed: {
    customerId: number
    atMs: number
    entryPassId: number | null
    eventVoucherId: number | null
  } | null
}

/**
 * A payment's row, built once: the ledger fills in its id, invoice and times when it writes it
 * (a million rows are copied no more than they must be).
 */
export type PaymentRow = Row<'payments'> & { amount_cents: number; amount_refunded_cents: number }

export interface SalePayment {
  atMs: number
  /** Its organization-local day (refunds come on a later one) */
  day: number
  /** When it last changed: when it failed, or its latest refund */
  updatedMs: number
  row: PaymentRow
  /** Its refunds, once it has any */
  refunds?: SaleRefund[]
}

export interface SaleRefund {
  atMs: number
  amountCents: number
  processorFeeCents: number
  reason: string
  staffUserId: number
}

export interface Sale {
  atMs: number
  day: number
  customerId: number | null
  gymId: number
  staffUserId: number | null
  description: string
  lines: SaleLine[]
  discounts: readonly DemoDiscount[]
  payments: SalePayment[]
  /** The invoice's figures, as priceInvoice works them out */
  priced: PricedInvoice
}

/** A sale as a generator describes it; most have no discount. */
export type SaleFields = Omit<Sale, 'payments' | 'priced' | 'discounts'> & {
  discounts?: readonly DemoDiscount[]
}

const NO_DISCOUNTS: readonly DemoDiscount[] = []

/** A sale's figures, with the invoice arithmetic POST /api/invoices/ uses. */
const price = (sale: Pick<Sale, 'lines' | 'discounts'>): PricedInvoice =>
  priceInvoice(
    sale.lines.map((line) => ({
      unitPriceCents: line.terms.unitPriceCents,
      quantity: line.quantity,
      taxRateBasisPoints: line.terms.taxRateBasisPoints,
    })),
    sale.discounts.map((discount) => discount.terms),
  )

export class Ledger {
  readonly sales: Sale[] = []

  /** A sale, priced; its payments are added to it. */
  record(fields: SaleFields): Sale {
    const discounts = fields.discounts ?? NO_DISCOUNTS
    const priced = price({ lines: fields.lines, discounts })
    const sale: Sale = {
      atMs: fields.atMs,
      day: fields.day,
      customerId: fields.customerId,
      gymId: fields.gymId,
      staffUserId: fields.staffUserId,
      description: fields.description,
      lines: fields.lines,
      discounts,
      payments: [],
      priced,
    }
    this.sales.push(sale)
    return sale
  }

  /**
   * The invoices, their discounts, lines, gifts, payments and refunds as rows. Invoices, payments
   * and refunds each take ids in time order (a sale's later payment gets a later id than sales in
   * between); a sale's entry passes get its invoice id.
   */
  write(ctx: DemoContext): void {
    const { rows, ids } = ctx
    const iso = (ms: number) => new Date(ms).toISOString()
    const payments: SalePayment[] = []
    const sales = this.sales.sort((a, b) => a.atMs - b.atMs)
    for (let i = 0; i < sales.length; i++) {
      const sale = sales[i]!
      // Let each sale go once written: the large set holds hundreds of thousands.
      sales[i] = undefined as never
      const invoiceId = ids.take('invoices')
      const at = iso(sale.atMs)
      const priced = sale.priced
      rows.invoices.push({
        id: invoiceId,
        customer_id: sale.customerId,
        gym_id: sale.gymId,
        staff_user_id: sale.staffUserId,
        description: sale.description,
        created_at: at,
        updated_at: at,
      })
      sale.discounts.forEach((discount, position) =>
        rows.invoice_discounts.push({
          id: ids.take('invoice_discounts'),
          invoice_id: invoiceId,
          position,
          discount_id: discount.id,
          code: discount.code,
          name: discount.name,
          display_name: discount.displayName,
          association_id: discount.associationId,
          amount_cents: priced.discountCents[position]!,
        }),
      )
      sale.lines.forEach((line, position) => {
        const figures = priced.lines[position]!
        const lineId = ids.take('invoice_line_items')
        rows.invoice_line_items.push({
          id: lineId,
          invoice_id: invoiceId,
          position,
          purchase_type: line.purchaseType,
          description: line.terms.description,
          quantity: line.quantity,
          unit_price_cents: line.terms.unitPriceCents,
          discount_cents: figures.discountCents,
          net_cents: figures.netCents,
          tax_rate_id: line.terms.taxRateId,
          tax_rate_basis_points: line.terms.taxRateBasisPoints,
          tax_cents: figures.taxCents,
          revenue_account_code: line.terms.revenueAccountCode,
          membership_type_id: line.membershipTypeId ?? null,
          entry_pass_type_id: line.entryPassTypeId ?? null,
          event_id: line.eventId ?? null,
          voucher_pack_id: line.voucherPackId ?? null,
          customer_membership_id: line.customerMembershipId ?? null,
          reservation_id: line.reservationId ?? null,
          customer_event_voucher_id: line.customerEventVoucherId ?? null,
          period_start: line.periodStart ?? null,
        })
        if (line.pass) line.pass.invoice_id = invoiceId
        const gift = line.gift
        if (gift)
          rows.gifts.push({
            id: ids.take('gifts'),
            code: gift.code,
            invoice_line_item_id: lineId,
            entry_pass_type_id: gift.entryPassTypeId,
            voucher_pack_id: gift.voucherPackId,
            purchaser_id: sale.customerId,
            redeemed_by_id: gift.redeemed?.customerId ?? null,
            redeemed_at: gift.redeemed ? iso(gift.redeemed.atMs) : null,
            customer_entry_pass_id: gift.redeemed?.entryPassId ?? null,
            customer_event_voucher_id: gift.redeemed?.eventVoucherId ?? null,
            created_at: at,
          })
      })
      for (const payment of sale.payments) {
        payment.row.invoice_id = invoiceId
        // Most payments are made with their sale: they share its time's text.
        if (payment.atMs === sale.atMs) payment.row.created_at = at
        payments.push(payment)
      }
    }
    sales.length = 0

    const refunds: { refund: SaleRefund; paymentId: number }[] = []
    for (const payment of payments.sort((a, b) => a.atMs - b.atMs)) {
      const row = payment.row
      row.id = ids.take('payments')
      if (row.created_at === '') row.created_at = iso(payment.atMs)
      row.updated_at = payment.updatedMs === payment.atMs ? row.created_at : iso(payment.updatedMs)
      rows.payments.push(row)
      for (const refund of payment.refunds ?? []) refunds.push({ refund, paymentId: row.id })
    }
    for (const { refund, paymentId } of refunds.sort((a, b) => a.refund.atMs - b.refund.atMs))
      rows.refunds.push({
        id: ids.take('refunds'),
        payment_id: paymentId,
        amount_cents: refund.amountCents,
        processor_fee_cents: refund.processorFeeCents,
        reason: refund.reason,
        staff_user_id: refund.staffUserId,
        created_at: iso(refund.atMs),
      })
  }
}

/** The desk's hours, in local minutes: sales at the counter happen while it is open. */
const DESK_OPENS = 9 * 60
const DESK_CLOSES = 22 * 60

/** A moment on `day` while the desk is open; null when that moment is still to come today. */
export function deskMs(rng: Random, cal: Calendar, day: number): number | null {
  const ms = cal.instantMs(day, rng.int(DESK_OPENS, DESK_CLOSES - 1))
  return ms <= cal.nowMs ? ms : null
}

/** When something the history says was done at the desk on `day` was done: now, if not open yet. */
export const deskMsBy = (rng: Random, cal: Calendar, day: number): number =>
  deskMs(rng, cal, day) ?? cal.nowMs

/** When the morning billing run charged renewals on `day` (never later than now). */
export const billingRunMs = (rng: Random, cal: Calendar, day: number): number =>
  Math.min(cal.instantMs(day, rng.int(6 * 60, 7 * 60 - 1)), cal.nowMs)

/** The desk staff of a gym (each gym has its own, in gym order). */
export function deskStaffAt(ctx: DemoContext, gymId: number): number[] {
  const index = ctx.gyms.find((gym) => gym.id === gymId)?.index ?? 0
  const per = ctx.profile.deskStaffPerGym
  return ctx.staff.deskIds.slice(index * per, (index + 1) * per)
}
