import type { Static, TObject } from '@sinclair/typebox'
import type { InvoiceQuery } from './queries.ts'
import {
  InvoiceCreate,
  InvoiceCreateTop,
  LineItemWrite,
  PaymentWrite,
  type invoiceFilterSpec,
} from './schema.ts'
import { getCredit } from '../customer-credits/queries.ts'
import { getEventVoucher } from '../customer-event-vouchers/queries.ts'
import { customerExists } from '../customers/queries.ts'
import { findDiscountByCode, type DiscountRow } from '../discounts/queries.ts'
import { getEntryPassType } from '../entry-pass-types/queries.ts'
import { getEvent } from '../events/queries.ts'
import { getMembershipType } from '../membership-types/queries.ts'
import { hasActiveReservation } from '../reservations/queries.ts'
import { getVoucherPack } from '../voucher-packs/queries.ts'
import { loadOrganization } from '../organization/queries.ts'
import { getTaxRate, lookUpTaxRate } from '../tax-rates/queries.ts'
import { resolveGym } from '../../core/door/record.ts'
import {
  PaymentSourceSpent,
  postInvoice,
  priceSale,
  type SaleDiscount,
  type SaleLine,
  type SalePayment,
} from '../../core/sales/post-invoice.ts'
import type { Actor } from '../../domain/actor.ts'
import { reservationMessages } from '../../domain/reservations.ts'
import type { Deps } from '../../deps.ts'
import { checkDecimal } from '../../http/decimal.ts'
import { ApiError, FieldErrorCollector, messages, type FieldErrors } from '../../http/errors.ts'
import type { FilterValues } from '../../http/filters.ts'
import { lookUpReferenced } from '../../http/references.ts'
import { CheckedBody, checkBody } from '../../http/validation.ts'
import { jsonTypeName } from '../../lib/json.ts'
import { endOfLocalDay, isExpired, startOfLocalDay } from '../../lib/local-time.ts'
import { centsToDecimal } from '../../lib/money.ts'

type LineInput = Static<typeof LineItemWrite>
type PaymentInput = Static<typeof PaymentWrite>

export const invoiceMessages = {
  emptyList: 'This list may not be empty.',
  notForSale: 'Only an active product can be sold.',
  giftProduct: 'Give exactly one of entry_pass_id and voucher_pack_id.',
  unknownDiscount: (code: string) => `No active discount has the code "${code}".`,
  repeatedDiscount: (code: string) => `The discount code "${code}" is given more than once.`,
  needsCustomer: 'A sale that grants the customer something (MIN, EPA, BOO, VPO, EVV) needs a customer.',
  removed: 'This has been removed.',
  expired: (date: string) => `This expired on ${date}.`,
  creditTooLow: (left: number) => `Only ${centsToDecimal(left)} remains on this credit.`,
  voucherUsedUp: 'This voucher has no uses left.',
  voucherAmount: 'A voucher payment has amount 0.',
  spent: 'Too little was left on this to pay so much when the sale was recorded.',
  overpaid: (paid: number, total: number) =>
    `The payments (${centsToDecimal(paid)}) come to more than the invoice total (${centsToDecimal(total)}).`,
}

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

/** The tax rate a line charges, in basis points; 0 for none or for an id that named nothing. */
async function rateOf(deps: Pick<Deps, 'db'>, taxRateId: number | null): Promise<number> {
  if (taxRateId === null) return 0
  return (await getTaxRate(deps.db, taxRateId))?.rate_basis_points ?? 0
}

/** What every product line reads from its product: its name and its terms of sale. */
interface Product {
  name: string
  price_cents: number
  tax_rate_id: number | null
  revenue_account_code: string
}

/**
 * The product a line sells, looked up by its id field: undefined (with the line's error) when the
 * id is missing, names nothing, or names something that cannot be sold now.
 */
async function lookUpProduct<P extends Product>(
  errors: FieldErrorCollector,
  field: string,
  id: number | undefined,
  get: (id: number) => Promise<P | undefined>,
  refusal: (product: P) => string | undefined,
): Promise<P | undefined> {
  if (id === undefined) {
    errors.add(field, messages.required)
    return undefined
  }
  const product = await lookUpReferenced(errors, field, id, get)
  const refused = product && refusal(product)
  if (refused) errors.add(field, refused)
  return refused ? undefined : product
}

const activeOnly = <P extends { status: string }>(product: P) =>
  product.status === 'ACT' ? undefined : invoiceMessages.notForSale

/**
 * A line as sold: the product's price, tax rate, revenue account and name unless the line gives
 * its own. Failures go to the line's own errors.
 */
async function resolveLine(
  deps: Pick<Deps, 'db'>,
  line: CheckedBody<LineInput>,
  customerId: number | null,
): Promise<SaleLine | undefined> {
  const { fields, errors } = line
  const unitPriceCents = checkDecimal(fields, errors, 'unit_price')
  if (fields.tax_rate_id !== undefined)
    await lookUpTaxRate(deps.db, errors, 'tax_rate_id', fields.tax_rate_id)
  const quantity = fields.quantity ?? 1
  let product: Product | undefined
  let grants: Partial<
    Pick<SaleLine, 'membershipType' | 'startDate' | 'entryPassType' | 'eventId' | 'voucherPack' | 'gift'>
  > = {}
  switch (fields.purchase_type) {
    case 'GEN':
      if (!('unit_price' in fields)) errors.add('unit_price', messages.required)
      product = { name: '', price_cents: 0, tax_rate_id: null, revenue_account_code: '' }
      break
    case 'MIN': {
      if (quantity > 1) errors.add('quantity', messages.max(1))
      if (fields.start_date === undefined) errors.add('start_date', messages.required)
      const type = await lookUpProduct(
        errors,
        'membership_id',
        fields.membership_id,
        (id) => getMembershipType(deps.db, id),
        activeOnly,
      )
      product = type
      if (type) grants = { membershipType: type, startDate: fields.start_date }
      break
    }
    case 'EPA': {
      const type = await lookUpProduct(
        errors,
        'entry_pass_id',
        fields.entry_pass_id,
        (id) => getEntryPassType(deps.db, id),
        activeOnly,
      )
      product = type
      if (type) grants = { entryPassType: type }
      break
    }
    case 'BOO': {
      if (quantity > 1) errors.add('quantity', messages.max(1))
      const event = await lookUpProduct(
        errors,
        'event_id',
        fields.event_id,
        (id) => getEvent(deps.db, id),
        (e) => (e.is_cancelled === 1 ? reservationMessages.eventCancelled : undefined),
      )
      if (event && customerId !== null && (await hasActiveReservation(deps.db, customerId, event.id)))
        errors.add('event_id', reservationMessages.duplicate)
      product = event
      if (event) grants = { eventId: event.id }
      break
    }
    case 'VPO': {
      const pack = await lookUpProduct(
        errors,
        'voucher_pack_id',
        fields.voucher_pack_id,
        (id) => getVoucherPack(deps.db, id),
        activeOnly,
      )
      product = pack
      if (pack) grants = { voucherPack: pack }
      break
    }
    case 'GIF': {
      const gift = fields.gift ?? {}
      if ((gift.entry_pass_id === undefined) === (gift.voucher_pack_id === undefined)) {
        errors.add('gift', invoiceMessages.giftProduct)
        break
      }
      if (gift.entry_pass_id !== undefined) {
        const type = await lookUpProduct(
          errors,
          'gift',
          gift.entry_pass_id,
          (id) => getEntryPassType(deps.db, id),
          activeOnly,
        )
        product = type
        if (type) grants = { gift: { entryPassTypeId: type.id } }
      } else {
        const pack = await lookUpProduct(
          errors,
          'gift',
          gift.voucher_pack_id,
          (id) => getVoucherPack(deps.db, id),
          activeOnly,
        )
        product = pack
        if (pack) grants = { gift: { voucherPackId: pack.id } }
      }
      break
    }
    default:
      return undefined
  }
  if (!product || Object.keys(errors.collected()).length > 0) return undefined
  const taxRateId = fields.tax_rate_id !== undefined ? fields.tax_rate_id : product.tax_rate_id
  return {
    purchaseType: fields.purchase_type,
    description: fields.description ?? product.name,
    quantity,
    unitPriceCents: unitPriceCents ?? product.price_cents,
    taxRateId,
    taxRateBasisPoints: await rateOf(deps, taxRateId),
    revenueAccountCode: fields.revenue_account_code ?? product.revenue_account_code,
    ...grants,
  }
}

/** What a sale's payments have drawn so far from each credit, so two payments cannot spend it twice. */
type Drawn = Map<number, number>

/**
 * A CRE payment's credit: the customer's, not removed, not expired, with the amount still on it.
 * A VOU payment's voucher: the customer's, not removed, not expired, a use left, amount 0.
 */
async function checkPaymentSource(
  deps: Pick<Deps, 'db' | 'clock'>,
  payment: CheckedBody<PaymentInput>,
  amountCents: number | undefined,
  sale: { customerId: number | null; zone: string; drawn: Drawn },
): Promise<void> {
  const { fields, errors } = payment
  const now = deps.clock.now()
  if (fields.payment_type === 'CRE') {
    if (fields.credit_id === undefined) return errors.add('credit_id', messages.required)
    const credit =
      sale.customerId === null ? undefined : await getCredit(deps.db, sale.customerId, fields.credit_id)
    if (!credit) return errors.add('credit_id', messages.doesNotExist(fields.credit_id))
    if (credit.is_removed === 1) return errors.add('credit_id', invoiceMessages.removed)
    if (isExpired(credit.expiry_date, sale.zone, now))
      return errors.add('credit_id', invoiceMessages.expired(credit.expiry_date!))
    if (amountCents === undefined) return
    const left = credit.amount_remaining_cents - (sale.drawn.get(credit.id) ?? 0)
    if (amountCents > left) return errors.add('amount', invoiceMessages.creditTooLow(left))
    sale.drawn.set(credit.id, (sale.drawn.get(credit.id) ?? 0) + amountCents)
  } else if (fields.payment_type === 'VOU') {
    if (fields.voucher_id === undefined) return errors.add('voucher_id', messages.required)
    const voucher =
      sale.customerId === null
        ? undefined
        : await getEventVoucher(deps.db, sale.customerId, fields.voucher_id)
    if (!voucher) return errors.add('voucher_id', messages.doesNotExist(fields.voucher_id))
    if (voucher.is_removed === 1) return errors.add('voucher_id', invoiceMessages.removed)
    if (isExpired(voucher.expiry_date, sale.zone, now))
      return errors.add('voucher_id', invoiceMessages.expired(voucher.expiry_date!))
    const used = sale.drawn.get(-voucher.id) ?? 0
    if (voucher.number_of_uses_remaining - used < 1)
      return errors.add('voucher_id', invoiceMessages.voucherUsedUp)
    sale.drawn.set(-voucher.id, used + 1)
    if (amountCents !== undefined && amountCents !== 0) errors.add('amount', invoiceMessages.voucherAmount)
  }
}

async function resolvePayment(
  deps: Pick<Deps, 'db' | 'clock'>,
  payment: CheckedBody<PaymentInput>,
  sale: { customerId: number | null; zone: string; drawn: Drawn },
): Promise<SalePayment | undefined> {
  const { fields, errors } = payment
  const amountCents = checkDecimal(fields, errors, 'amount')
  const processorFeeCents = checkDecimal(fields, errors, 'processor_fee')
  await checkPaymentSource(deps, payment, amountCents, sale)
  if (fields.payment_type === undefined || amountCents === undefined) return undefined
  return {
    status: fields.status ?? 'COM',
    payment_type: fields.payment_type,
    payment_method_type: fields.payment_method_type ?? 'NA',
    amount_cents: amountCents,
    amount_refunded_cents: 0,
    failure_message: '',
    credit_id: fields.payment_type === 'CRE' ? (fields.credit_id ?? null) : null,
    voucher_id: fields.payment_type === 'VOU' ? (fields.voucher_id ?? null) : null,
    processor_fee_cents: processorFeeCents ?? 0,
    credit_card_last4: fields.credit_card_last4 ?? '',
    credit_card_brand: fields.credit_card_brand ?? '',
    bank_account_last4: fields.bank_account_last4 ?? '',
    bank_account_bank_name: fields.bank_account_bank_name ?? '',
    processor_a_payment_intent_id: fields.processor_a_payment_intent_id ?? '',
    processor_b_external_transaction_id: fields.processor_b_external_transaction_id ?? '',
    processor_b_unique_transaction_id: fields.processor_b_unique_transaction_id ?? '',
    processor_c_payment_link_name: fields.processor_c_payment_link_name ?? '',
    processor_c_payment_link_id: fields.processor_c_payment_link_id ?? '',
    processor_c_payment_id: fields.processor_c_payment_id ?? '',
    gift_card_number: fields.gift_card_number ?? '',
  }
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
export async function createInvoice(deps: Deps, raw: unknown, actor: Actor): Promise<number> {
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
  const lines: (SaleLine | undefined)[] = []
  for (const line of lineBodies) lines.push(await resolveLine(deps, line, fields.customer_id ?? null))
  const customerId = fields.customer_id ?? null
  const zone = (await loadOrganization(deps.db)).time_zone
  const paymentContext = { customerId, zone, drawn: new Map() as Drawn }
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
  }
  const { totalCents } = priceSale(sale)
  const paidCents = sale.payments.reduce((sum, payment) => sum + payment.amount_cents, 0)
  if (paidCents > totalCents) {
    throw new ApiError(400, { payments: [invoiceMessages.overpaid(paidCents, totalCents)] })
  }
  try {
    return await postInvoice(deps, sale, zone)
  } catch (error) {
    if (!(error instanceof PaymentSourceSpent)) throw error
    const itemErrors = sale.payments.map((_, i): FieldErrors =>
      i === error.paymentIndex ? { amount: [invoiceMessages.spent] } : {},
    )
    throw new ApiError(400, { payments: itemErrors })
  }
}

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
