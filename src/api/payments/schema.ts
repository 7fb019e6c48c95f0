import { Type as t } from '@sinclair/typebox'
import {
  LINE_PURCHASE_TYPES,
  LISTED_PAYMENT_STATUSES,
  PAYMENT_STATUSES,
  PAYMENT_TYPES,
} from '../../domain/sales.ts'
import { decimalField } from '../../http/decimal.ts'
import { field, out } from '../../http/fields.ts'
import { filterQuery } from '../../http/filters.ts'

export const NoBody = t.Object({})

export const PaymentFail = t.Object({
  failure_message: t.Optional(
    field.text({ blank: true, maxLength: 1000, description: "The processor's reason; empty unless given" }),
  ),
})

export const PaymentRefund = t.Object({
  amount: decimalField({ description: 'Above 0, at most what is not yet refunded of the payment' }),
  processor_fee: t.Optional(
    decimalField({
      description: 'What the processor kept of the refund, at most its amount; "0.00" unless given',
    }),
  ),
  reason: t.Optional(field.text({ blank: true, maxLength: 1000, description: 'Empty unless given' })),
})

const nullableText = () => field.nullable(t.String())

/** The card or bank account a payment used, as recorded; empty where none was. */
export const cardAndBankFields = {
  credit_card_last4: t.String(),
  credit_card_brand: t.String(),
  bank_account_last4: t.String(),
  bank_account_bank_name: t.String(),
}

/** The processor's own references for a payment (and a gift card's number); empty unless it set them. */
export const processorFields = {
  processor_a_payment_intent_id: t.String(),
  processor_b_external_transaction_id: t.String(),
  processor_b_unique_transaction_id: t.String(),
  processor_c_payment_link_name: t.String(),
  processor_c_payment_link_id: t.String(),
  processor_c_payment_id: t.String(),
  gift_card_number: t.String(),
}

export const PaymentLineItemOut = t.Object({
  id: out.id(),
  purchase_type: t.String({ description: LINE_PURCHASE_TYPES.join(', ') }),
  description: t.String(),
  amount: t.Number({
    description:
      "The line's part of this payment, tax included: its price x payment amount / invoice total, not rounded",
  }),
})

/** The payment record, with its invoice's figures as they bear on this payment. */
export const PaymentOut = t.Object({
  id: out.id(),
  url: out.url(),
  status: t.String({ description: LISTED_PAYMENT_STATUSES.join(', ') }),
  failure_message: t.String({ description: 'Empty unless failed' }),
  amount: out.money('Paid toward the invoice; 0.00 for a voucher redemption'),
  amount_pre_tax: out.money('amount - tax_amount'),
  tax_amount: out.money("The invoice's tax x amount / invoice total, rounded half to even to cents"),
  amount_refunded: out.money('Refunded from this payment so far'),
  payment_type: t.String({ description: PAYMENT_TYPES.join(', ') }),
  payment_method_type: t.String({ description: 'NA, CRD or BNK' }),
  ...cardAndBankFields,
  created_date: out.date(),
  invoice_id: t.Integer(),
  invoice_description: t.String(),
  line_items: t.Array(PaymentLineItemOut),
  customer_id: field.nullable(t.Integer({ description: 'Null for an anonymous sale' })),
  customer_first_name: nullableText(),
  customer_last_name: nullableText(),
  customer_email: nullableText(),
  customer_birthday: field.nullable(out.date()),
  discount_amount: field.nullable(out.money("The invoice's discounts in total; null without a discount")),
  discount_code: t.String({ description: "Comma-separated, in the invoice's order; empty if none" }),
  discount_name: t.String({ description: "Comma-separated, in the invoice's order; empty if none" }),
  discount_display_name: t.String({
    description: 'Comma-separated display names, the code standing in for a discount without one',
  }),
  revenue_account_codes: t.Record(t.String(), t.Number(), {
    description:
      "Each revenue account code's fraction of what the invoice's lines with a code came to (they add up to 1); lines without a code are left out, so an invoice with none has {}",
  }),
  location_id: field.nullable(t.Integer()),
  location_name: nullableText(),
  staff_user_id: field.nullable(t.Integer({ description: 'Null for a self-service purchase' })),
  staff_user_first_name: nullableText(),
  staff_user_last_name: nullableText(),
  staff_user_email: nullableText(),
  ...processorFields,
  created_at: out.datetime(),
  updated_at: out.datetime(),
})

/** The list's filters, in the filter set's order (a 400 lists failing filters in it). */
export const PAYMENT_FILTERS = {
  created_at_min: {
    kind: 'date',
    description: "YYYY-MM-DD: created on or after the start of that day in the organization's zone",
  },
  created_at_max: {
    kind: 'date',
    description: "YYYY-MM-DD: created on or before the end of that day in the organization's zone",
  },
  search: {
    kind: 'text',
    description:
      'Space-separated terms, each matching (case-insensitive substring) the invoice id or description, ' +
      "or the customer's email, first, last or preferred name; a term of three or more characters " +
      'ignores case in any script, a shorter one in ASCII letters only',
  },
  payment_method_in: {
    kind: 'exact',
    description: `Comma-separated payment types: ${PAYMENT_TYPES.join(', ')}`,
  },
  amount_min: { kind: 'exact', description: 'A decimal: amount greater than or equal to it' },
  amount_max: { kind: 'exact', description: 'A decimal: amount less than or equal to it' },
  status_in: {
    kind: 'exact',
    description: `Comma-separated statuses (${PAYMENT_STATUSES.join(', ')}), narrowing within the listed ones`,
  },
  discount_association_id: { kind: 'id', description: 'Invoices with a discount of this association' },
  location_id: { kind: 'id', description: "The invoice's location (gym) id" },
  does_not_have_linked_customer: {
    kind: 'bool',
    description: 'true: only anonymous sales; false: only those with a customer',
  },
  processor_a_payment_intent_id: { kind: 'exact', description: 'Exact match' },
  processor_b_external_transaction_id: { kind: 'exact', description: 'Exact match' },
} as const

export const paymentFilterQuery = filterQuery(PAYMENT_FILTERS, { paginated: true })
