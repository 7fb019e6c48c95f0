import type { Static } from '@sinclair/typebox'
import { invoiceMessages } from './messages.ts'
import type { LineItemWrite } from './schema.ts'
import { getCustomerMembership } from '../customer-memberships/queries.ts'
import { getEntryPassType } from '../entry-pass-types/queries.ts'
import { getEventType } from '../event-types/queries.ts'
import { getEvent } from '../events/queries.ts'
import { getMembershipType } from '../membership-types/queries.ts'
import { hasActiveReservation } from '../reservations/queries.ts'
import { getVoucherPack } from '../voucher-packs/queries.ts'
import { getTaxRate, lookUpTaxRate } from '../tax-rates/queries.ts'
import { checkMembers } from '../../core/memberships/members.ts'
import type { SaleLine } from '../../core/sales/post-invoice.ts'
import { RENEWABLE_STATUSES } from '../../domain/membership-status.ts'
import { reservationMessages } from '../../domain/reservations.ts'
import type { Deps } from '../../deps.ts'
import { checkDecimal } from '../../http/decimal.ts'
import { messages, type FieldErrorCollector } from '../../http/errors.ts'
import { lookUpReferenced } from '../../http/references.ts'
import type { CheckedBody } from '../../http/validation.ts'

/*
 * A sale's lines: each product looked up and checked for sale, and what the line grants.
 */

type LineInput = Static<typeof LineItemWrite>

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

/** Who a sale is for and on which of the organization's days, as each line is checked against. */
export interface LineContext {
  customerId: number | null
  /** The organization's today */
  today: string
}

/**
 * The membership an MRE line renews, with what its next bill charges: its billing amount, at its
 * type's tax rate and revenue account (a membership of a type no longer sold is still renewed).
 * It must be the customer's own (another customer's is reported as not existing, as another
 * customer's credit is), recurring, and in a status that can be renewed.
 *
 * A renewal pays one period, the one starting at the next bill date: periods are paid in order.
 * Without `period_start` only the period due is paid, one whose bill date is today or past, so a
 * sale sent twice renews once: the first moved the bill date past today, and the second finds the
 * period due already paid. Paying ahead names the period, which a repeat then names again, paid.
 */
async function lookUpRenewal(
  deps: Pick<Deps, 'db'>,
  errors: FieldErrorCollector,
  fields: Pick<LineInput, 'customer_membership_id' | 'period_start'>,
  sale: LineContext,
): Promise<{ product: Product; renewal: NonNullable<SaleLine['renewal']> } | undefined> {
  const field = 'customer_membership_id'
  const id = fields.customer_membership_id
  if (id === undefined) return void errors.add(field, messages.required)
  const found = await getCustomerMembership(deps.db, id)
  const membership = found && found.owner_id === sale.customerId ? found : undefined
  if (!membership) return void errors.add(field, messages.doesNotExist(id))
  const type = (await getMembershipType(deps.db, membership.membership_type_id))!
  if (type.purchase_type !== 'REC' || type.interval === '')
    return void errors.add(field, invoiceMessages.notRecurring)
  if (!RENEWABLE_STATUSES.includes(membership.status))
    return void errors.add(field, invoiceMessages.notRenewable)
  const nextBillDate = membership.end_date ?? membership.start_date
  const named = fields.period_start
  if (named === undefined && nextBillDate > sale.today)
    return void errors.add(field, invoiceMessages.paidAhead(nextBillDate))
  if (named !== undefined && named < nextBillDate)
    return void errors.add('period_start', invoiceMessages.periodPaid(nextBillDate))
  if (named !== undefined && named > nextBillDate)
    return void errors.add('period_start', invoiceMessages.periodNotNext(nextBillDate))
  return {
    product: {
      name: type.name,
      price_cents: membership.billing_amount_cents,
      tax_rate_id: type.tax_rate_id,
      revenue_account_code: type.revenue_account_code,
    },
    renewal: {
      id: membership.id,
      status: membership.status,
      start_date: membership.start_date,
      end_date: membership.end_date,
      interval: type.interval,
      membership_type_id: type.id,
      period_start: nextBillDate,
    },
  }
}

/**
 * A line as sold: the product's price, tax rate, revenue account and name unless the line gives
 * its own. Failures go to the line's own errors.
 */
export async function resolveLine(
  deps: Pick<Deps, 'db'>,
  line: CheckedBody<LineInput>,
  sale: LineContext,
): Promise<SaleLine | undefined> {
  const { fields, errors } = line
  const customerId = sale.customerId
  const unitPriceCents = checkDecimal(fields, errors, 'unit_price')
  if (fields.tax_rate_id !== undefined)
    await lookUpTaxRate(deps.db, errors, 'tax_rate_id', fields.tax_rate_id)
  const quantity = fields.quantity ?? 1
  // Membership types, entry pass types and voucher packs are sold on their own lines and as gifts,
  // under either field.
  const membershipType = (field: string, id: number | undefined) =>
    lookUpProduct(errors, field, id, (id) => getMembershipType(deps.db, id), activeOnly)
  const entryPassType = (field: string, id: number | undefined) =>
    lookUpProduct(errors, field, id, (id) => getEntryPassType(deps.db, id), activeOnly)
  const voucherPack = (field: string, id: number | undefined) =>
    lookUpProduct(errors, field, id, (id) => getVoucherPack(deps.db, id), activeOnly)
  let product: Product | undefined
  let grants: Partial<
    Pick<
      SaleLine,
      | 'membershipType'
      | 'startDate'
      | 'memberIds'
      | 'renewal'
      | 'entryPassType'
      | 'eventId'
      | 'voucherPack'
      | 'eventTypeId'
      | 'gift'
    >
  > = {}
  switch (fields.purchase_type) {
    case 'GEN':
      if (!('unit_price' in fields)) errors.add('unit_price', messages.required)
      product = { name: '', price_cents: 0, tax_rate_id: null, revenue_account_code: '' }
      break
    case 'MIN': {
      if (quantity > 1) errors.add('quantity', messages.max(1))
      if (fields.start_date === undefined) errors.add('start_date', messages.required)
      const type = await membershipType('membership_id', fields.membership_id)
      // The customer is the owner; member_ids as /api/customer-memberships/ takes them.
      const members = await checkMembers(
        deps.db,
        {
          sent: fields.member_ids,
          ownerId: customerId ?? undefined,
          isGroup: type === undefined ? undefined : type.is_group === 1,
        },
        messages.doesNotExist,
      )
      for (const refusal of members.refusals) errors.add('member_ids', refusal)
      product = type
      if (type) grants = { membershipType: type, startDate: fields.start_date, memberIds: members.ids }
      break
    }
    case 'MRE': {
      if (quantity > 1) errors.add('quantity', messages.max(1))
      const renewed = await lookUpRenewal(deps, errors, fields, sale)
      product = renewed?.product
      if (renewed) grants = { renewal: renewed.renewal }
      break
    }
    case 'EPA': {
      const type = await entryPassType('entry_pass_id', fields.entry_pass_id)
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
      // A scheduled class's event has no name of its own: the line is described by its type's.
      product =
        event && event.name === ''
          ? { ...event, name: (await getEventType(deps.db, event.event_type_id))?.name ?? '' }
          : event
      if (event) grants = { eventId: event.id }
      break
    }
    case 'VPO': {
      const pack = await voucherPack('voucher_pack_id', fields.voucher_pack_id)
      product = pack
      if (pack) grants = { voucherPack: pack }
      break
    }
    case 'EVV': {
      // An event type has no price of its own: the desk says what one use costs.
      if (!('unit_price' in fields)) errors.add('unit_price', messages.required)
      const eventType = await lookUpProduct(
        errors,
        'event_type_id',
        fields.event_type_id,
        async (id) => {
          const found = await getEventType(deps.db, id)
          return found && { ...found, price_cents: 0, tax_rate_id: null, revenue_account_code: '' }
        },
        activeOnly,
      )
      product = eventType
      if (eventType) grants = { eventTypeId: eventType.id }
      break
    }
    case 'GIF': {
      const gift = fields.gift ?? {}
      const named = [gift.entry_pass_id, gift.voucher_pack_id, gift.membership_id]
      if (named.filter((id) => id !== undefined).length !== 1) {
        errors.add('gift', invoiceMessages.giftProduct)
        break
      }
      if (gift.entry_pass_id !== undefined) {
        const type = await entryPassType('gift', gift.entry_pass_id)
        product = type
        if (type) grants = { gift: { entryPassTypeId: type.id } }
      } else if (gift.voucher_pack_id !== undefined) {
        const pack = await voucherPack('gift', gift.voucher_pack_id)
        product = pack
        if (pack) grants = { gift: { voucherPackId: pack.id } }
      } else {
        const type = await membershipType('gift', gift.membership_id)
        product = type
        if (type) grants = { gift: { membershipTypeId: type.id } }
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
