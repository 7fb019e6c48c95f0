import { sql } from 'kysely'
import { ALL_STATUSES } from '../../domain/membership-status.ts'
import { bucketOfDay, denseValues } from './buckets.ts'
import { defineMetric } from './definition.ts'
import { membershipStatusChanges, readMembershipScope, resolveMembershipTypes } from './membership-scope.ts'
import { ALL_PRODUCTS } from './product-attributes.ts'

/**
 * A membership's status changes by the bucket of the day recorded for them, optionally only those
 * leaving `from_status` or entering `to_status`. A membership's first status is a change from no
 * status, so `to_status` ACT counts memberships that started active as well as those that became
 * active, while any `from_status` leaves it out.
 */
export const membershipStatusChangeCount = defineMetric({
  type: 'membership_status_change_count',
  readFilters: (filters) => ({
    fromStatus: filters.choice('from_status', ALL_STATUSES),
    toStatus: filters.choice('to_status', ALL_STATUSES),
    scope: readMembershipScope(filters),
  }),
  shape: () => ({ unit: 'count', additive: true }),
  async run({ reader, plan }, { fromStatus, toStatus, scope }) {
    const types = await resolveMembershipTypes(reader, scope)
    if (types !== ALL_PRODUCTS && types.length === 0) return plan.buckets.map(() => 0)
    const rows = await membershipStatusChanges(reader, scope, types)
      .where('changed_on', '>=', plan.firstDay)
      .where('changed_on', '<=', plan.lastDay)
      .$if(fromStatus !== undefined, (q) => q.where('from_status', '=', fromStatus!))
      .$if(toStatus !== undefined, (q) => q.where('to_status', '=', toStatus!))
      .select([bucketOfDay(plan, sql.ref('changed_on')).as('bucket'), sql<number>`count(*)`.as('value')])
      .groupBy('bucket')
      .execute()
    return denseValues(plan, rows, 0)
  },
})
