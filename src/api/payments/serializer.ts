import type { Static } from '@sinclair/typebox'
import { scaleHalfEven } from '../../domain/invoice-money.ts'
import type { Urls } from '../../http/urls.ts'
import { localDate } from '../../lib/local-time.ts'
import { centsToDecimal } from '../../lib/money.ts'
import type { PaymentRow } from './queries.ts'
import type { PaymentOut } from './schema.ts'

interface LineCents {
  id: number
  purchase_type: string
  description: string
  cents: number
}

/**
 * Each revenue account code's fraction of what the invoice's lines with a code came to. A line
 * sold without a code is left out rather than shown under an empty code, so the fractions add up
 * to 1 whenever a line has a code (and the object is empty when none has). Lines that came to
 * nothing have no total to divide, so their codes share it equally.
 */
function revenueFractions(revenueCents: Record<string, number>): Record<string, number> {
  const codes = Object.keys(revenueCents)
  const totalCents = codes.reduce((sum, code) => sum + revenueCents[code]!, 0)
  return Object.fromEntries(
    codes.map((code) => [code, totalCents === 0 ? 1 / codes.length : revenueCents[code]! / totalCents]),
  )
}

/**
 * The payment record, fields in their documented order. A partial payment carries its share of the
 * invoice (amount / invoice total) of the tax, rounded to cents, and of each line, not rounded.
 */
export function serializePayment(row: PaymentRow, urls: Urls): Static<typeof PaymentOut> {
  const total = row.invoice_total_cents
  const share = (cents: number) => (total === 0 ? 0 : (cents * row.amount_cents) / total)
  const taxCents = total === 0 ? 0 : scaleHalfEven(row.invoice_tax_cents, row.amount_cents, total)
  const lines = JSON.parse(row.line_items) as LineCents[]
  const anonymous = row.customer_id === null
  return {
    id: row.id,
    url: urls.abs('/api/payments', row.id),
    status: row.status,
    failure_message: row.failure_message,
    amount: centsToDecimal(row.amount_cents),
    amount_pre_tax: centsToDecimal(row.amount_cents - taxCents),
    tax_amount: centsToDecimal(taxCents),
    amount_refunded: centsToDecimal(row.amount_refunded_cents),
    payment_type: row.payment_type,
    payment_method_type: row.payment_method_type,
    credit_card_last4: row.credit_card_last4,
    credit_card_brand: row.credit_card_brand,
    bank_account_last4: row.bank_account_last4,
    bank_account_bank_name: row.bank_account_bank_name,
    created_date: localDate(new Date(row.created_at), row.organization_time_zone),
    invoice_id: row.invoice_id,
    invoice_description: row.invoice_description,
    line_items: lines.map((line) => ({
      id: line.id,
      purchase_type: line.purchase_type,
      description: line.description,
      amount: share(line.cents) / 100,
    })),
    customer_id: row.customer_id,
    customer_first_name: anonymous ? null : row.customer_first_name,
    customer_last_name: anonymous ? null : row.customer_last_name,
    customer_email: anonymous ? null : row.customer_email,
    customer_birthday: row.customer_birthday || null,
    discount_amount: row.discount_cents === null ? null : centsToDecimal(row.discount_cents),
    discount_code: row.discount_codes,
    discount_name: row.discount_names,
    discount_display_name: row.discount_display_names,
    revenue_account_codes: revenueFractions(JSON.parse(row.revenue_cents) as Record<string, number>),
    location_id: row.location_id,
    location_name: row.location_name,
    staff_user_id: row.staff_user_id,
    staff_user_first_name: row.staff_user_first_name,
    staff_user_last_name: row.staff_user_last_name,
    staff_user_email: row.staff_user_email,
    processor_a_payment_intent_id: row.processor_a_payment_intent_id,
    processor_b_external_transaction_id: row.processor_b_external_transaction_id,
    processor_b_unique_transaction_id: row.processor_b_unique_transaction_id,
    processor_c_payment_link_name: row.processor_c_payment_link_name,
    processor_c_payment_link_id: row.processor_c_payment_link_id,
    processor_c_payment_id: row.processor_c_payment_id,
    gift_card_number: row.gift_card_number,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
