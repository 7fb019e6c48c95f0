/**
 * The Sell screen's vocabulary: what it sells from the catalogue, the sale as the desk drafts it,
 * the request it posts and the invoice the API answers with. The API prices the sale (discounts,
 * tax, totals); the desk only shows what it answers.
 */
import { api, query } from '../../api.ts'
import type { Credit, Customer, Page } from '../../types.ts'

/** A membership type, entry pass type or voucher pack, as its collection lists it. */
export interface Product {
  id: number
  name: string
  /** The unit price, a decimal string with 2 places. */
  price: string
}

export interface TaxRate {
  id: number
  name: string
  /** A fraction with 4 places: "0.0825" is 8.25%. */
  rate: string
}

/** A tax rate by its name and percentage: `Sales tax 8.25%`. */
export const taxRateLabel = (rate: TaxRate): string =>
  `${rate.name} ${Math.round(Number(rate.rate) * 10000) / 100}%`

/** What the desk sells from the catalogue, each kind by the line purchase type that sells it. */
export const PRODUCT_KINDS = [
  { purchaseType: 'MIN', label: 'Memberships', path: '/api/memberships/', idField: 'membership_id' },
  { purchaseType: 'EPA', label: 'Entry passes', path: '/api/entry-passes/', idField: 'entry_pass_id' },
  { purchaseType: 'VPO', label: 'Voucher packs', path: '/api/voucher-packs/', idField: 'voucher_pack_id' },
] as const

export type ProductKind = (typeof PRODUCT_KINDS)[number]

export interface Catalogue {
  products: Record<ProductKind['purchaseType'], Product[]>
  taxRates: TaxRate[]
}

/** More than a gym sells at once; the lists are read whole. */
const ALL = 100

/** What can be sold now: the active products of each kind and the active tax rates. */
export async function loadCatalogue(): Promise<Catalogue> {
  const active = query({ status: 'ACT', page_size: ALL })
  const [products, taxRates] = await Promise.all([
    Promise.all(PRODUCT_KINDS.map((kind) => api<Page<Product>>('GET', `${kind.path}${active}`))),
    api<Page<TaxRate>>('GET', `/api/tax-rates/${query({ is_active: true, page_size: ALL })}`),
  ])
  const [memberships, passes, packs] = products.map((page) => page.results)
  return { products: { MIN: memberships!, EPA: passes!, VPO: packs! }, taxRates: taxRates.results }
}

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

/**
 * How a payment at the desk is made, each recorded as an offline payment (`OFF`) by its method
 * type: the first offered for a sale's first payment, the second for a second one (the rest, most
 * often, in cash).
 */
export const PAYMENT_METHODS = [
  { method: 'CRD', label: 'Card' },
  { method: 'NA', label: 'Cash' },
  { method: 'BNK', label: 'Bank transfer' },
] as const

/** A payment from one of the customer's credits is made by the method `credit:<its id>`. */
const FROM_CREDIT = 'credit:'

/** The customer's credits that can pay now: not removed, not expired, something left on them. */
export async function usableCredits(customerId: number): Promise<Credit[]> {
  const credits = await api<Page<Credit>>(
    'GET',
    `/api/customers/${customerId}/credits/${query({ page_size: ALL })}`,
  )
  return credits.results.filter((c) => !c.is_removed && !c.is_expired && c.amount_remaining > 0)
}

/** A credit as a payment method the desk offers. */
export const creditMethod = (credit: Credit) => ({
  method: `${FROM_CREDIT}${credit.id}`,
  label: `Credit, ${credit.amount_remaining.toFixed(2)} left`,
})

export const isCreditMethod = (method: string): boolean => method.startsWith(FROM_CREDIT)

export interface DraftPayment {
  /** One of PAYMENT_METHODS, or a credit's (creditMethod). */
  method: string
  amount: string
}

export interface DraftSale {
  customer: Customer | null
  locationId: number
  lines: DraftLine[]
  discountCode: string
  payments: DraftPayment[]
}

/** A whole number as a number, anything else as typed, so the API answers it in its own words. */
const wholeNumber = (typed: string) => (/^\s*\d+\s*$/.test(typed) ? Number(typed) : typed)

/** The body of POST /api/invoices/ for the drafted sale. */
export function saleRequest(sale: DraftSale) {
  const code = sale.discountCode.trim()
  return {
    customer_id: sale.customer?.id ?? null,
    location_id: sale.locationId,
    description: 'Front desk',
    discount_codes: code === '' ? [] : [code],
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
    payments: sale.payments.map((payment) =>
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

/** A decimal amount ("12.50") in cents; null for anything else. */
function cents(amount: string): number | null {
  const match = /^\s*(\d+)(?:\.(\d{1,2}))?\s*$/.exec(amount)
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : null
}

/**
 * What a second payment is offered by default: the lines at their listed prices less the first
 * payment. Only a suggestion, before discounts and tax, which the API works out when the sale is
 * posted; empty when a price or quantity is not a number yet, or nothing is left.
 */
export function remainderSuggestion(lines: DraftLine[], firstPayment: string): string {
  let listed = 0
  for (const line of lines) {
    const price = cents(line.retail ? line.unitPrice : line.product.price)
    const quantity = wholeNumber(line.quantity)
    if (price === null || typeof quantity !== 'number') return ''
    listed += price * quantity
  }
  const paid = cents(firstPayment)
  const left = listed - (paid ?? 0)
  return paid === null || left <= 0 ? '' : `${Math.floor(left / 100)}.${String(left % 100).padStart(2, '0')}`
}

/**
 * A refused sale's messages by their DRF path (`discount_codes`, `line_items.1.quantity`,
 * `payments`): a list of strings is a field's messages, a list of objects holds one item's errors
 * at each index.
 */
export function errorsByPath(body: unknown, prefix = ''): Map<string, string[]> {
  const found = new Map<string, string[]>()
  if (body === null || typeof body !== 'object') return found
  for (const [field, value] of Object.entries(body)) {
    const path = prefix + field
    if (!Array.isArray(value)) continue
    value.forEach((item, index) => {
      if (typeof item === 'string') found.set(path, [...(found.get(path) ?? []), item])
      else for (const [at, messages] of errorsByPath(item, `${path}.${index}.`)) found.set(at, messages)
    })
  }
  return found
}

/** One line of a posted invoice, as the receipt shows it. */
export interface InvoiceLine {
  id: number
  description: string
  quantity: number
  unit_price: string
  /** This line's share of the sale's discounts. */
  discount_amount: string
  net_amount: string
  tax_amount: string
}

export interface InvoicePayment {
  id: number
  payment_type: string
  payment_method_type: string
  amount: string
}

export interface InvoiceDiscount {
  discount_id: number
  code: string
  display_name: string
  amount: string
}

/** 201 from POST /api/invoices/: the sale as recorded, with the totals the API worked out. */
export interface Invoice {
  id: number
  location_name: string
  subtotal: string
  discount_total: string
  tax_total: string
  total: string
  amount_paid: string
  balance_due: string
  discounts: InvoiceDiscount[]
  line_items: InvoiceLine[]
  payments: InvoicePayment[]
  created_at: string
}

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
