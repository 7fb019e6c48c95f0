import { sql } from 'kysely'
import { localDateOf } from '../../db/local-time-sql.ts'
import { utcOffsetPeriods } from '../../lib/local-time.ts'
import { bucketOfDay, localDateOfInstant } from './buckets.ts'
import { defineMetric } from './definition.ts'
import { outcomeShape, outcomeValues, readOutcomeComponent } from './outcomes.ts'

/** A first visit is followed for this many days: retained when the customer came back within them. */
const RETENTION_DAYS = 90
/** A bucket's outcome is known once its whole interval is more than this many days old. */
const SETTLES_AFTER_DAYS = 100
const DAY_MS = 86_400_000

/**
 * Customers by the bucket of their first check-in (first_check_in_timestamp, imported history
 * included), at their home location: retained when they checked in again on one of the 90
 * organization-local days after the day of that first visit, else lost.
 */
export const customerRetention = defineMetric({
  type: 'customer_retention',
  readFilters: (filters) => ({
    component: readOutcomeComponent(filters, { yes: 'retained', no: 'lost' }),
    locationIds: filters.ids('location_ids'),
  }),
  shape: ({ component }) => outcomeShape(component),
  async run({ reader, plan }, { component, locationIds }) {
    // The later check-ins run up to 90 days past the plan's last day: their wall clock needs the
    // zone's offsets over that stretch too.
    const followUpOffsets = utcOffsetPeriods(
      plan.timeZone,
      Date.parse(plan.fromInstant),
      Date.parse(plan.toInstant) + (RETENTION_DAYS + 2) * DAY_MS,
    )
    const laterDay = localDateOf(sql.ref('later.created_at'), followUpOffsets)
    const rows = await reader
      .with('first_visit', (db) =>
        db
          .selectFrom('customers as c')
          .where('c.first_check_in_timestamp', '>=', plan.fromInstant)
          .where('c.first_check_in_timestamp', '<', plan.toInstant)
          .$if(locationIds !== undefined, (q) => q.where('c.home_location_id', 'in', locationIds!))
          .select([
            'c.id as customer_id',
            'c.first_check_in_timestamp as first_at',
            localDateOfInstant(plan, sql.ref('c.first_check_in_timestamp')).as('day'),
          ]),
      )
      .with('outcome', (db) =>
        db.selectFrom('first_visit').select((eb) => [
          bucketOfDay(plan, sql.ref('first_visit.day')).as('bucket'),
          // Read along check_ins_customer_gym: the customer's check-ins after the first visit,
          // within the days that can hold the 90 local days after its day.
          eb
            .exists(
              eb
                .selectFrom('check_ins as later')
                .whereRef('later.customer_id', '=', 'first_visit.customer_id')
                .where(sql.ref('later.created_at'), '>', sql.ref('first_visit.first_at'))
                .where(
                  sql.ref('later.created_at'),
                  '<',
                  sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', first_visit.first_at, ${`+${RETENTION_DAYS + 2} days`})`,
                )
                .where(laterDay, '>', sql.ref<string>('first_visit.day'))
                .where(laterDay, '<=', sql<string>`date(first_visit.day, ${`+${RETENTION_DAYS} days`})`)
                .select(sql.lit(1).as('one')),
            )
            .as('retained'),
        ]),
      )
      .selectFrom('outcome')
      .select([
        'bucket',
        sql<number>`sum(retained)`.as('yes'),
        sql<number>`count(*) - sum(retained)`.as('no'),
      ])
      .groupBy('bucket')
      .execute()
    return outcomeValues(plan, rows, component, SETTLES_AFTER_DAYS)
  },
})
