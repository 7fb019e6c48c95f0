import { sql, type SqlBool } from 'kysely'
import type { Db } from '../../../db/connection.ts'
import { isAmong, type CheckInIds } from './check-in-ids.ts'

/**
 * Lists in same_day_check_ins every check-in of a customer on a local day of the check-ins of
 * `ids` where that customer has more than one. Those of the day are read from
 * check_in_local_times, which holds every check-in counted before `ids` and those of `ids` too
 * (the catch-up fills it first): a customer's later check-ins of the day are listed with this one
 * when their own turn comes. That table is in day order and holds the customer, so only the range's
 * customers on the range's days are kept before anything is counted: a busy day holds thousands of
 * check-ins, a chunk of the catch-up few of its customers. Counted afresh, every day is read whole.
 */
export async function listSameDayCheckIns(db: Db, ids: CheckInIds): Promise<void> {
  const ofTheRange =
    ids === 'all'
      ? sql<SqlBool>`1`
      : sql<SqlBool>`local_date IN (SELECT local_date FROM check_ins WHERE ${isAmong(ids)})
        AND customer_id IN (SELECT customer_id FROM check_ins WHERE ${isAmong(ids)})`
  await sql`
    INSERT OR IGNORE INTO same_day_check_ins (local_date, customer_id, check_in_id)
    SELECT local_date, customer_id, check_in_id
    FROM (SELECT local_date, customer_id, check_in_id,
        count(*) OVER (PARTITION BY local_date, customer_id) AS check_ins
      FROM check_in_local_times WHERE ${ofTheRange})
    WHERE check_ins > 1`.execute(db)
}
