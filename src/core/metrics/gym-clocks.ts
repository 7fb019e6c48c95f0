import type { Db } from '../../db/connection.ts'
import type { BucketPlan } from './buckets.ts'

/**
 * Whether every gym keeps its wall clock in the organization's zone, so the local_date and
 * local_time the door stores (in the gym's zone), and what is kept from them, are
 * organization-local as they stand. Otherwise a metric works each check-in's day and time out from
 * its instant, which reads every row.
 */
export async function gymsKeepOrganizationTime(reader: Db, plan: BucketPlan): Promise<boolean> {
  const other = await reader
    .selectFrom('gyms')
    .select('id')
    .where('time_zone', '!=', plan.timeZone)
    .limit(1)
    .executeTakeFirst()
  return other === undefined
}
