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
    // Counted by day first, in the index's day order, so each day's bucket is worked out once.
    const days = membershipStatusChanges(reader, scope, types)
      .where('changed_on', '>=', plan.firstDay)
      .where('changed_on', '<=', plan.lastDay)
      .$if(fromStatus !== undefined, (q) => q.where('from_status', '=', fromStatus!))
      .$if(toStatus !== undefined, (q) => q.where('to_status', '=', toStatus!))
      .select(['changed_on', sql<number>`count(*)`.as('changes')])
      .groupBy('changed_on')
    const rows = await reader
      .selectFrom(days.as('day'))
      .select((eb) => [
        bucketOfDay(plan, sql.ref('changed_on')).as('bucket'),
        eb.fn.sum<number>('changes').as('value'),
      ])
      .groupBy('bucket')
      .execute()
    return denseValues(plan, rows, 0)
  },
})
