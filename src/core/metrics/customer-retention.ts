import { sql } from 'kysely'
import { localDateOf } from '../../db/local-time-sql.ts'
import { utcOffsetPeriods } from '../../lib/local-time.ts'
import { bucketOfDay } from './buckets.ts'
import { defineMetric } from './definition.ts'
import { outcomeShape, outcomeValues, readOutcomeComponent } from './outcomes.ts'

/** A customer first seen on day D is retained when they check in again on D+1 to D+this. */
export const RETENTION_DAYS = 90
/** A bucket's retention is known once its whole interval is this many days in the past. */
export const RETENTION_SETTLES_AFTER_DAYS = 100

const DAY_MS = 86_400_000

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
  async run({ reader, plan }, { component, locationIds }) {
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
    const rows = await reader
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
    const outcomes = rows.map(({ bucket, people, yes }) => ({ bucket, yes, no: people - yes }))
    return outcomeValues(plan, outcomes, component, RETENTION_SETTLES_AFTER_DAYS)
  },
})
