import type { Insertable } from 'kysely'
import type {
  BillingInterval,
  CustomerEntryPassTable,
  CustomerEventVoucherTable,
  CustomerMembershipTable,
  MembershipStatus,
  PurchaseType as MembershipPurchaseType,
} from '../../db/schema.ts'
import { billDateAfter } from '../../domain/billing.ts'
import { defaultExpiryDate } from '../../domain/expiry.ts'

/*
 * What a product grants its holder, whether sold on an invoice's line or given as a gift and
 * redeemed later: its entries or uses in full, expiring `valid_days` after `now` in the zone.
 */

/** An entry pass type as a sale issues it. */
export interface SoldEntryPassType {
  id: number
  number_of_entries: number
  valid_days: number | null
}

/** A membership type as a sale starts a membership of it. */
export interface SoldMembershipType {
  id: number
  purchase_type: MembershipPurchaseType
  interval: BillingInterval
  price_cents: number
}

/** A voucher pack as a sale issues its voucher. */
export interface SoldVoucherPack {
  id: number
  event_type_id: number
  number_of_uses: number
  valid_days: number | null
}

/** Who holds what is granted, who paid for it, and who at the desk granted it, when. */
export interface Grant {
  customerId: number
  staffUserId: number
  now: Date
  zone: string
}

/** An entry pass of `passType`, bought (an invoice's) or given (`gift`, no invoice of its own). */
export function entryPassGranted(
  passType: SoldEntryPassType,
  grant: Grant,
  via: { acquiredVia: 'purchase'; invoiceId: number } | { acquiredVia: 'gift'; purchaserId: number | null },
): Insertable<CustomerEntryPassTable> {
  const at = grant.now.toISOString()
  return {
    entry_pass_type_id: passType.id,
    owner_id: grant.customerId,
    purchaser_id: via.acquiredVia === 'purchase' ? grant.customerId : via.purchaserId,
    entries_total: passType.number_of_entries,
    entries_remaining: passType.number_of_entries,
    expiry_date: defaultExpiryDate(passType.valid_days, grant.now, grant.zone),
    acquired_via: via.acquiredVia,
    invoice_id: via.acquiredVia === 'purchase' ? via.invoiceId : null,
    created_by_id: grant.staffUserId,
    created_at: at,
    updated_at: at,
  }
}

/** The event voucher a voucher pack (or a single voucher's terms) grants: its event type and uses. */
export function voucherGranted(
  pack: Omit<SoldVoucherPack, 'id'>,
  grant: Grant,
): Insertable<CustomerEventVoucherTable> {
  const at = grant.now.toISOString()
  return {
    customer_id: grant.customerId,
    event_type_id: pack.event_type_id,
    number_of_uses_total: pack.number_of_uses,
    number_of_uses_remaining: pack.number_of_uses,
    expiry_date: defaultExpiryDate(pack.valid_days, grant.now, grant.zone),
    is_removed: 0,
    created_by_id: grant.staffUserId,
    created_at: at,
    updated_at: at,
  }
}

/** How a granted membership starts: its day, its first status, the location it bills to. */
export interface MembershipStart {
  startDate: string
  status: MembershipStatus
  billingLocationId: number | null
}

/**
 * A membership of `type` owned by the customer. A recurring one bills its price from one interval
 * after its start, as what bought or gave it paid the first interval; any other bills nothing.
 */
export function membershipGranted(
  type: SoldMembershipType,
  grant: Grant,
  start: MembershipStart,
): Insertable<CustomerMembershipTable> {
  const at = grant.now.toISOString()
  const recurring = type.purchase_type === 'REC' && type.interval !== '' ? type.interval : undefined
  return {
    membership_type_id: type.id,
    owner_id: grant.customerId,
    status: start.status,
    start_date: start.startDate,
    end_date: recurring ? billDateAfter(start.startDate, null, recurring) : null,
    billing_location_id: start.billingLocationId,
    has_payment_method: 0,
    is_pending_staff_approval: 0,
    billing_amount_cents: type.purchase_type === 'REC' ? type.price_cents : 0,
    discount_association_id: null,
    referring_customer_id: null,
    created_at: at,
    updated_at: at,
  }
}
