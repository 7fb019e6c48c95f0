import { sql } from 'kysely'
import { bucketOfDay, denseValues } from './buckets.ts'
import { defineMetric } from './definition.ts'
import { membershipsInScope, readMembershipScope, resolveMembershipTypes } from './membership-scope.ts'
import { ALL_PRODUCTS } from './product-attributes.ts'

/**
 * Memberships a customer referred, by the bucket of their start date (the membership's own day, not
 * when it was entered: an imported membership counts when it started), once that day has come, and
 * whatever their status now: a referral cancelled since was still a referral.
 */
export const membershipReferralCount = defineMetric({
  type: 'membership_referral_count',
  readFilters: (filters) => readMembershipScope(filters),
  shape: () => ({ unit: 'count', additive: true }),
  async run({ reader, plan }, scope) {
    const types = await resolveMembershipTypes(reader, scope)
    if (types !== ALL_PRODUCTS && types.length === 0) return plan.buckets.map(() => 0)
    const rows = await membershipsInScope(reader, scope, types)
      .where('referring_customer_id', 'is not', null)
      .where('start_date', '>=', plan.firstDay)
      .where('start_date', '<=', plan.lastDay)
      .where('start_date', '<=', plan.today)
      .select([bucketOfDay(plan, sql.ref('start_date')).as('bucket'), sql<number>`count(*)`.as('value')])
      .groupBy('bucket')
      .execute()
    return denseValues(plan, rows, 0)
  },
})
