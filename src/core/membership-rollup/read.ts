import type { Db } from '../../db/connection.ts'
import type { MembershipStatusClass } from '../../db/schema.ts'

/** What to count from the rollup: membership_count's filters once the metric has resolved them. */
export interface RollupCount {
  countBy: 'memberships' | 'members' | 'add_ons'
  statusClasses: readonly MembershipStatusClass[]
  /** Omitted: every type; empty: none. */
  membershipTypeIds?: readonly number[]
  /** Omitted: every membership, also those billing to no location. */
  billingLocationIds?: readonly number[]
  /** Memberships and members only: add-ons are counted whatever the association. */
  discountAssociationId?: number
  /** Add-ons only. */
  addOnNames?: readonly string[]
}

export interface DayCount {
  day: string
  count: number
}

/**
 * The statement of the count on each day from `from` through `through` (organization-local), one
 * row (day, count) per day where it is not zero. A customer holding several memberships is one
 * member: the members matching are those whose holding set on the day has a holding that matches.
 */
export function rollupDayCounts(db: Db, count: RollupCount, from: string, through: string) {
  // SQLite takes an empty IN list as matching nothing: an empty intersection of filters.
  let holdings = db
    .selectFrom('membership_holdings')
    .select('id')
    .where('status_class', 'in', [...count.statusClasses])
  if (count.membershipTypeIds)
    holdings = holdings.where('membership_type_id', 'in', [...count.membershipTypeIds])
  if (count.billingLocationIds)
    holdings = holdings.where('billing_location_id', 'in', [...count.billingLocationIds])
  if (count.discountAssociationId !== undefined && count.countBy !== 'add_ons')
    holdings = holdings.where('discount_association_id', '=', count.discountAssociationId)

  if (count.countBy === 'memberships') {
    return db
      .selectFrom('membership_day_counts')
      .select((eb) => ['day', eb.fn.sum<number>('memberships').as('count')])
      .where('day', '>=', from)
      .where('day', '<=', through)
      .where('holding_id', 'in', holdings)
      .groupBy('day')
  }
  if (count.countBy === 'members') {
    const sets = db
      .selectFrom('member_holding_set_items')
      .select('set_id')
      .where('holding_id', 'in', holdings)
    return db
      .selectFrom('member_day_counts')
      .select((eb) => ['day', eb.fn.sum<number>('members').as('count')])
      .where('day', '>=', from)
      .where('day', '<=', through)
      .where('set_id', 'in', sets)
      .groupBy('day')
  }
  let addOns = db
    .selectFrom('add_on_day_counts')
    .select((eb) => ['day', eb.fn.sum<number>('add_ons').as('count')])
    .where('day', '>=', from)
    .where('day', '<=', through)
    .where('holding_id', 'in', holdings)
  if (count.addOnNames) addOns = addOns.where('add_on_name', 'in', [...count.addOnNames])
  return addOns.groupBy('day')
}

/** The counts of rollupDayCounts, in day order. */
export const readRollupCounts = (
  db: Db,
  count: RollupCount,
  from: string,
  through: string,
): Promise<DayCount[]> =>
  db
    .selectFrom(rollupDayCounts(db, count, from, through).as('counts'))
    .selectAll()
    .orderBy('day')
    .execute()

/**
 * The distinct add-on names in the rollup, sorted, on the days from `from` through `through` (both
 * omitted: all of its history).
 */
export async function listRollupAddOnNames(
  db: Db,
  days?: { from: string; through: string },
): Promise<string[]> {
  let names = db.selectFrom('add_on_day_counts').select('add_on_name').distinct()
  if (days) names = names.where('day', '>=', days.from).where('day', '<=', days.through)
  const rows = await names.orderBy('add_on_name').execute()
  return rows.map((row) => row.add_on_name)
}
