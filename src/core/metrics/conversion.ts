import {
  expressionBuilder,
  sql,
  type Expression,
  type ExpressionBuilder,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely'
import type { CustomerMembershipTable, Database } from '../../db/schema.ts'
import { ACTIVE_STATUSES, FROZEN_STATUSES } from '../../domain/membership-status.ts'
import { addDays, startOfLocalDay } from '../../lib/local-time.ts'
import { bucketOfDay, type BucketPlan } from './buckets.ts'
import type { MetricContext } from './definition.ts'
import type { FilterReader } from './filter-reader.ts'
import { outcomeShape, outcomeValues, readOutcomeComponent, type OutcomeComponent } from './outcomes.ts'

/**
 * What product_conversion and first_check_in_conversion share: each follows customers from a day
 * they came (their first use of a product, their first check-in) and asks whether they became
 * members within the window after it, counting only those who were not members already.
 */

/** The follow-up each conversion_window allows, in days after the day of the use; a year is 365 days. */
export const CONVERSION_WINDOWS = {
  '30_days': 30,
  '60_days': 60,
  '90_days': 90,
  '120_days': 120,
  '180_days': 180,
  '1_year': 365,
} as const
type ConversionWindow = keyof typeof CONVERSION_WINDOWS

export interface Conversion {
  component: OutcomeComponent
  windowDays: number
}

/** Reads `component` and `conversion_window`, the first two filters of both conversion metrics. */
export function readConversion(filters: FilterReader): Conversion {
  const component = readOutcomeComponent(filters, { yes: 'converted', no: 'not_converted' })
  const window = filters.requiredChoice(
    'conversion_window',
    Object.keys(CONVERSION_WINDOWS) as ConversionWindow[],
  )
  return { component, windowDays: CONVERSION_WINDOWS[window] }
}

export const conversionShape = (conversion: Conversion) => outcomeShape(conversion.component)

/**
 * A membership is in force while active, frozen or with a payment processing: a customer holding
 * one on the day they came was a member already, and one that never reached such a status (denied,
 * never paid) did not make them a member.
 */
const IN_FORCE_STATUSES = [...ACTIVE_STATUSES, ...FROZEN_STATUSES]

/**
 * The people a conversion metric follows, one row each: the customer, the local day of their use,
 * and the membership the use was made with when that membership is not to count as becoming or
 * already being a member (product_conversion's memberships: the product followed is the membership
 * itself), else null.
 */
export interface ConversionUse {
  customer_id: number
  day: string
  used_membership_id: number | null
}

/** The uses in [fromInstant, toInstant), UTC instants the caller limits its rows by. */
export type ConversionUses = (range: {
  fromInstant: string
  toInstant: string
}) => SelectQueryBuilder<Database, any, ConversionUse>

type UseScope = ExpressionBuilder<Database & { use: ConversionUse }, 'use'>

/** Subqueries of the tables, correlated to a use through the expressions they are given. */
const tables = expressionBuilder<Database, never>()

type MembershipScope = ExpressionBuilder<
  Database & { use: ConversionUse; membership: CustomerMembershipTable },
  'use' | 'membership'
>

/**
 * Whether the customer of a use holds a membership, as its owner or as one of its members, that
 * meets `condition`; never the membership the use was made with when it names one.
 */
const holdsMembership = (eb: UseScope, condition: (membership: MembershipScope) => Expression<SqlBool>) => {
  const meets = (membership: MembershipScope) =>
    membership.and([
      membership('membership.id', 'is not', membership.ref('use.used_membership_id')),
      condition(membership),
    ])
  return eb.or([
    eb.exists(
      eb
        .selectFrom('customer_memberships as membership')
        .select(sql.lit(1).as('one'))
        .whereRef('membership.owner_id', '=', 'use.customer_id')
        .where(meets),
    ),
    eb.exists(
      eb
        .selectFrom('membership_members as holder')
        .innerJoin('customer_memberships as membership', 'membership.id', 'holder.customer_membership_id')
        .select(sql.lit(1).as('one'))
        .whereRef('holder.customer_id', '=', 'use.customer_id')
        .where(meets),
    ),
  ])
}

/**
 * A membership's status on `day`: its last status change on or before it. A member's own freeze is
 * not the membership's status, and frozen is in force anyway.
 */
const statusOn = (membershipId: Expression<number>, day: Expression<string>) =>
  tables
    .selectFrom('membership_status_changes')
    .select('to_status')
    .where('customer_membership_id', '=', membershipId)
    .where('member_customer_id', 'is', null)
    .where('changed_on', '<=', day)
    .orderBy('changed_on', 'desc')
    .orderBy('id', 'desc')
    .limit(1)

/**
 * Whether the customer of a use held a membership in force on its day that had started before it.
 * A membership starting on the day itself is the visitor who joined at the desk after their visit:
 * a conversion, not a member already.
 */
const wasMemberAlready = (eb: UseScope) =>
  holdsMembership(eb, (membership) =>
    membership.and([
      membership('membership.start_date', '<', membership.ref('use.day')),
      membership(
        statusOn(membership.ref('membership.id'), membership.ref('use.day')),
        'in',
        IN_FORCE_STATUSES,
      ),
    ]),
  )

/**
 * Whether the customer of a use holds a membership starting within `windowDays` after its day (the
 * day itself included) that has been in force.
 */
const becameMember = (eb: UseScope, windowDays: number) =>
  holdsMembership(eb, (membership) =>
    membership.and([
      membership('membership.start_date', '>=', membership.ref('use.day')),
      membership(
        'membership.start_date',
        '<=',
        sql<string>`date(${membership.ref('use.day')}, ${`+${windowDays} days`})`,
      ),
      membership.exists(
        tables
          .selectFrom('membership_status_changes')
          .select(sql.lit(1).as('one'))
          .where('customer_membership_id', '=', membership.ref('membership.id'))
          .where('member_customer_id', 'is', null)
          .where('to_status', 'in', IN_FORCE_STATUSES),
      ),
    ]),
  )

/**
 * The instants of the plan's settled buckets: those whose last day is more than the window before
 * today (isSettled), which come first, so they are one stretch; null when none is.
 */
function settledInstants(plan: BucketPlan, windowDays: number) {
  const settledBefore = addDays(plan.today, -windowDays)
  const settled = plan.buckets.filter((bucket) => bucket.end_date < settledBefore)
  const last = settled.at(-1)
  if (!last) return null
  return {
    fromInstant: plan.fromInstant,
    toInstant: startOfLocalDay(addDays(last.end_date, 1), plan.timeZone),
  }
}

/**
 * One value per bucket: the converted, not converted or rate of the uses in each bucket by their
 * day, leaving out those who were members already; null until a bucket has settled. Only settled
 * buckets' uses are read; `uses` null follows nobody (no product matches the filters).
 */
export async function conversionValues(
  { reader, plan }: MetricContext,
  conversion: Conversion,
  uses: ConversionUses | null,
): Promise<(number | null)[]> {
  const range = settledInstants(plan, conversion.windowDays)
  const rows =
    range && uses
      ? await reader
          .selectFrom(uses(range).as('use'))
          .where((eb) => eb.not(wasMemberAlready(eb)))
          .select((eb) => [
            bucketOfDay(plan, sql.ref('use.day')).as('bucket'),
            sql<number>`sum(${becameMember(eb, conversion.windowDays)})`.as('yes'),
            sql<number>`count(*)`.as('followed'),
          ])
          .groupBy('bucket')
          .execute()
      : []
  return outcomeValues(
    plan,
    rows.map(({ bucket, yes, followed }) => ({ bucket, yes, no: followed - yes })),
    conversion.component,
    conversion.windowDays,
  )
}
