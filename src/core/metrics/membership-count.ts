import { sql } from 'kysely'
import type { MembershipStatusClass } from '../../db/schema.ts'
import { bringMembershipRollupCurrent } from '../membership-rollup/catch-up.ts'
import { rollupDayCounts, type RollupCount } from '../membership-rollup/read.ts'
import { bucketOfDay, denseValues } from './buckets.ts'
import { defineMetric } from './definition.ts'
import { readMembershipScope, resolveMembershipTypes } from './membership-scope.ts'
import { ALL_PRODUCTS } from './product-attributes.ts'

/** The `status` values and the status classes each counts. */
const STATUS_FILTER: Record<string, readonly MembershipStatusClass[]> = {
  active: ['active'],
  frozen: ['frozen'],
  active_and_frozen: ['active', 'frozen'],
  payment_failed: ['payment_failed'],
  active_frozen_and_payment_failed: ['active', 'frozen', 'payment_failed'],
}

const COUNT_BY = ['memberships', 'members', 'add_ons'] as const
const VALUES_IN_PERIOD = ['start', 'end', 'min', 'max'] as const

/**
 * Memberships, distinct members or member add-ons on each day, from the daily membership rollup: a
 * stock, so each bucket shows one of its days (the day before it starts, its last day) or the least
 * or most of its days. Days after today read 0.
 */
export const membershipCount = defineMetric({
  type: 'membership_count',
  readFilters(filters) {
    const countBy = filters.choice('count_by', COUNT_BY, 'memberships')
    const status = filters.choice('status', Object.keys(STATUS_FILTER), 'active')
    const scope = readMembershipScope(filters)
    const addOnNames = filters.strings('add_on_names')
    if (addOnNames && countBy !== 'add_ons') filters.refuse('add_on_names', 'only with count_by add_ons')
    return {
      countBy,
      statusClasses: STATUS_FILTER[status]!,
      scope,
      addOnNames,
      discountAssociationId: filters.integer('discount_association_id'),
      valueInPeriod: filters.choice('value_in_period', VALUES_IN_PERIOD, 'start'),
    }
  },
  shape: () => ({ unit: 'count', additive: false }),
  async run({ reader, db, plan }, filters) {
    const types = await resolveMembershipTypes(reader, filters.scope)
    const count: RollupCount = {
      countBy: filters.countBy,
      statusClasses: filters.statusClasses,
      membershipTypeIds: types === ALL_PRODUCTS ? undefined : types,
      billingLocationIds: filters.scope.billingLocationIds,
      discountAssociationId: filters.discountAssociationId,
      addOnNames: filters.addOnNames,
    }
    await bringMembershipRollupCurrent(db, plan.today)
    const through = plan.lastDay < plan.today ? plan.lastDay : plan.today
    // Every day from the lead-in day on, 0 where the rollup has no row (and after today).
    const daily = sql`WITH RECURSIVE days (day) AS (
        SELECT ${plan.leadInDay} UNION ALL SELECT date(day, '+1 day') FROM days WHERE day < ${plan.lastDay}
      ),
      counts AS MATERIALIZED ${rollupDayCounts(reader, count, plan.leadInDay, through)},
      daily AS (
        SELECT days.day, coalesce(counts.count, 0) AS value FROM days LEFT JOIN counts ON counts.day = days.day
      )`
    const bucket = bucketOfDay(plan, sql.ref('day'))
    const days = (edge: 'start_date' | 'end_date') => JSON.stringify(plan.buckets.map((b) => b[edge]))
    const { rows } = await (() => {
      switch (filters.valueInPeriod) {
        // The day before each bucket is the last day of the one before it, or the lead-in day.
        case 'start':
          return sql<{ bucket: number; value: number }>`${daily}
            SELECT ${bucketOfDay(plan, sql`date(day, '+1 day')`)} AS bucket, value FROM daily
            WHERE date(day, '+1 day') IN (SELECT value FROM json_each(${days('start_date')}))`.execute(reader)
        case 'end':
          return sql<{ bucket: number; value: number }>`${daily}
            SELECT ${bucket} AS bucket, value FROM daily
            WHERE day IN (SELECT value FROM json_each(${days('end_date')}))`.execute(reader)
        case 'min':
        case 'max':
          return sql<{ bucket: number; value: number }>`${daily}
            SELECT ${bucket} AS bucket, ${sql.raw(filters.valueInPeriod)}(value) AS value FROM daily
            WHERE day >= ${plan.firstDay} GROUP BY bucket`.execute(reader)
      }
    })()
    return denseValues(plan, rows, 0)
  },
})
