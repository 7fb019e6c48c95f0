import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { localDateOf, localTimeOf } from '../../db/local-time-sql.ts'
import { ENTRY_METHODS, type EntryMethod } from '../../db/tables/door.ts'
import { addDays } from '../../lib/local-time.ts'
import { bucketOfDay, denseValues, type BucketPlan } from './buckets.ts'
import { CHECK_IN_PRODUCT_KINDS } from './tables/check-in-products.ts'
import { defineMetric } from './definition.ts'
import type { FilterReader } from './filter-reader.ts'
import { gymsKeepOrganizationTime } from './gym-clocks.ts'
import {
  ALL_PRODUCTS,
  readProductAttributes,
  resolveProducts,
  type ProductKind,
  type ProductScope,
  type ResolvedProducts,
} from './product-attributes.ts'
import { bringCheckInMetricsCurrent } from './tables/check-in-catch-up.ts'

/**
 * Check-ins by the organization-local day they happened on. `all` counts every check-in, `first_time`
 * the check-ins that were their customer's first ever (the door records the running count on the
 * row: 1), `unique` the distinct customers of each bucket.
 *
 * A check-in's product is the one it let the customer in on: the membership type of the membership
 * (MEM), of the host's membership for a guest (GUE), the entry pass type (ENT), the event type of the
 * reservation (EVE); free entry (FRE) and migrated check-ins (MIG) have none.
 */

export const CHECK_IN_TYPES = ['all', 'unique', 'first_time'] as const
type CheckInType = (typeof CHECK_IN_TYPES)[number]

/** In the order SQLite's strftime('%w') numbers them: 0 is Sunday. */
export const DAYS_OF_WEEK = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const

/** The words a refusal names each entry method's products by (their kind: CHECK_IN_PRODUCT_KINDS). */
const PRODUCT_WORDS: Record<EntryMethod, string> = {
  MEM: 'membership types',
  GUE: "the host's membership types",
  ENT: 'entry pass types',
  EVE: 'event types',
  FRE: '',
  MIG: '',
}
const PRODUCT_OF_ENTRY = Object.fromEntries(
  ENTRY_METHODS.map((method) => {
    const kind = CHECK_IN_PRODUCT_KINDS[method]
    return [method, kind === null ? null : { kind, words: PRODUCT_WORDS[method] }]
  }),
) as Record<EntryMethod, { kind: ProductKind; words: string } | null>
const METHODS_WITH_PRODUCTS = ENTRY_METHODS.filter((method) => PRODUCT_OF_ENTRY[method] !== null).join(', ')

/**
 * A daily time-of-day window, organization-local: from `start` (inclusive) to `end` (exclusive), each
 * HH:MM:SS. An end before the start wraps past midnight (22:00 to 02:00 is the last two hours and the
 * first two of each day, each counted on its own day); either alone runs to midnight or from it.
 */
interface TimeWindow {
  start?: string
  end?: string
}

interface CheckInCountFilters {
  checkInType: CheckInType
  entryMethod?: EntryMethod
  products?: ProductScope
  locationIds?: number[]
  window?: TimeWindow
  /** strftime('%w') numbers of the days counted; absent: every day */
  weekDays?: number[]
}

function readTimeWindow(filters: FilterReader, plan: BucketPlan): TimeWindow | undefined {
  const start = filters.timeOfDay('time_of_day_start')
  const end = filters.timeOfDay('time_of_day_end')
  if (start === undefined && end === undefined) return undefined
  if (plan.interval !== 'daily')
    filters.refuse(
      start !== undefined ? 'time_of_day_start' : 'time_of_day_end',
      `only with the daily interval (this query is ${plan.interval})`,
    )
  if (start === end)
    filters.refuse('time_of_day_end', 'must differ from time_of_day_start (omit both for the whole day)')
  return { start, end }
}

function readFilters(filters: FilterReader, plan: BucketPlan): CheckInCountFilters {
  const checkInType = filters.choice('check_in_type', CHECK_IN_TYPES, 'all')
  const entryMethod = filters.choice('entry_method', ENTRY_METHODS)
  const product = entryMethod === undefined ? null : PRODUCT_OF_ENTRY[entryMethod]
  const productIds = filters.ids('product_ids')
  if (productIds !== undefined && entryMethod === undefined)
    filters.refuse('product_ids', `requires entry_method (one of ${METHODS_WITH_PRODUCTS})`)
  if (productIds !== undefined && product === null)
    filters.refuse('product_ids', `not allowed: entry_method ${entryMethod} records no product`)
  const locationIds = filters.ids('location_ids')
  const window = readTimeWindow(filters, plan)
  const days = filters.strings('day_of_week', DAYS_OF_WEEK, { emptyMeansAll: true })
  const attributes = readProductAttributes(
    filters,
    product?.kind ?? null,
    `entry_method ${entryMethod} (${product?.words})`,
    entryMethod === undefined
      ? `it needs an entry_method that records a product (one of ${METHODS_WITH_PRODUCTS})`
      : `entry_method ${entryMethod} records no product`,
  )
  return {
    checkInType,
    entryMethod,
    products: product === null ? undefined : { kind: product.kind, ids: productIds, attributes },
    locationIds,
    window,
    weekDays: days?.map((day) => DAYS_OF_WEEK.indexOf(day)),
  }
}

/** The check-ins of one product kind whose product is one of `ids`, as a condition on check_ins. */
function usedProducts(kind: ProductKind, ids: number[]): RawBuilder<SqlBool> {
  switch (kind) {
    case 'membership':
      return sql`customer_membership_id IN (SELECT id FROM customer_memberships WHERE membership_type_id IN (${sql.join(ids)}))`
    case 'entry_pass':
      return sql`customer_entry_pass_id IN (SELECT id FROM customer_entry_passes WHERE entry_pass_type_id IN (${sql.join(ids)}))`
    case 'event':
      return sql`reservation_id IN (SELECT reservations.id FROM reservations JOIN events ON events.id = reservations.event_id WHERE events.event_type_id IN (${sql.join(ids)}))`
    case 'voucher_pack':
      throw new Error('no entry method records a voucher pack')
  }
}

function inWindow(time: Expression<string>, { start, end }: TimeWindow): RawBuilder<SqlBool> {
  if (start === undefined) return sql`${time} < ${end}`
  if (end === undefined) return sql`${time} >= ${start}`
  return start < end
    ? sql`(${time} >= ${start} AND ${time} < ${end})`
    : sql`(${time} >= ${start} OR ${time} < ${end})`
}

/** The plan's days, or those of them on the given days of the week. */
function planDays(plan: BucketPlan, weekDays: number[] | undefined): string[] {
  const days: string[] = []
  for (let day = plan.firstDay; day <= plan.lastDay; day = addDays(day, 1))
    if (weekDays === undefined || weekDays.includes(new Date(`${day}T00:00:00Z`).getUTCDay())) days.push(day)
  return days
}

/**
 * `all` and `first_time` without a time-of-day window, from the per-day counts: some thousands of
 * rows for years of check-ins.
 */
async function countFromDays(
  reader: Db,
  plan: BucketPlan,
  f: CheckInCountFilters,
  products: ResolvedProducts,
): Promise<{ bucket: number; value: number }[]> {
  const days = reader
    .selectFrom('check_in_day_counts')
    .where('local_date', '>=', plan.firstDay)
    .where('local_date', '<=', plan.lastDay)
    .$if(f.locationIds !== undefined, (q) => q.where('gym_id', 'in', f.locationIds!))
    .$if(f.entryMethod !== undefined, (q) => q.where('entry_method', '=', f.entryMethod!))
    .$if(products !== ALL_PRODUCTS, (q) => q.where('product_id', 'in', products as number[]))
    .$if(f.weekDays !== undefined, (q) =>
      q.where(sql<SqlBool>`CAST(strftime('%w', local_date) AS INTEGER) IN (${sql.join(f.weekDays!)})`),
    )
    .select([
      'local_date as day',
      f.checkInType === 'first_time'
        ? sql<number>`sum(first_check_ins)`.as('n')
        : sql<number>`sum(check_ins)`.as('n'),
    ])
    .groupBy('local_date')
  return reader
    .selectFrom(days.as('days'))
    .select([bucketOfDay(plan, sql.ref('day')).as('bucket'), sql<number>`sum(n)`.as('value')])
    .groupBy('bucket')
    .execute()
}

/**
 * Any count from the check-ins themselves. With every gym on the organization's clock the stored
 * day and time are read from check_in_local_times alone (a window or days of the week as one seek
 * per day); otherwise each row's organization-local day and time come from its instant.
 */
async function countFromCheckIns(
  reader: Db,
  plan: BucketPlan,
  f: CheckInCountFilters,
  products: ResolvedProducts,
  storedClockIsLocal: boolean,
): Promise<{ bucket: number; value: number }[]> {
  const day = storedClockIsLocal ? sql<string>`local_date` : localDateOf(sql.ref('created_at'), plan.offsets)
  const time = storedClockIsLocal ? sql<string>`local_time` : localTimeOf(sql.ref('created_at'), plan.offsets)
  const inPlan = storedClockIsLocal
    ? f.window !== undefined || f.weekDays !== undefined
      ? sql<SqlBool>`local_date IN (${sql.join(planDays(plan, f.weekDays))})`
      : sql<SqlBool>`local_date >= ${plan.firstDay} AND local_date <= ${plan.lastDay}`
    : sql<SqlBool>`created_at >= ${plan.fromInstant} AND created_at < ${plan.toInstant}`
  /** What every count keeps, as conditions on columns check_ins and check_in_local_times share. */
  const kept = [
    inPlan,
    ...(!storedClockIsLocal && f.weekDays !== undefined
      ? [sql<SqlBool>`CAST(strftime('%w', ${day}) AS INTEGER) IN (${sql.join(f.weekDays)})`]
      : []),
    ...(f.window !== undefined ? [inWindow(time, f.window)] : []),
    ...(f.locationIds !== undefined ? [sql<SqlBool>`gym_id IN (${sql.join(f.locationIds)})`] : []),
    // A unary + keeps SQLite from walking all history of the method in check_ins_method_created.
    ...(f.entryMethod !== undefined ? [sql<SqlBool>`+entry_method = ${f.entryMethod}`] : []),
    ...(f.checkInType === 'first_time' ? [sql<SqlBool>`check_in_count = 1`] : []),
  ]
  /**
   * The check-ins counted, from check_in_local_times when it holds the day and time counted by;
   * with `sameDayOnly`, only those listed in same_day_check_ins, read from check_ins by id.
   */
  const checkIns = (sameDayOnly: boolean) => {
    const fromLocalTimes = storedClockIsLocal && !sameDayOnly
    const ofProducts =
      products === ALL_PRODUCTS
        ? []
        : [
            fromLocalTimes
              ? sql<SqlBool>`product_id IN (${sql.join(products)})`
              : usedProducts(f.products!.kind, products),
          ]
    const listed = sameDayOnly
      ? [
          sql<SqlBool>`id IN (SELECT check_in_id FROM same_day_check_ins
            WHERE local_date >= ${plan.firstDay} AND local_date <= ${plan.lastDay})`,
        ]
      : []
    return reader
      .selectFrom(fromLocalTimes ? 'check_in_local_times' : 'check_ins')
      .where(sql<SqlBool>`${sql.join([...kept, ...ofProducts, ...listed], sql` AND `)}`)
  }
  if (f.checkInType === 'unique' && plan.interval !== 'daily') {
    // A customer once per bucket however many days of it they came.
    return checkIns(false)
      .select([bucketOfDay(plan, day).as('bucket'), sql<number>`count(DISTINCT customer_id)`.as('value')])
      .groupBy('bucket')
      .execute()
  }
  // Per day first, in the order the days are read, then the days' buckets: the bucket is worked out
  // per day, not per check-in.
  const perDay = (n: RawBuilder<number>, sameDayOnly = false) =>
    checkIns(sameDayOnly)
      .select([day.as('day'), n.as('n')])
      .groupBy('day')
  const days =
    f.checkInType !== 'unique'
      ? perDay(sql`count(*)`)
      : storedClockIsLocal
        ? // Each customer once a day without telling every check-in's customer apart: count them
          // all, then take off on each day all but one of each customer's check-ins there when they
          // came more than once (same_day_check_ins lists the few that did, by the stored day).
          perDay(sql`count(*)`).unionAll(perDay(sql`count(DISTINCT customer_id) - count(*)`, true))
        : perDay(sql`count(DISTINCT customer_id)`)
  return reader
    .selectFrom(days.as('days'))
    .select([bucketOfDay(plan, sql.ref('day')).as('bucket'), sql<number>`sum(n)`.as('value')])
    .groupBy('bucket')
    .execute()
}

export const checkInCount = defineMetric({
  type: 'check_in_count',
  readFilters,
  shape: (f) => ({ unit: 'count', additive: f.checkInType !== 'unique' }),
  async run({ reader, db, plan }, f) {
    await bringCheckInMetricsCurrent(db)
    const products = f.products === undefined ? ALL_PRODUCTS : await resolveProducts(reader, f.products)
    if (products !== ALL_PRODUCTS && products.length === 0) return denseValues(plan, [], 0)
    const storedClockIsLocal = await gymsKeepOrganizationTime(reader, plan)
    const rows =
      storedClockIsLocal && f.checkInType !== 'unique' && f.window === undefined
        ? await countFromDays(reader, plan, f, products)
        : await countFromCheckIns(reader, plan, f, products, storedClockIsLocal)
    return denseValues(plan, rows, 0)
  },
})
