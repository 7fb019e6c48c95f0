import type {
  SOLD_PURCHASE_TYPES,
  NEW_PAYMENT_STATUSES,
  PAYMENT_METHOD_TYPES,
  PAYMENT_TYPES,
} from '../../domain/sales.ts'

/*
 * A sale as the desk asks for it, once its form has been read: each field as sent when it was
 * well formed, left out when it was not sent or was refused already, amounts in cents. The engine
 * checks what the form cannot (what each id names, whether it can be sold, paid with, renewed)
 * and reports every refusal at once, beside any the caller found first.
 */

export type SoldPurchaseType = (typeof SOLD_PURCHASE_TYPES)[number]

export interface SaleRequest {
  customer_id?: number | null
  location_id?: number
  description?: string
  discount_codes?: readonly string[]
  lines: LineRequest[]
  payments: PaymentRequest[]
  /** The sale's own fields the caller refused already: a refused location_id resolves no gym */
  refused: ReadonlySet<string>
  /** Who sells: a sale without a location is at their default gym when the organization has several */
  staff: { id: number; default_gym_id: number }
}

export interface LineRequest {
  purchase_type?: SoldPurchaseType
  membership_id?: number
  start_date?: string
  member_ids?: number[]
  customer_membership_id?: number
  period_start?: string
  event_type_id?: number
  event_id?: number
  voucher_pack_id?: number
  gift?: { entry_pass_id?: number; voucher_pack_id?: number; membership_id?: number }
  entry_pass_id?: number
  quantity?: number
  /** The line's own price in cents; null when one was sent that is not a price */
  unit_price_cents?: number | null
  description?: string
  tax_rate_id?: number | null
  revenue_account_code?: string
  /** The caller refused part of this line already: it is checked, never sold */
  refused: boolean
}

export interface PaymentRequest {
  payment_type?: (typeof PAYMENT_TYPES)[number]
  credit_id?: number
  voucher_id?: number
  payment_method_type?: (typeof PAYMENT_METHOD_TYPES)[number]
  /** In cents; left out when what was sent is not an amount */
  amount_cents?: number
  status?: (typeof NEW_PAYMENT_STATUSES)[number]
  processor_fee_cents?: number
  credit_card_last4?: string
  credit_card_brand?: string
  bank_account_last4?: string
  bank_account_bank_name?: string
  processor_a_payment_intent_id?: string
  processor_b_external_transaction_id?: string
  processor_b_unique_transaction_id?: string
  processor_c_payment_link_name?: string
  processor_c_payment_link_id?: string
  processor_c_payment_id?: string
  gift_card_number?: string
}
