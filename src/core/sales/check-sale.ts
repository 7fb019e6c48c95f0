import type { Database as BunDatabase } from 'bun:sqlite'
import type { Db } from '../../db/connection.ts'
import { MAX_PAYMENT_CENTS, paymentAmountMessages } from '../../domain/invoice-money.ts'
import { localDate } from '../../lib/local-time.ts'
import { resolveGym } from '../gyms/resolve-gym.ts'
import { checkLine } from './lines/index.ts'
import { saleMessages } from './messages.ts'
import { checkPayment } from './payments.ts'
import { customerExists, findDiscountForSale, getOrganizationZone } from './reads.ts'
import { doesNotExist, Refusals, type SaleRefusal } from './refusals.ts'
import type { SaleRequest, SoldPurchaseType } from './request.ts'
import { priceSale, type Sale, type SaleDiscount, type SaleLine, type SalePayment } from './sale.ts'

/*
 * Checking a sale before it is posted: whom it is for and where, its discounts, each line by its
 * purchase type (lines/) and each payment (payments.ts), every refusal at once; then its totals.
 */

/** Line purchase types that grant the invoice's customer something, so cannot be sold anonymously. */
const GRANTS_TO_CUSTOMER: readonly SoldPurchaseType[] = ['MIN', 'EPA', 'BOO', 'VPO', 'EVV']

export interface SaleDeps {
  db: Db
  /** The raw connection the gym is read on, as the door reads it */
  sqlite: BunDatabase
  clock: { now(): Date }
}

/** A checked sale: its refusals, or the sale to post when neither they nor the caller refused any part; the organization's zone. */
export interface CheckedSale {
  refusals: SaleRefusal[]
  sale?: Omit<Sale, 'idempotency'>
  zone: string
}

/** The discounts named by their codes, in order: each active, none twice. */
async function checkDiscounts(db: Db, codes: readonly string[], refusals: Refusals): Promise<SaleDiscount[]> {
  const found: SaleDiscount[] = []
  for (const code of codes) {
    const discount = await findDiscountForSale(db, code)
    if (!discount || discount.is_active !== 1)
      refusals.add('discount_codes', saleMessages.unknownDiscount(code))
    else if (found.some((other) => other.id === discount.id))
      refusals.add('discount_codes', saleMessages.repeatedDiscount(code))
    else
      found.push({
        id: discount.id,
        code: discount.code,
        name: discount.name,
        display_name: discount.display_name,
        association_id: discount.association_id,
        terms:
          discount.percent_off_hundredths !== null
            ? { percentOffHundredths: discount.percent_off_hundredths }
            : { amountOffCents: discount.amount_off_cents! },
      })
  }
  return found
}

/**
 * Checks the whole sale, each refusal at its place in the request: the customer exists, the gym
 * is the one named (else the organization's only gym, else the seller's default gym), every
 * discount code is active and given once, each line can be sold and each payment made, and a sale
 * that grants the customer something has one.
 */
export async function checkSale(deps: SaleDeps, request: SaleRequest): Promise<CheckedSale> {
  const all: SaleRefusal[] = []
  const top = new Refusals('sale', all)
  const customerId = request.customer_id ?? null
  if (customerId !== null && !(await customerExists(deps.db, customerId)))
    top.add('customer_id', doesNotExist(customerId))
  const gym = request.refused.has('location_id')
    ? undefined
    : resolveGym(deps.sqlite, request.location_id ?? null, request.staff)
  if (!gym && !request.refused.has('location_id'))
    top.add('location_id', doesNotExist(request.location_id ?? request.staff.default_gym_id))
  const discounts = await checkDiscounts(deps.db, request.discount_codes ?? [], top)
  const zone = await getOrganizationZone(deps.db)
  const now = deps.clock.now()
  const lineContext = { db: deps.db, customerId, today: localDate(now, zone) }
  const lines: (SaleLine | undefined)[] = []
  for (const [index, line] of request.lines.entries())
    lines.push(await checkLine(line, lineContext, new Refusals({ list: 'line_items', index }, all)))
  const paymentContext = { db: deps.db, customerId, zone, now, drawn: new Map<number, number>() }
  const payments: (SalePayment | undefined)[] = []
  for (const [index, payment] of request.payments.entries())
    payments.push(await checkPayment(payment, paymentContext, new Refusals({ list: 'payments', index }, all)))
  if (
    customerId === null &&
    lines.some((line) => line && GRANTS_TO_CUSTOMER.includes(line.purchaseType as SoldPurchaseType))
  )
    top.add('customer_id', saleMessages.needsCustomer)
  // A part the caller refused (its form) is not sold either, though the engine found no fault in it.
  const whole = request.refused.size === 0 && lines.every(Boolean) && payments.every(Boolean)
  if (all.length > 0 || !whole) return { refusals: all, zone }
  return {
    refusals: all,
    zone,
    sale: {
      customerId,
      gymId: gym!.id,
      staffUserId: request.staff.id,
      description: request.description ?? '',
      discounts,
      lines: lines as SaleLine[],
      payments: payments as SalePayment[],
    },
  }
}

/**
 * Whether the sale can be paid as sent: its lines before discounts, and its total, within what a
 * payment can hold; its payments at most its total. The refusal, or undefined.
 */
export function checkSaleTotals(
  sale: Pick<Sale, 'lines' | 'discounts' | 'payments'>,
): SaleRefusal | undefined {
  const priced = priceSale(sale)
  const grossCents = priced.lines.reduce((sum, line) => sum + line.grossCents, 0)
  const refused = (field: string, message: string): SaleRefusal => ({
    at: 'sale',
    field,
    reason: { message },
  })
  if (grossCents > MAX_PAYMENT_CENTS)
    return refused('line_items', paymentAmountMessages.linesAbovePayment(grossCents))
  if (priced.totalCents > MAX_PAYMENT_CENTS)
    return refused('non_field_errors', paymentAmountMessages.totalAbovePayment(priced.totalCents))
  const paidCents = sale.payments.reduce((sum, payment) => sum + payment.amount_cents, 0)
  if (paidCents > priced.totalCents)
    return refused('payments', saleMessages.overpaid(paidCents, priced.totalCents))
  return undefined
}
