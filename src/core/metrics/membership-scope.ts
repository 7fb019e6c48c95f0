import type { Db } from '../../db/connection.ts'
import type { FilterReader } from './filter-reader.ts'
import {
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
