import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { localDateOf } from '../../db/local-time-sql.ts'
import { utcOffsetPeriods } from '../../lib/local-time.ts'
import { bucketOfDay, localDateOfInstant, type BucketPlan } from './buckets.ts'
import { defineMetric } from './definition.ts'
import { gymsKeepOrganizationTime } from './gym-clocks.ts'
import { outcomeShape, outcomeValues, readOutcomeComponent } from './outcomes.ts'
import { bringCheckInMetricsCurrent } from './tables/check-in-catch-up.ts'

/** A customer first seen on day D is retained when they check in again on D+1 to D+this. */
export const RETENTION_DAYS = 90
/** A bucket's retention is known once its whole interval is this many days in the past. */
export const RETENTION_SETTLES_AFTER_DAYS = 100

const DAY_MS = 86_400_000

type Outcomes = { bucket: number; people: number; yes: number }[]

/**
 * With every gym on the organization's clock, from customer_first_visit_days: each customer's
 * first two days of check-ins. The first day they came after D is the first of those two that is
 * after D; only a customer with check-ins on two days up to D (a first_check_in_timestamp later
 * than their first check-ins) has it looked up in their check-ins.
 */
async function retentionFromFirstVisitDays(
  reader: Db,
  plan: BucketPlan,
  locationIds: number[] | undefined,
): Promise<Outcomes> {
  return (
    reader
      // Materialized so each customer's first day is worked out once, not again in every use below.
      .with(
        (cte) => cte('first_visits').materialized(),
        (db) =>
          db
            .selectFrom('customers')
            .leftJoin('customer_first_visit_days as days', 'days.customer_id', 'customers.id')
            .where('customers.first_check_in_timestamp', '>=', plan.fromInstant)
            .where('customers.first_check_in_timestamp', '<', plan.toInstant)
            .$if(locationIds !== undefined, (q) => q.where('customers.home_location_id', 'in', locationIds!))
            .select([
              'customers.id',
              localDateOfInstant(plan, sql.ref('customers.first_check_in_timestamp')).as('first_day'),
              'days.first_date',
              'days.return_date',
            ]),
      )
      .with('comebacks', (db) =>
        db.selectFrom('first_visits').select([
          'first_day',
          sql<string | null>`CASE
            WHEN first_date > first_day THEN first_date
            WHEN return_date IS NULL OR return_date > first_day THEN return_date
            ELSE (SELECT min(local_date) FROM check_ins
              WHERE customer_id = first_visits.id AND local_date > first_visits.first_day)
          END`.as('back_on'),
        ]),
      )
      .selectFrom('comebacks')
      .select((eb) => [
        bucketOfDay(plan, sql.ref('first_day')).as('bucket'),
        eb.fn.countAll<number>().as('people'),
        eb.fn
          .countAll<number>()
          .filterWhere(sql.ref('back_on'), '<=', sql<string>`date(first_day, ${`+${RETENTION_DAYS} days`})`)
          .as('yes'),
      ])
      .groupBy('bucket')
      .execute()
  )
}

/**
 * With a gym on another clock, from the check-ins themselves: whether each first visitor has a
 * check-in whose organization-local day, worked out from its instant, is one of the days after D.
 */
async function retentionFromCheckIns(
  reader: Db,
  plan: BucketPlan,
  locationIds: number[] | undefined,
): Promise<Outcomes> {
  // The return visits of the last bucket's customers fall up to RETENTION_DAYS after the plan.
  const offsets = utcOffsetPeriods(
    plan.timeZone,
    plan.offsets[0]!.startMs,
    Date.parse(plan.toInstant) + (RETENTION_DAYS + 2) * DAY_MS,
  )
  // check_ins_customer_gym is (customer, gym, created_at): naming every gym lets SQLite seek to each
  // gym's check-ins after the first visit instead of reading all of the customer's history.
  const gymIds = (await reader.selectFrom('gyms').select('id').execute()).map((gym) => gym.id)
  const returnDay = localDateOf(sql.ref('later.created_at'), offsets)
  return (
    reader
      // Materialized so each customer's first day is worked out once, not again in every test below.
      .with(
        (cte) => cte('first_visits').materialized(),
        (db) =>
          db
            .selectFrom('customers')
            .where('first_check_in_timestamp', '>=', plan.fromInstant)
            .where('first_check_in_timestamp', '<', plan.toInstant)
            .$if(locationIds !== undefined, (q) => q.where('home_location_id', 'in', locationIds!))
            .select([
              'id',
              'first_check_in_timestamp as first_at',
              localDateOf(sql.ref('first_check_in_timestamp'), offsets).as('first_day'),
            ]),
      )
      .selectFrom('first_visits')
      .select((eb) => [
        bucketOfDay(plan, sql.ref('first_day')).as('bucket'),
        sql<number>`count(*)`.as('people'),
        eb.fn
          .sum<number>(
            eb.exists(
              eb
                .selectFrom('check_ins as later')
                .select(sql`1`.as('one'))
                .whereRef('later.customer_id', '=', 'first_visits.id')
                .where('later.gym_id', 'in', gymIds)
                // The instants bound the index read; the local days decide.
                .whereRef('later.created_at', '>', 'first_visits.first_at')
                .where(
                  'later.created_at',
                  '<',
                  sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', first_visits.first_at, ${`+${RETENTION_DAYS + 2} days`})`,
                )
                .where(returnDay, '>', sql<string>`first_visits.first_day`)
                .where(
                  returnDay,
                  '<=',
                  sql<string>`date(first_visits.first_day, ${`+${RETENTION_DAYS} days`})`,
                ),
            ),
          )
          .as('yes'),
      ])
      .groupBy('bucket')
      .execute()
  )
}

/**
 * Customers by the bucket of their first check-in (organization-local day, home location, as
 * new_customer_count counts them), split into those who came back within RETENTION_DAYS of that
 * day and those who did not. Days are organization-local throughout: a second visit on the first
 * day is not a return, one on the 90th day after it is.
 */
export const customerRetention = defineMetric({
  type: 'customer_retention',
  readFilters: (filters) => ({
    component: readOutcomeComponent(filters, { yes: 'retained', no: 'lost' }),
    locationIds: filters.ids('location_ids'),
  }),
  shape: ({ component }) => outcomeShape(component),
  async run({ reader, db, plan }, { component, locationIds }) {
    await bringCheckInMetricsCurrent(db)
    const rows = (await gymsKeepOrganizationTime(reader, plan))
      ? await retentionFromFirstVisitDays(reader, plan, locationIds)
      : await retentionFromCheckIns(reader, plan, locationIds)
    const outcomes = rows.map(({ bucket, people, yes }) => ({ bucket, yes, no: people - yes }))
    return outcomeValues(plan, outcomes, component, RETENTION_SETTLES_AFTER_DAYS)
  },
})
