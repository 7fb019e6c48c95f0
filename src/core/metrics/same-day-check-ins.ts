import { sql, type SqlBool } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { isAmong, type CheckInIds } from './check-in-catch-up.ts'

/**
 * Lists in same_day_check_ins every check-in of a customer on a local day of the check-ins of
 * `ids` where that customer has more than one, counted or not: a customer's other check-ins of
 * the day may have come before the range or be written after it. The range's days are read from
 * check_ins_local_day, which is in day order and holds the customer, keeping only the range's
 * customers before anything is counted: a busy day holds thousands of check-ins, a chunk of the
 * catch-up few of its customers. The unary + keeps SQLite reading by the day, not every check-in
 * of those customers through check_ins_customer_gym. Counted afresh, every day is read whole.
 */
export async function listSameDayCheckIns(db: Db, ids: CheckInIds): Promise<void> {
  const ofTheRange =
    ids === 'all'
      ? sql<SqlBool>`1`
      : sql<SqlBool>`local_date IN (SELECT local_date FROM check_ins WHERE ${isAmong(ids)})
        AND +customer_id IN (SELECT customer_id FROM check_ins WHERE ${isAmong(ids)})`
  await sql`
    INSERT OR IGNORE INTO same_day_check_ins (local_date, customer_id, check_in_id)
    SELECT local_date, customer_id, id
    FROM (SELECT local_date, customer_id, id,
        count(*) OVER (PARTITION BY local_date, customer_id) AS check_ins
      FROM check_ins WHERE ${ofTheRange})
    WHERE check_ins > 1`.execute(db)
}
