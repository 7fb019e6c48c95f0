import type { Static, TObject } from '@sinclair/typebox'
import { invoiceMessages } from './messages.ts'
import type { InvoiceQuery } from './queries.ts'
import { resolveLine, type LineContext } from './sale-lines.ts'
import { resolvePayment, unpayableSale, type SaleContext } from './sale-payments.ts'
import {
  InvoiceCreate,
  InvoiceCreateTop,
  LineItemWrite,
  PaymentWrite,
  type invoiceFilterSpec,
} from './schema.ts'
import { customerExists } from '../customers/queries.ts'
import { findDiscountByCode, type DiscountRow } from '../discounts/queries.ts'
import { loadOrganization } from '../organization/queries.ts'
import { resolveGym } from '../../core/door/record.ts'
import {
  IdempotencyKeyUsed,
  MembershipChanged,
  PaymentSourceSpent,
  postInvoice,
  priceSale,
  type SaleDiscount,
  type SaleIdempotency,
  type SaleLine,
  type SalePayment,
} from '../../core/sales/post-invoice.ts'
import { findInvoiceByIdempotencyKey } from '../../core/sales/queries.ts'
import type { Actor } from '../../domain/actor.ts'
import type { Deps } from '../../deps.ts'
import { ApiError, FieldErrorCollector, messages, type FieldErrors } from '../../http/errors.ts'
import type { FilterValues } from '../../http/filters.ts'
import { lookUpReferenced } from '../../http/references.ts'
import { CheckedBody, checkBody } from '../../http/validation.ts'
import { jsonTypeName } from '../../lib/json.ts'
import { endOfLocalDay, localDate, startOfLocalDay } from '../../lib/local-time.ts'

/** Line purchase types that grant the invoice's customer something, so cannot be sold anonymously. */
const GRANTS_TO_CUSTOMER: readonly string[] = ['MIN', 'EPA', 'BOO', 'VPO', 'EVV']

/**
 * One line or payment of the request checked on its own, as a DRF nested serializer checks each
 * item of a list: something other than an object fails as a whole.
 */
function checkItem<S extends TObject>(schema: S, item: unknown): CheckedBody<Static<S>> {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    return new CheckedBody<Static<S>>(
      {},
      new FieldErrorCollector({ non_field_errors: [messages.invalidBody(jsonTypeName(item))] }),
    )
  }
  return checkBody(schema, item)
}

/** The discounts named by their codes, in order: each active, none twice. */
async function resolveDiscounts(
  deps: Pick<Deps, 'db'>,
  errors: FieldErrorCollector,
  codes: readonly string[],
): Promise<SaleDiscount[]> {
  const found: DiscountRow[] = []
  for (const code of codes) {
    const discount = await findDiscountByCode(deps.db, code)
    if (!discount || discount.is_active !== 1)
      errors.add('discount_codes', invoiceMessages.unknownDiscount(code))
    else if (found.some((other) => other.id === discount.id))
      errors.add('discount_codes', invoiceMessages.repeatedDiscount(code))
    else found.push(discount)
  }
  return found.map((discount) => ({
    id: discount.id,
    code: discount.code,
    name: discount.name,
    display_name: discount.display_name,
    association_id: discount.association_id,
    terms:
      discount.percent_off_hundredths !== null
        ? { percentOffHundredths: discount.percent_off_hundredths }
        : { amountOffCents: discount.amount_off_cents! },
  }))
}

/**
 * The 400 of a sale: the top level's field errors, with `line_items` and `payments` holding one
 * object per item sent ({} for an item that passed) when any item failed; nothing when all passed.
 */
function saleErrors(
  top: FieldErrorCollector,
  lines: CheckedBody<unknown>[],
  payments: CheckedBody<unknown>[],
): ApiError | undefined {
  const fields: Record<string, string[] | FieldErrors[]> = top.collected()
  const nested: Array<['line_items' | 'payments', CheckedBody<unknown>[]]> = [
    ['line_items', lines],
    ['payments', payments],
  ]
  for (const [name, items] of nested) {
    const itemErrors = items.map((item) => item.errors.collected())
    if (!(name in fields) && itemErrors.some((errors) => Object.keys(errors).length > 0))
      fields[name] = itemErrors
  }
  if (Object.keys(fields).length === 0) return undefined
  const order = Object.keys(InvoiceCreate.properties)
  const rank = (field: string) => (order.includes(field) ? order.indexOf(field) : order.length)
  const sorted = Object.keys(fields).sort((a, b) => rank(a) - rank(b))
  return new ApiError(400, Object.fromEntries(sorted.map((field) => [field, fields[field]])))
}

/**
 * POST /api/invoices/: checks the whole sale (every line and payment, each at its own path), then
 * posts it in one transaction. Returns the new invoice's id.
 */
export async function createInvoice(
  deps: Deps,
  raw: unknown,
  actor: Actor,
  idempotencyKey: string | null = null,
): Promise<RecordedSale> {
  const idempotency = idempotencyKey === null ? undefined : checkIdempotencyKey(idempotencyKey, raw)
  if (idempotency) {
    // A retry is answered before the sale is checked again: its renewals are paid now, and its
    // credit drawn on, by the very sale it repeats.
    const recorded = await findInvoiceByIdempotencyKey(deps.db, actor.user.id, idempotency.key)
    if (recorded) return replayed(recorded, idempotency)
  }
  const top = checkBody(InvoiceCreateTop, raw)
  const { fields, errors } = top
  const lineBodies = (fields.line_items ?? []).map((item) => checkItem(LineItemWrite, item))
  const paymentBodies = (fields.payments ?? []).map((item) => checkItem(PaymentWrite, item))
  if (fields.line_items?.length === 0) errors.add('line_items', invoiceMessages.emptyList)

  await lookUpReferenced(errors, 'customer_id', fields.customer_id, (id) => customerExists(deps.db, id))
  const gym = errors.has('location_id')
    ? undefined
    : resolveGym(deps.sqlite, fields.location_id ?? null, actor.user)
  if (!gym && !errors.has('location_id'))
    errors.add('location_id', messages.doesNotExist(fields.location_id ?? actor.user.default_gym_id))
  const discounts = await resolveDiscounts(deps, errors, fields.discount_codes ?? [])
  const customerId = fields.customer_id ?? null
  const zone = (await loadOrganization(deps.db)).time_zone
  const lineContext: LineContext = { customerId, today: localDate(deps.clock.now(), zone) }
  const lines: (SaleLine | undefined)[] = []
  for (const line of lineBodies) lines.push(await resolveLine(deps, line, lineContext))
  const paymentContext: SaleContext = { customerId, zone, drawn: new Map() }
  const payments: (SalePayment | undefined)[] = []
  for (const payment of paymentBodies) payments.push(await resolvePayment(deps, payment, paymentContext))
  if (customerId === null && lines.some((line) => line && GRANTS_TO_CUSTOMER.includes(line.purchaseType)))
    errors.add('customer_id', invoiceMessages.needsCustomer)

  const failed = saleErrors(errors, lineBodies, paymentBodies)
  if (failed) throw failed
  const sale = {
    customerId,
    gymId: gym!.id,
    staffUserId: actor.user.id,
    description: fields.description ?? '',
    discounts,
    lines: lines as SaleLine[],
    payments: payments as SalePayment[],
    idempotency,
  }
  const priced = priceSale(sale)
  const unpayable = unpayableSale(priced)
  if (unpayable) throw unpayable
  const { totalCents } = priced
  const paidCents = sale.payments.reduce((sum, payment) => sum + payment.amount_cents, 0)
  if (paidCents > totalCents) {
    throw new ApiError(400, { payments: [invoiceMessages.overpaid(paidCents, totalCents)] })
  }
  try {
    return { invoiceId: await postInvoice(deps, sale, zone), replayed: false }
  } catch (error) {
    if (error instanceof IdempotencyKeyUsed)
      return replayed({ id: error.invoiceId, request_digest: error.requestDigest }, idempotency!)
    if (error instanceof PaymentSourceSpent)
      throw oneItemRefused('payments', sale.payments, error.paymentIndex, { amount: [invoiceMessages.spent] })
    if (error instanceof MembershipChanged)
      throw oneItemRefused('line_items', sale.lines, error.lineIndex, {
        customer_membership_id: [invoiceMessages.membershipChanged],
      })
    throw error
  }
}

/** A sale as POST /api/invoices/ answers it: the invoice, and whether an earlier request recorded it. */
export interface RecordedSale {
  invoiceId: number
  /** True when the Idempotency-Key named a sale already recorded, which is answered again */
  replayed: boolean
}

/** The header's name, as a 400 reports it. */
const IDEMPOTENCY_KEY = 'Idempotency-Key'
/** Visible ASCII, as a client's UUID or random token is written; at most 255 characters. */
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/

/** The key a sale was sent with, and the digest of the request, which its retries must repeat. */
function checkIdempotencyKey(key: string, raw: unknown): SaleIdempotency {
  if (!IDEMPOTENCY_KEY_PATTERN.test(key))
    throw new ApiError(400, { [IDEMPOTENCY_KEY]: [invoiceMessages.idempotencyKeyInvalid] })
  return { key, requestDigest: Bun.SHA256.hash(JSON.stringify(raw), 'hex') }
}

/** The sale a key already recorded, answered again; the same key with another request is refused. */
function replayed(
  recorded: { id: number; request_digest: string | null },
  idempotency: SaleIdempotency,
): RecordedSale {
  if (recorded.request_digest !== idempotency.requestDigest)
    throw new ApiError(400, { [IDEMPOTENCY_KEY]: [invoiceMessages.idempotencyKeyReused] })
  return { invoiceId: recorded.id, replayed: true }
}

/**
 * A 400 for one item of a list the sale was checked by: its errors at its index and `{}` for each
 * other item, as DRF lists a list's errors.
 */
const oneItemRefused = (list: string, items: readonly unknown[], index: number, errors: FieldErrors) =>
  new ApiError(400, { [list]: items.map((_, i): FieldErrors => (i === index ? errors : {})) })

/**
 * The list filters as the database answers them: created_at_min/max are whole days of the
 * organization's zone, inclusive.
 */
export async function invoiceQuery(
  deps: Pick<Deps, 'db'>,
  filters: FilterValues<typeof invoiceFilterSpec>,
): Promise<InvoiceQuery> {
  const days = filters.created_at_min !== undefined || filters.created_at_max !== undefined
  const zone = days ? (await loadOrganization(deps.db)).time_zone : 'UTC'
  return {
    customer_id: filters.customer_id,
    gym_id: filters.location_id,
    created_from:
      filters.created_at_min === undefined ? undefined : startOfLocalDay(filters.created_at_min, zone),
    created_before:
      filters.created_at_max === undefined ? undefined : endOfLocalDay(filters.created_at_max, zone),
  }
}
