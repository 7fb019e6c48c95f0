/**
 * A payment's card, bank and processor details: text the processor gave, stored as "" where it gave
 * none. A sale records them as its request names them, and an imported payment as its source
 * serialized them.
 */
export const PAYMENT_DETAIL_COLUMNS = [
  'credit_card_last4',
  'credit_card_brand',
  'bank_account_last4',
  'bank_account_bank_name',
  'processor_a_payment_intent_id',
  'processor_b_external_transaction_id',
  'processor_b_unique_transaction_id',
  'processor_c_payment_link_name',
  'processor_c_payment_link_id',
  'processor_c_payment_id',
  'gift_card_number',
] as const

export type PaymentDetails = Record<(typeof PAYMENT_DETAIL_COLUMNS)[number], string>

/** The details' columns of a payment, "" for each one `given` lacks. */
export function paymentDetails(given: { [K in keyof PaymentDetails]?: string | null }): PaymentDetails {
  return Object.fromEntries(
    PAYMENT_DETAIL_COLUMNS.map((column) => [column, given[column] ?? '']),
  ) as PaymentDetails
}
