import { sql } from 'kysely'
import type { Db } from '../../../db/connection.ts'
import { isAmong, type CheckInIds } from './check-in-ids.ts'
import { anyCheckInProductId } from './check-in-products.ts'

/**
 * The check-ins of `ids` with the columns of check_in_local_times, their products looked up, read
 * from check_ins in id order (NOT INDEXED): no index holds the holdings a check-in was made with,
 * so through one, in day or customer order, each row would be one more read.
 */
const fromCheckIns = (ids: CheckInIds) => sql`
  SELECT ci.local_date, ci.local_time, ci.id AS check_in_id, ci.gym_id, ci.entry_method,
    ${anyCheckInProductId('ci')} AS product_id, ci.customer_id, ci.check_in_count
  FROM check_ins AS ci NOT INDEXED
  WHERE ${isAmong(ids, 'ci.id')}`

/**
 * Adds the check-ins of `ids` to check_in_local_times: each under its gym-local day and time, with
 * its gym, entry method, product, customer and running count, for the counts a time of day, days
 * of the week or distinct customers keep from reading the per-day counts. Written in the table's
 * key order.
 */
export async function countCheckInLocalTimes(db: Db, ids: CheckInIds): Promise<void> {
  await sql`
    INSERT INTO check_in_local_times
      (local_date, local_time, check_in_id, gym_id, entry_method, product_id, customer_id, check_in_count)
    SELECT * FROM (${fromCheckIns(ids)})
    ORDER BY 1, 2, 3`.execute(db)
}

/**
 * The check-ins of `ids` as check_in_local_times holds them, for the other tables' counts once
 * that table has them: counted afresh, that table itself, each product looked up once already and
 * only the columns counted read; a chunk's from check_ins by id, since that table is not in id
 * order.
 */
export const localTimesOf = (ids: CheckInIds) =>
  ids === 'all' ? sql`SELECT * FROM check_in_local_times` : fromCheckIns(ids)
