import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { isAmong, type CheckInIds } from './check-in-catch-up.ts'
import { anyCheckInProductId } from './check-in-products.ts'

/**
 * Adds the check-ins of `ids` to check_in_local_times: each under its gym-local day and time, with
 * its gym, entry method, product, customer and running count, for the counts a time of day, days
 * of the week or distinct customers keep from reading the per-day counts. Read from the table in id
 * order (NOT INDEXED), as the per-day counts are, and written in the table's key order.
 */
export async function countCheckInLocalTimes(db: Db, ids: CheckInIds): Promise<void> {
  await sql`
    INSERT INTO check_in_local_times
      (local_date, local_time, check_in_id, gym_id, entry_method, product_id, customer_id, check_in_count)
    SELECT ci.local_date, ci.local_time, ci.id, ci.gym_id, ci.entry_method, ${anyCheckInProductId('ci')},
      ci.customer_id, ci.check_in_count
    FROM check_ins AS ci NOT INDEXED
    WHERE ${isAmong(ids, 'ci.id')}
    ORDER BY 1, 2, 3`.execute(db)
}
