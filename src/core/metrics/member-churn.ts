import { sql } from 'kysely'
import type { MembershipStatus } from '../../db/schema.ts'
import { ACTIVE_STATUSES, EXCLUDED_STATUSES } from '../../domain/membership-status.ts'
import { bucketOfDay } from './buckets.ts'
import { defineMetric } from './definition.ts'
import { membershipStatusChanges, readMembershipScope, resolveMembershipTypes } from './membership-scope.ts'
import { ALL_PRODUCTS } from './product-attributes.ts'

/** A member leaving: the membership ended or was cancelled (a denied one never started). */
const LEFT_STATUSES: readonly MembershipStatus[] = ['END', 'CAN']

const COMPONENTS = ['rate', 'churned'] as const

/**
 * Memberships lost in each bucket: `churned` counts those that ended or were cancelled in it,
 * `rate` divides that by the memberships active at the bucket's start (at the end of the day before
 * its first day; a payment still processing counts as active). A membership leaving from a status
 * of the members report (active, frozen or failed) churns; one cancelled before it ever started
 * does not, and nothing leaves a finished status, so a membership churns at most once. A lapse to
 * payment failed is not a churn, as a renewal can still recover it: it leaves the active
 * memberships then, and churns if it is cancelled. A bucket that starts with no active membership
 * has no rate (null).
 *
 * Changes count on the day recorded for them, so one recorded late but dated earlier counts on its
 * day. Each change leaves the status the previous one entered, so the memberships active on a day
 * are the sum over every change up to it of (enters an active status) - (leaves one): one pass over
 * the history sums what each bucket gained, and each bucket starts with what the days before it
 * gained.
 */
export const memberChurn = defineMetric({
  type: 'member_churn',
  readFilters: (filters) => ({
    component: filters.choice('component', COMPONENTS, 'rate'),
    scope: readMembershipScope(filters),
  }),
  shape: ({ component }) =>
    component === 'rate'
      ? ({ unit: 'percent', additive: false } as const)
      : ({ unit: 'count', additive: true } as const),
  async run({ reader, plan }, { component, scope }) {
    const types = await resolveMembershipTypes(reader, scope)
    if (types !== ALL_PRODUCTS && types.length === 0)
      return plan.buckets.map(() => (component === 'rate' ? null : 0))
    // Summed by day first: the index hands the changes over in day order, so each day is one group
    // and its bucket is worked out once, not once per change.
    const days = membershipStatusChanges(reader, scope, types)
      .where('changed_on', '<=', plan.lastDay)
      .select((eb) => {
        const isActive = (status: 'from_status' | 'to_status') =>
          eb.case().when(status, 'in', ACTIVE_STATUSES).then(1).else(0).end()
        const churns = eb.and([
          eb('to_status', 'in', LEFT_STATUSES),
          eb('from_status', 'not in', EXCLUDED_STATUSES),
        ])
        return [
          'changed_on',
          eb.fn.sum<number>(eb(isActive('to_status'), '-', isActive('from_status'))).as('gained'),
          eb.fn.sum<number>(eb.case().when(churns).then(1).else(0).end()).as('churned'),
        ]
      })
      .groupBy('changed_on')
    const rows = await reader
      .selectFrom(days.as('day'))
      .select((eb) => [
        // The days before the first bucket gather in bucket -1: the active memberships it starts with.
        eb
          .case()
          .when('changed_on', '<', plan.firstDay)
          .then(-1)
          .else(bucketOfDay(plan, sql.ref('changed_on')))
          .end()
          .as('bucket'),
        eb.fn.sum<number>('gained').as('gained'),
        eb.fn.sum<number>('churned').as('churned'),
      ])
      .groupBy('bucket')
      .execute()
    const byBucket = new Map(rows.map((row) => [row.bucket, row]))
    let active = byBucket.get(-1)?.gained ?? 0
    return plan.buckets.map((_, i) => {
      const { gained = 0, churned = 0 } = byBucket.get(i) ?? {}
      const activeAtStart = active
      active += gained
      if (component === 'churned') return churned
      return activeAtStart === 0 ? null : churned / activeAtStart
    })
  },
})
