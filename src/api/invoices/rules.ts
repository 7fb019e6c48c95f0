import type { Static, TObject } from '@sinclair/typebox'
import { invoiceMessages } from './messages.ts'
import type { InvoiceQuery } from './queries.ts'
import {
  InvoiceCreate,
  InvoiceCreateTop,
  LineItemWrite,
  PaymentWrite,
  type invoiceFilterSpec,
} from './schema.ts'
import { loadOrganization } from '../organization/queries.ts'
import { checkSale, checkSaleTotals } from '../../core/sales/check-sale.ts'
import {
  EventNotBookable,
  IdempotencyKeyUsed,
  MembershipChanged,
  PaymentSourceSpent,
} from '../../core/sales/conflicts.ts'
import { saleMessages } from '../../core/sales/messages.ts'
import { postInvoice } from '../../core/sales/post-invoice.ts'
import { findInvoiceByIdempotencyKey } from '../../core/sales/queries.ts'
import type { Reason, SaleRefusal } from '../../core/sales/refusals.ts'
import type { LineRequest, PaymentRequest } from '../../core/sales/request.ts'
import type { Sale, SaleIdempotency } from '../../core/sales/sale.ts'
import type { Actor } from '../../domain/actor.ts'
import type { Deps } from '../../deps.ts'
import { checkDecimal } from '../../http/decimal.ts'
import { ApiError, FieldErrorCollector, messages, type FieldErrors } from '../../http/errors.ts'
import type { FilterValues } from '../../http/filters.ts'
import { CheckedBody, checkBody } from '../../http/validation.ts'
import { jsonTypeName } from '../../lib/json.ts'
import { endOfLocalDay, startOfLocalDay } from '../../lib/local-time.ts'

/*
 * POST /api/invoices/ in DRF's terms: the request's form read here (each line and payment as DRF
 * reads a nested serializer's items, decimals as DecimalFields), the sale checked and posted by
 * core/sales, and its refusals worded and placed as DRF lists a list's errors.
 */

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

const refusedAny = (body: CheckedBody<unknown>) => Object.keys(body.errors.collected()).length > 0

/** A line's form as the engine takes it: its price in cents. */
function lineRequest(body: CheckedBody<Static<typeof LineItemWrite>>): LineRequest {
  const { unit_price, ...fields } = body.fields
  const unitPriceCents = checkDecimal(body.fields, body.errors, 'unit_price')
  return {
    ...fields,
    unit_price_cents: unit_price === undefined ? undefined : (unitPriceCents ?? null),
    refused: refusedAny(body),
  }
}

/** A payment's form as the engine takes it: its amounts in cents. */
function paymentRequest(body: CheckedBody<Static<typeof PaymentWrite>>): PaymentRequest {
  const { amount, processor_fee, ...fields } = body.fields
  return {
    ...fields,
    amount_cents: checkDecimal(body.fields, body.errors, 'amount'),
    processor_fee_cents: checkDecimal(body.fields, body.errors, 'processor_fee'),
  }
}

/** A refusal in DRF's words. */
function worded(reason: Reason): string {
  if ('message' in reason) return reason.message
  if (reason.code === 'required') return messages.required
  if (reason.code === 'max') return messages.max(reason.limit)
  return messages.doesNotExist(reason.id)
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
 * A sale's body read and checked as POST /api/invoices/ checks it (every line and payment, each
 * at its own path, then its totals): the sale to post, or the 400 that refuses it. Reads only, so
 * a quote runs it as posting does.
 */
async function checkedSale(deps: Deps, raw: unknown, actor: Actor) {
  const { fields, errors } = checkBody(InvoiceCreateTop, raw)
  const lineBodies = (fields.line_items ?? []).map((item) => checkItem(LineItemWrite, item))
  const paymentBodies = (fields.payments ?? []).map((item) => checkItem(PaymentWrite, item))
  if (fields.line_items?.length === 0) errors.add('line_items', invoiceMessages.emptyList)
  const lines = lineBodies.map(lineRequest)
  const payments = paymentBodies.map(paymentRequest)
  const checked = await checkSale(deps, {
    customer_id: fields.customer_id,
    location_id: fields.location_id,
    description: fields.description,
    discount_codes: fields.discount_codes,
    lines,
    payments,
    refused: new Set(Object.keys(errors.collected())),
    staff: actor.user,
  })
  const placeOf = (at: SaleRefusal['at']) =>
    at === 'sale' ? errors : (at.list === 'line_items' ? lineBodies : paymentBodies)[at.index]!.errors
  for (const refusal of checked.refusals) placeOf(refusal.at).add(refusal.field, worded(refusal.reason))
  const failed = saleErrors(errors, lineBodies, paymentBodies)
  if (failed) throw failed
  const sale = checked.sale!
  const unpayable = checkSaleTotals(sale)
  if (unpayable) throw new ApiError(400, { [unpayable.field]: [worded(unpayable.reason)] })
  return { sale, zone: checked.zone }
}

/**
 * POST /api/invoices/quote/: what the sale in `raw` would be if it were posted now, priced by the
 * very code that posts it, or the 400 posting would answer. Writes nothing.
 */
export async function quoteInvoice(
  deps: Deps,
  raw: unknown,
  actor: Actor,
): Promise<Omit<Sale, 'idempotency'>> {
  return (await checkedSale(deps, raw, actor)).sale
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
  const checked = await checkedSale(deps, raw, actor)
  const sale = { ...checked.sale, idempotency }
  try {
    return { invoiceId: await postInvoice(deps, sale, checked.zone), replayed: false }
  } catch (error) {
    if (error instanceof IdempotencyKeyUsed)
      return replayed({ id: error.invoiceId, request_digest: error.requestDigest }, idempotency!)
    if (error instanceof PaymentSourceSpent)
      throw oneItemRefused('payments', sale.payments, error.paymentIndex, { amount: [saleMessages.spent] })
    if (error instanceof MembershipChanged)
      throw oneItemRefused('line_items', sale.lines, error.lineIndex, {
        customer_membership_id: [saleMessages.membershipChanged],
      })
    if (error instanceof EventNotBookable)
      throw oneItemRefused('line_items', sale.lines, error.lineIndex, { event_id: [error.reason] })
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
