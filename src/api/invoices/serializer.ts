import type { Static } from '@sinclair/typebox'
import type { InvoiceRow } from './queries.ts'
import type { InvoiceOut, InvoiceQuoteOut } from './schema.ts'
import { priceSale, type Sale } from '../../core/sales/sale.ts'
import { PAID_PAYMENT_STATUSES } from '../../domain/sales.ts'
import type { Urls } from '../../http/urls.ts'
import { centsToDecimal, unitsToDecimal } from '../../lib/money.ts'
import { RATE_PLACES } from '../tax-rates/schema.ts'

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)

/**
 * An invoice with its totals, computed from the lines as sold: the subtotal is the lines' gross,
 * the total their net plus tax. Paid is what complete payments brought in (a processing payment
 * is not paid yet); refunds are shown apart and leave the balance due as it was.
 */
export function serializeInvoice(row: InvoiceRow, urls: Urls): Static<typeof InvoiceOut> {
  const lines = row.line_items
  const subtotal = sum(lines.map((line) => line.unit_price_cents * line.quantity))
  const discountTotal = sum(lines.map((line) => line.discount_cents))
  const taxTotal = sum(lines.map((line) => line.tax_cents))
  const total = sum(lines.map((line) => line.net_cents + line.tax_cents))
  const paid = sum(
    row.payments
      .filter((payment) => (PAID_PAYMENT_STATUSES as readonly string[]).includes(payment.status))
      .map((payment) => payment.amount_cents),
  )
  return {
    id: row.id,
    url: urls.abs('/api/invoices', row.id),
    customer_id: row.customer_id,
    location_id: row.gym_id,
    location_name: row.location_name,
    staff_user_id: row.staff_user_id,
    description: row.description,
    subtotal: centsToDecimal(subtotal),
    discount_total: centsToDecimal(discountTotal),
    tax_total: centsToDecimal(taxTotal),
    total: centsToDecimal(total),
    amount_paid: centsToDecimal(paid),
    amount_refunded: centsToDecimal(sum(row.refunds.map((refund) => refund.amount_cents))),
    balance_due: centsToDecimal(total - paid),
    discounts: row.discounts.map((discount) => ({
      discount_id: discount.discount_id,
      code: discount.code,
      name: discount.name,
      display_name: discount.display_name,
      association_id: discount.association_id,
      amount: centsToDecimal(discount.amount_cents),
    })),
    line_items: lines.map((line) => ({
      id: line.id,
      purchase_type: line.purchase_type,
      description: line.description,
      quantity: line.quantity,
      unit_price: centsToDecimal(line.unit_price_cents),
      discount_amount: centsToDecimal(line.discount_cents),
      net_amount: centsToDecimal(line.net_cents),
      tax_rate_id: line.tax_rate_id,
      tax_rate: unitsToDecimal(line.tax_rate_basis_points, RATE_PLACES),
      tax_amount: centsToDecimal(line.tax_cents),
      total: centsToDecimal(line.net_cents + line.tax_cents),
      revenue_account_code: line.revenue_account_code,
      membership_id: line.membership_type_id,
      customer_membership_id: line.customer_membership_id,
      entry_pass_id: line.entry_pass_type_id,
      event_id: line.event_id,
      voucher_pack_id: line.voucher_pack_id,
      reservation_id: line.reservation_id,
      customer_event_voucher_id: line.customer_event_voucher_id,
      gift_code: line.gift_code,
      customer_entry_pass_ids: line.customer_entry_pass_ids,
      period_start: line.period_start,
    })),
    payments: row.payments.map((payment) => ({
      id: payment.id,
      status: payment.status,
      payment_type: payment.payment_type,
      payment_method_type: payment.payment_method_type,
      amount: centsToDecimal(payment.amount_cents),
      amount_refunded: centsToDecimal(payment.amount_refunded_cents),
      processor_fee: centsToDecimal(payment.processor_fee_cents),
      failure_message: payment.failure_message,
      credit_id: payment.credit_id,
      voucher_id: payment.voucher_id,
      credit_card_last4: payment.credit_card_last4,
      credit_card_brand: payment.credit_card_brand,
      bank_account_last4: payment.bank_account_last4,
      bank_account_bank_name: payment.bank_account_bank_name,
      processor_a_payment_intent_id: payment.processor_a_payment_intent_id,
      processor_b_external_transaction_id: payment.processor_b_external_transaction_id,
      processor_b_unique_transaction_id: payment.processor_b_unique_transaction_id,
      processor_c_payment_link_name: payment.processor_c_payment_link_name,
      processor_c_payment_link_id: payment.processor_c_payment_link_id,
      processor_c_payment_id: payment.processor_c_payment_id,
      gift_card_number: payment.gift_card_number,
      created_at: payment.created_at,
      updated_at: payment.updated_at,
    })),
    refunds: row.refunds.map((refund) => ({
      id: refund.id,
      payment_id: refund.payment_id,
      amount: centsToDecimal(refund.amount_cents),
      processor_fee: centsToDecimal(refund.processor_fee_cents),
      reason: refund.reason,
      created_at: refund.created_at,
    })),
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/**
 * A sale not recorded, as POST /api/invoices/quote/ answers it: each line and the totals as the
 * invoice would hold them, priced by the code that posts it (priceSale), and what the payments
 * given leave to pay.
 */
export function serializeQuote(sale: Omit<Sale, 'idempotency'>): Static<typeof InvoiceQuoteOut> {
  const priced = priceSale(sale)
  const subtotal = sum(priced.lines.map((line) => line.grossCents))
  const paid = sum(
    sale.payments
      .filter((payment) => (PAID_PAYMENT_STATUSES as readonly string[]).includes(payment.status))
      .map((payment) => payment.amount_cents),
  )
  const given = sum(sale.payments.map((payment) => payment.amount_cents))
  return {
    customer_id: sale.customerId,
    location_id: sale.gymId,
    description: sale.description,
    subtotal: centsToDecimal(subtotal),
    discount_total: centsToDecimal(priced.discountTotalCents),
    tax_total: centsToDecimal(priced.taxTotalCents),
    total: centsToDecimal(priced.totalCents),
    amount_paid: centsToDecimal(paid),
    balance_due: centsToDecimal(priced.totalCents - paid),
    payments_total: centsToDecimal(given),
    left_to_pay: centsToDecimal(priced.totalCents - given),
    discounts: sale.discounts.map((discount, i) => ({
      discount_id: discount.id,
      code: discount.code,
      name: discount.name,
      display_name: discount.display_name,
      association_id: discount.association_id,
      amount: centsToDecimal(priced.discountCents[i]!),
    })),
    line_items: sale.lines.map((line, i) => {
      const price = priced.lines[i]!
      return {
        purchase_type: line.purchaseType,
        description: line.description,
        quantity: line.quantity,
        unit_price: centsToDecimal(line.unitPriceCents),
        gross_amount: centsToDecimal(price.grossCents),
        discount_amount: centsToDecimal(price.discountCents),
        net_amount: centsToDecimal(price.netCents),
        tax_rate_id: line.taxRateId,
        tax_rate: unitsToDecimal(line.taxRateBasisPoints, RATE_PLACES),
        tax_amount: centsToDecimal(price.taxCents),
        total: centsToDecimal(price.netCents + price.taxCents),
        revenue_account_code: line.revenueAccountCode,
      }
    }),
    payments: sale.payments.map((payment) => ({
      status: payment.status,
      payment_type: payment.payment_type,
      payment_method_type: payment.payment_method_type ?? 'NA',
      amount: centsToDecimal(payment.amount_cents),
      credit_id: payment.credit_id ?? null,
      voucher_id: payment.voucher_id ?? null,
    })),
  }
}
