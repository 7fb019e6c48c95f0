import type { Generated } from 'kysely'

/** The daily membership rollup (migration 0010): core/membership-rollup/ writes it, metrics read it. */

/** What a membership status counts as in membership counts (domain/membership-status.ts says which). */
export type MembershipStatusClass = 'active' | 'frozen' | 'payment_failed'

export interface MembershipHoldingTable {
  id: Generated<number>
  membership_type_id: number
  /** 0: the membership bills to no location */
  billing_location_id: number
  /** 0: no discount association */
  discount_association_id: number
  status_class: MembershipStatusClass
}

/** organization-local YYYY-MM-DD days throughout */
export interface MembershipDayCountTable {
  day: string
  holding_id: number
  memberships: number
}

export interface MemberHoldingSetTable {
  id: Generated<number>
  /** the set's holding ids, ascending, comma-separated: the key a set is found by */
  holding_ids: string
}

export interface MemberHoldingSetItemTable {
  set_id: number
  holding_id: number
}

export interface MemberDayCountTable {
  day: string
  set_id: number
  members: number
}

export interface AddOnDayCountTable {
  day: string
  holding_id: number
  add_on_name: string
  add_ons: number
}

export interface MembershipRollupStateTable {
  id: number
  /** the last day rolled; null before the first build */
  rolled_through: string | null
  /** the earliest rolled day that must be rolled again */
  dirty_from: string | null
}
