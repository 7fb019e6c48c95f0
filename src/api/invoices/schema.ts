import { Type as t } from '@sinclair/typebox'
import {
  NEW_PAYMENT_STATUSES,
  PAYMENT_METHOD_TYPES,
  PAYMENT_TYPES,
  SOLD_PURCHASE_TYPES,
} from '../../domain/sales.ts'
import { decimalField } from '../../http/decimal.ts'
import { FieldErrors } from '../../http/docs.ts'
import { field, out } from '../../http/fields.ts'
import { cardAndBankFields, processorFields } from '../payments/schema.ts'
import { saleTermsWrite } from '../tax-rates/schema.ts'

const optionalText = (maxLength: number, description?: string) =>
  t.Optional(field.text({ blank: true, maxLength, description }))

export const LineItemWrite = t.Object({
  purchase_type: field.choice(SOLD_PURCHASE_TYPES, {
    description:
      'GEN a generic item (retail), MIN a membership, MRE a renewal of one, EPA entry passes, BOO an event booking, VPO a voucher pack, EVV an event voucher, GIF a gift',
  }),
  membership_id: t.Optional(field.integer({ description: 'MIN: the membership type sold (ACT)' })),
  start_date: t.Optional(field.date({ description: 'MIN: the day the membership starts' })),
  member_ids: t.Optional(
    t.Array(field.integer(), {
      description:
        'MIN: customers covered, as /api/customer-memberships/ takes them; default the customer. A type that is not a group type covers exactly the customer.',
    }),
  ),
  customer_membership_id: t.Optional(
    field.integer({
      description:
        "MRE: the customer's own recurring membership renewed (ACT, or PAF after a failed renewal); the line charges its billing amount at its type's tax rate and revenue account",
    }),
  ),
  period_start: t.Optional(
    field.date({
      description:
        "MRE: the first day of the billing period the renewal pays, which must be the membership's next bill date (periods are paid in order). Default: the period due, the one starting at the next bill date when that is today or earlier; a membership paid until a later day has paid the period due, and a renewal without period_start is refused. Naming the period pays ahead, and makes a sale sent twice safe: the second names a period already paid and is refused.",
    }),
  ),
  event_type_id: t.Optional(
    field.integer({
      description: 'EVV: the event type (ACT) of the voucher sold, one use per quantity; unit_price required',
    }),
  ),
  event_id: t.Optional(field.integer({ description: 'BOO: the event booked (not cancelled)' })),
  voucher_pack_id: t.Optional(field.integer({ description: 'VPO: the voucher pack sold (ACT)' })),
  gift: t.Optional(
    t.Object(
      {
        entry_pass_id: t.Optional(field.integer({ description: 'An entry pass type (ACT)' })),
        voucher_pack_id: t.Optional(field.integer({ description: 'A voucher pack (ACT)' })),
        membership_id: t.Optional(field.integer({ description: 'A membership type (ACT)' })),
      },
      { description: 'GIF: the product gifted, exactly one of the three' },
    ),
  ),
  entry_pass_id: t.Optional(field.integer({ description: 'EPA: the entry pass type sold (ACT)' })),
  quantity: t.Optional(
    field.integer({ min: 1, max: 1000, description: 'Default 1; MIN, MRE and BOO only 1' }),
  ),
  unit_price: t.Optional(
    decimalField({
      description:
        "Default: the product's price (MRE: the membership's billing amount); required for GEN and EVV; at least 0",
    }),
  ),
  description: optionalText(255, "Default: the product's name"),
  ...saleTermsWrite,
})

export const PaymentWrite = t.Object({
  payment_type: field.choice(PAYMENT_TYPES, {
    description: 'OFF for a payment recorded at the desk, CRE from a credit, VOU with a voucher',
  }),
  credit_id: t.Optional(field.integer({ description: "CRE: one of the customer's credits" })),
  voucher_id: t.Optional(
    field.integer({ description: "VOU: one of the customer's event vouchers; amount 0" }),
  ),
  payment_method_type: t.Optional(field.choice(PAYMENT_METHOD_TYPES, { description: 'Default NA' })),
  amount: decimalField({ description: 'At least 0' }),
  status: t.Optional(
    field.choice(NEW_PAYMENT_STATUSES, { description: 'COM (default), or PRO while a terminal settles it' }),
  ),
  processor_fee: t.Optional(
    decimalField({ description: 'What the processor kept, at most amount; default "0.00"' }),
  ),
  credit_card_last4: optionalText(4),
  credit_card_brand: optionalText(32),
  bank_account_last4: optionalText(4),
  bank_account_bank_name: optionalText(255),
  processor_a_payment_intent_id: optionalText(255),
  processor_b_external_transaction_id: optionalText(255),
  processor_b_unique_transaction_id: optionalText(255),
  processor_c_payment_link_name: optionalText(255),
  processor_c_payment_link_id: optionalText(255),
  processor_c_payment_id: optionalText(255),
  gift_card_number: optionalText(255),
})

const invoiceFields = {
  customer_id: t.Optional(
    field.nullable(field.integer({ description: 'The customer; null (default) for an anonymous sale' })),
  ),
  location_id: t.Optional(
    field.integer({
      description: "A gym id; default: the organization's only gym, else the requesting user's default gym",
    }),
  ),
  description: optionalText(255),
  discount_codes: t.Optional(
    t.Array(field.text({ maxLength: 64 }), {
      description:
        'Discount codes in any case, each of an active discount and named once, applied in this order',
    }),
  ),
}

/** The request as documented: each line and payment with its own fields. */
export const InvoiceCreate = t.Object({
  ...invoiceFields,
  line_items: t.Array(LineItemWrite, { minItems: 1 }),
  payments: t.Optional(t.Array(PaymentWrite)),
})

/** The request's top level as first checked: each line and payment is then checked on its own. */
export const InvoiceCreateTop = t.Object({
  ...invoiceFields,
  line_items: t.Array(t.Unknown()),
  payments: t.Optional(t.Array(t.Unknown())),
})

/** A 400 of POST /api/invoices/: field errors, with each failing line or payment at its index. */
export const InvoiceErrors = t.Record(t.String(), t.Union([t.Array(t.String()), t.Array(FieldErrors)]), {
  title: 'InvoiceErrors',
  description:
    'DRF field errors; line_items and payments hold one object per item sent, {} for an item that passed. A sale whose lines come to more than 99999999.99 before discounts (the most a payment can hold) is refused at line_items; one whose total does is refused at non_field_errors.',
})

export const LineItemOut = t.Object({
  id: t.Integer(),
  purchase_type: t.String(),
  description: t.String(),
  quantity: t.Integer(),
  unit_price: out.money(),
  discount_amount: out.money(
    "Its share of the discounts: the running exact share of the lines so far rounded half to even, less the lines before it's; never below 0 or above its gross, and the shares add up to discount_total",
  ),
  net_amount: out.money(),
  tax_rate_id: field.nullable(t.Integer()),
  tax_rate: t.String({ description: 'The rate charged, 4 places ("0.0825")' }),
  tax_amount: out.money(),
  total: out.money(),
  revenue_account_code: t.String(),
  membership_id: field.nullable(t.Integer()),
  customer_membership_id: field.nullable(
    t.Integer({ description: 'MIN: the membership it started; MRE: the membership it renewed' }),
  ),
  entry_pass_id: field.nullable(t.Integer()),
  event_id: field.nullable(t.Integer()),
  voucher_pack_id: field.nullable(t.Integer()),
  reservation_id: field.nullable(t.Integer({ description: 'BOO: the reservation it booked' })),
  customer_event_voucher_id: field.nullable(t.Integer({ description: 'VPO, EVV: the voucher it issued' })),
  gift_code: field.nullable(t.String({ description: 'GIF: the code that redeems the gift' })),
  customer_entry_pass_ids: t.Array(t.Integer(), { description: 'EPA: the passes it issued' }),
  period_start: field.nullable(
    t.String({
      format: 'date',
      description:
        'MRE: the first day of the billing period it paid; null on other lines and on renewals sold before periods were recorded',
    }),
  ),
})

export const PaymentOut = t.Object({
  id: t.Integer(),
  status: t.String(),
  payment_type: t.String(),
  payment_method_type: t.String(),
  amount: out.money(),
  amount_refunded: out.money(),
  processor_fee: out.money(),
  failure_message: t.String(),
  credit_id: field.nullable(t.Integer()),
  voucher_id: field.nullable(t.Integer()),
  ...cardAndBankFields,
  ...processorFields,
  created_at: out.datetime(),
  updated_at: out.datetime(),
})

export const RefundOut = t.Object({
  id: t.Integer(),
  payment_id: t.Integer(),
  amount: out.money(),
  processor_fee: out.money(),
  reason: t.String(),
  created_at: out.datetime(),
})

export const InvoiceDiscountOut = t.Object({
  discount_id: t.Integer(),
  code: t.String(),
  name: t.String(),
  display_name: t.String(),
  association_id: field.nullable(t.Integer()),
  amount: out.money(),
})

export const InvoiceOut = t.Object({
  id: out.id(),
  url: out.url(),
  customer_id: field.nullable(t.Integer()),
  location_id: t.Integer(),
  location_name: t.String(),
  staff_user_id: field.nullable(t.Integer()),
  description: t.String(),
  subtotal: out.money("The lines' gross: unit price x quantity, before discounts"),
  discount_total: out.money("The discounts' total, spread over the lines as their discount_amount"),
  tax_total: out.money("The lines' tax"),
  total: out.money("The lines' net plus tax"),
  amount_paid: out.money('What complete payments (COM, PRF, REF) brought in; a PRO payment is still due'),
  amount_refunded: out.money('Refunded from its payments so far'),
  balance_due: out.money('total - amount_paid; refunds leave it as it was'),
  discounts: t.Array(InvoiceDiscountOut),
  line_items: t.Array(LineItemOut),
  payments: t.Array(PaymentOut),
  refunds: t.Array(RefundOut),
  created_at: out.datetime(),
  updated_at: out.datetime(),
})

export const invoiceFilterSpec = {
  customer_id: { kind: 'id', description: 'Exact customer id' },
  location_id: { kind: 'id', description: 'Exact location (gym) id' },
  created_at_min: {
    kind: 'date',
    description: "YYYY-MM-DD: created on or after the start of that day in the organization's zone",
  },
  created_at_max: {
    kind: 'date',
    description: "YYYY-MM-DD: created on or before the end of that day in the organization's zone",
  },
} as const

/** 200 from POST /api/invoices/quote/: the invoice the sale would make, recorded nowhere. */
export const InvoiceQuoteOut = t.Object(
  {
    customer_id: field.nullable(t.Integer()),
    location_id: t.Integer({ description: 'The gym the sale would be recorded at' }),
    description: t.String(),
    subtotal: out.money("The lines' gross: unit price x quantity, before discounts"),
    discount_total: out.money("The discounts' total, spread over the lines as their discount_amount"),
    tax_total: out.money("The lines' tax"),
    total: out.money("The lines' net plus tax"),
    amount_paid: out.money('What the complete payments given (COM) would bring in, as the invoice counts it'),
    balance_due: out.money('total - amount_paid, as the invoice would show it'),
    payments_total: out.money('Every payment given, a PRO one too'),
    left_to_pay: out.money('total - payments_total: what a further payment would have to bring in'),
    discounts: t.Array(
      t.Object({
        discount_id: t.Integer(),
        code: t.String(),
        name: t.String(),
        display_name: t.String(),
        association_id: field.nullable(t.Integer()),
        amount: out.money('What this discount takes off, applied in the order given'),
      }),
    ),
    line_items: t.Array(
      t.Object({
        purchase_type: t.String(),
        description: t.String(),
        quantity: t.Integer(),
        unit_price: out.money(),
        gross_amount: out.money('unit_price x quantity'),
        discount_amount: out.money('Its share of the discounts, as the invoice would hold it'),
        net_amount: out.money(),
        tax_rate_id: field.nullable(t.Integer()),
        tax_rate: t.String({ description: 'The rate charged, 4 places ("0.0825")' }),
        tax_amount: out.money(),
        total: out.money(),
        revenue_account_code: t.String(),
      }),
    ),
    payments: t.Array(
      t.Object({
        status: t.String(),
        payment_type: t.String(),
        payment_method_type: t.String(),
        amount: out.money(),
        credit_id: field.nullable(t.Integer()),
        voucher_id: field.nullable(t.Integer()),
      }),
    ),
  },
  {
    description:
      'A sale priced but not recorded: what POST /api/invoices/ would record for the same body now. Nothing in it has an id.',
  },
)
