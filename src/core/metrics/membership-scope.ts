import type { Db } from '../../db/connection.ts'
import type { FilterReader } from './filter-reader.ts'
import {
  ALL_PRODUCTS,
  readProductAttributes,
  resolveProducts,
  type ProductScope,
  type ResolvedProducts,
} from './product-attributes.ts'

/**
 * The filters every membership-scoped metric shares (membership_count, member_churn,
 * membership_referral_count, membership_status_change_count): membership type ids, billing
 * locations, and the membership attributes with product_statuses.
 */
export interface MembershipScope {
  types: ProductScope
  billingLocationIds?: number[]
}

export function readMembershipScope(filters: FilterReader): MembershipScope {
  const ids = filters.ids('membership_ids')
  const billingLocationIds = filters.ids('billing_location_ids')
  const attributes = readProductAttributes(
    filters,
    'membership',
    `${filters.type} (membership attributes only)`,
  )
  return { types: { kind: 'membership', ids, attributes }, billingLocationIds }
}

/** The membership types the scope selects now: every one, or these ids (none: a zero series). */
export const resolveMembershipTypes = (db: Db, scope: MembershipScope): Promise<ResolvedProducts> =>
  resolveProducts(db, scope.types)

/**
 * The memberships of `types` (resolved and not empty) that the scope's billing locations select,
 * as a query to select from. A membership's billing location is read as it is now: it has no history
 * outside the daily rollup, so a membership that moved is counted at its new location in every bucket.
 */
export const membershipsInScope = (db: Db, scope: MembershipScope, types: ResolvedProducts) =>
  db
    .selectFrom('customer_memberships')
    .$if(types !== ALL_PRODUCTS, (q) => q.where('membership_type_id', 'in', types as number[]))
    .$if(scope.billingLocationIds !== undefined, (q) =>
      q.where('billing_location_id', 'in', scope.billingLocationIds!),
    )

/**
 * The status changes of the memberships in scope that are the membership's own: a change naming one
 * member (that member frozen or unfrozen) leaves the membership's status as it was.
 */
export const membershipStatusChanges = (db: Db, scope: MembershipScope, types: ResolvedProducts) =>
  db
    .selectFrom('membership_status_changes')
    .where('member_customer_id', 'is', null)
    .$if(types !== ALL_PRODUCTS || scope.billingLocationIds !== undefined, (q) =>
      q.where('customer_membership_id', 'in', membershipsInScope(db, scope, types).select('id')),
    )
