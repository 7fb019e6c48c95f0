/**
 * The sale as the desk drafts it, the request it becomes, and the invoice the API answers with.
 * The API prices the sale (discounts, tax, totals, what is left to pay: use-quote.ts); the desk
 * only shows what it answers.
 */
import type { Credit, Customer } from '../../types.ts'
import type { Product, ProductKind } from './catalogue.ts'
import type { components } from '../../api-schema.ts'

type Schemas = components['schemas']

/**
 * One line of the sale being drafted. Quantities and prices are kept as typed: the API judges
 * them, and its words show at the line.
 */
export type DraftLine =
  | { key: number; retail: false; kind: ProductKind; product: Product; quantity: string; startDate: string }
  | {
      key: number
      retail: true
      description: string
      unitPrice: string
      quantity: string
      taxRateId: number | null
    }

/** How a payment at the desk is made, each recorded as an offline payment (`OFF`) by its method. */
export const PAYMENT_METHODS = [
  { method: 'CRD', label: 'Card' },
  { method: 'NA', label: 'Cash' },
  { method: 'BNK', label: 'Bank transfer' },
] as const

/** The usual method for a second payment: cash beside a card, a card beside anything else. */
export const otherMethod = (first: string): string => (first === 'CRD' ? 'NA' : 'CRD')

/** A payment from one of the customer's credits is made by the method `credit:<its id>`. */
const FROM_CREDIT = 'credit:'

/** A credit as a payment method the desk offers. */
export const creditMethod = (credit: Credit) => ({
  method: `${FROM_CREDIT}${credit.id}`,
  label: `Credit, ${credit.amount_remaining.toFixed(2)} left`,
})

export const isCreditMethod = (method: string): boolean => method.startsWith(FROM_CREDIT)

export interface DraftPayment {
  /** One of PAYMENT_METHODS, or a credit's (creditMethod). */
  method: string
  /** As typed; null while it follows what the sale leaves to pay (the quote's left_to_pay). */
  amount: string | null
}

export interface SaleDraft {
  /** Whose sale it is (the signed-in user at the desk's gym): another's starts afresh. */
  owner: string
  customer: Customer | null
  lines: DraftLine[]
  /** The discount chosen from the list, by its code; '' for none. */
  discountCode: string
  /** One or two. */
  payments: DraftPayment[]
  /** The last line's key, so each line keeps its own while the lines before it are removed. */
  lastKey: number
}

/** A whole number as a number, anything else as typed, so the API answers it in its own words. */
const wholeNumber = (typed: string) => (/^\s*\d+\s*$/.test(typed) ? Number(typed) : typed)

/** A payment of the request, with its amount. */
export interface PaymentAmount {
  method: string
  amount: string
}

/**
 * The body of POST /api/invoices/ (and of its quote) for the drafted sale with `payments`, each
 * sent in the order given.
 */
export function saleBody(sale: SaleDraft, locationId: number, payments: PaymentAmount[]) {
  return {
    customer_id: sale.customer?.id ?? null,
    location_id: locationId,
    description: 'Front desk',
    discount_codes: sale.discountCode === '' ? [] : [sale.discountCode],
    line_items: sale.lines.map((line) =>
      line.retail
        ? {
            purchase_type: 'GEN',
            description: line.description,
            unit_price: line.unitPrice.trim(),
            quantity: wholeNumber(line.quantity),
            tax_rate_id: line.taxRateId,
          }
        : {
            purchase_type: line.kind.purchaseType,
            [line.kind.idField]: line.product.id,
            quantity: wholeNumber(line.quantity),
            ...(line.kind.purchaseType === 'MIN' ? { start_date: line.startDate } : {}),
          },
    ),
    payments: payments.map((payment) =>
      isCreditMethod(payment.method)
        ? {
            payment_type: 'CRE',
            credit_id: Number(payment.method.slice(FROM_CREDIT.length)),
            amount: payment.amount.trim(),
          }
        : { payment_type: 'OFF', payment_method_type: payment.method, amount: payment.amount.trim() },
    ),
  }
}

/** 201 from POST /api/invoices/: the sale as recorded, with the totals the API worked out. */
export type Invoice = Schemas['Invoice']

/** One line of a posted invoice, as the receipt shows it. */
export type InvoiceLine = Invoice['line_items'][number]

export type InvoicePayment = Invoice['payments'][number]

export type InvoiceDiscount = Invoice['discounts'][number]

/** A payment's method in the desk's words. */
export function paymentMethodName(payment: InvoicePayment): string {
  if (payment.payment_type === 'CRE') return 'Credit'
  if (payment.payment_type !== 'OFF') return payment.payment_type
  return (
    PAYMENT_METHODS.find((m) => m.method === payment.payment_method_type)?.label ??
    payment.payment_method_type
  )
}

/** The day in a time zone as the API writes dates (`2026-11-24`), for a membership's first day. */
export const dayInZone = (timeZone: string, at = new Date()): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)

/** A UTC instant as the date and time on the gym's wall clock, for the receipt. */
export const dateTimeInZone = (instant: string, timeZone: string): string =>
  new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(instant),
  )
