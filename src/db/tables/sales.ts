import type { Generated } from 'kysely'
import type { Flag } from './flag.ts'
import type { ProductStatus } from './products.ts'

/** What the gym sells beyond its product types: tax rates, discounts, voucher packs (migration 0005). */

export interface TaxRateTable {
  id: Generated<number>
  name: string
  /** The rate in ten-thousandths: 0.0825 is 825 */
  rate_basis_points: number
  is_active: Flag
  created_at: string
  updated_at: string
}

export interface DiscountTable {
  id: Generated<number>
  /** Unique whatever its case (the column compares without case) */
  code: string
  name: string
  display_name: string
  association_id: number | null
  /** Exactly one of the two is set: a percentage in hundredths (12.50% is 1250), or an amount */
  percent_off_hundredths: number | null
  amount_off_cents: number | null
  is_active: Flag
  created_at: string
  updated_at: string
}

export interface VoucherPackTable {
  id: Generated<number>
  name: string
  status: ProductStatus
  event_type_id: number
  number_of_uses: number
  valid_days: number | null
  price_cents: number
  tax_rate_id: number | null
  revenue_account_code: string
  created_at: string
  updated_at: string
}

/** The sales the desk records (migration 0006); money in cents, each row as it was when posted. */

export type LineItemPurchaseType =
  'BOO' | 'MIN' | 'MFA' | 'MRE' | 'MFR' | 'MAC' | 'EPA' | 'VPO' | 'EVV' | 'GIF' | 'GEN' | 'LEG'
export type PaymentStatus = 'PEN' | 'PRO' | 'COM' | 'FAI' | 'PRF' | 'REF' | 'CAN'

export interface InvoiceTable {
  id: Generated<number>
  /** null for an anonymous sale */
  customer_id: number | null
  /** The location (gym) it was sold at */
  gym_id: number
  staff_user_id: number | null
  description: string
  /** The Idempotency-Key the sale was sent with, unique per staff user; null when none */
  idempotency_key: string | null
  /** A digest of the request the key came with, so the key cannot be reused for another sale */
  request_digest: string | null
  created_at: string
  updated_at: string
}

/** A discount applied to an invoice, in the order given, with its names as they were then. */
export interface InvoiceDiscountTable {
  id: Generated<number>
  invoice_id: number
  position: number
  discount_id: number
  code: string
  name: string
  display_name: string
  association_id: number | null
  /** What this discount took off the invoice */
  amount_cents: number
}

export interface InvoiceLineItemTable {
  id: Generated<number>
  invoice_id: number
  position: number
  purchase_type: LineItemPurchaseType
  description: string
  quantity: number
  unit_price_cents: number
  /** This line's share of the invoice's discounts */
  discount_cents: number
  /** unit price x quantity - discount share */
  net_cents: number
  tax_rate_id: number | null
  /** The rate charged, kept so a later change of the rate leaves the line as sold */
  tax_rate_basis_points: number
  tax_cents: number
  revenue_account_code: string
  /** The product sold, one of these for a product line */
  membership_type_id: number | null
  entry_pass_type_id: number | null
  event_id: number | null
  voucher_pack_id: number | null
  /** What the line granted (entry passes point back with their invoice_id; gifts with their line) */
  customer_membership_id: number | null
  reservation_id: number | null
  customer_event_voucher_id: number | null
  /** MRE: the first day of the billing period the renewal paid (null on renewals sold before 0021) */
  period_start: string | null
}

export interface PaymentTable {
  id: Generated<number>
  invoice_id: number
  status: PaymentStatus
  payment_type: string
  payment_method_type: string
  amount_cents: number
  amount_refunded_cents: number
  processor_fee_cents: number
  failure_message: string
  credit_id: number | null
  voucher_id: number | null
  credit_card_last4: string
  credit_card_brand: string
  bank_account_last4: string
  bank_account_bank_name: string
  processor_a_payment_intent_id: string
  processor_b_external_transaction_id: string
  processor_b_unique_transaction_id: string
  processor_c_payment_link_name: string
  processor_c_payment_link_id: string
  processor_c_payment_id: string
  gift_card_number: string
  created_at: string
  updated_at: string
}

/** A refund of part or all of a payment, on its own day with its own processor fee. */
export interface RefundTable {
  id: Generated<number>
  payment_id: number
  amount_cents: number
  processor_fee_cents: number
  reason: string
  staff_user_id: number | null
  created_at: string
}

/** A gift sold on a GIF line: a code that grants one product to whoever redeems it. */
export interface GiftTable {
  id: Generated<number>
  code: string
  invoice_line_item_id: number
  /** The product gifted: an entry pass type, a voucher pack or a membership type (migration 0007) */
  entry_pass_type_id: number | null
  voucher_pack_id: number | null
  membership_type_id: number | null
  purchaser_id: number | null
  redeemed_by_id: number | null
  redeemed_at: string | null
  /** What redeeming it granted */
  customer_entry_pass_id: number | null
  customer_event_voucher_id: number | null
  customer_membership_id: number | null
  created_at: string
}

/**
 * A line's share of a paid payment or of a refund of one (migration 0011, written by triggers):
 * what revenue metrics add up, at the instant the money moved.
 */
export interface RevenueEntryTable {
  /** The payment's created_at, or the refund's */
  at: string
  payment_id: number
  /** The refund, or 0 for the payment itself */
  refund_id: number
  line_id: number
  purchase_type: LineItemPurchaseType
  /** The line's membership type, entry pass type, event type or voucher pack; null for other lines */
  product_id: number | null
  /** The invoice's location */
  gym_id: number
  payment_type: string
  /** Line net x amount / invoice total, in cents (negative for a refund) */
  amount: number
  /** Line total x processor fee / invoice total, in cents */
  fee: number
}

/** A button of the desk's Sell screen that adds one product in one click (migration 0025). */
export interface QuickSaleTable {
  /** 0 to 7: where the button stands */
  position: number
  purchase_type: 'MIN' | 'EPA' | 'VPO'
  /** The membership type, entry pass type or voucher pack, by purchase_type */
  product_id: number
  label: string
}
