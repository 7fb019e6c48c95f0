import { sql } from 'kysely'
import { bucketOfDay, denseValues, localDateOfInstant } from './buckets.ts'
import { defineMetric } from './definition.ts'

/**
 * Customers by the bucket of their first check-in, at their home location. Imported history counts
 * too: a customer's first_check_in_timestamp is their first visit wherever it was recorded.
 */
export const newCustomerCount = defineMetric({
  type: 'new_customer_count',
  readFilters: (filters) => ({ locationIds: filters.ids('location_ids') }),
  shape: () => ({ unit: 'count', additive: true }),
  async run({ reader, plan }, { locationIds }) {
    const day = localDateOfInstant(plan, sql.ref('first_check_in_timestamp'))
    const rows = await reader
      .selectFrom('customers')
      .where('first_check_in_timestamp', '>=', plan.fromInstant)
      .where('first_check_in_timestamp', '<', plan.toInstant)
      .$if(locationIds !== undefined, (q) => q.where('home_location_id', 'in', locationIds!))
      .select([bucketOfDay(plan, day).as('bucket'), sql<number>`count(*)`.as('value')])
      .groupBy('bucket')
      .execute()
    return denseValues(plan, rows, 0)
  },
})
