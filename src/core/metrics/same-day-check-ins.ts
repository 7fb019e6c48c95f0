import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { CheckInIdRange } from './check-in-catch-up.ts'

/**
 * Lists in same_day_check_ins every check-in of a customer on a local day of the check-ins of
 * `ids` where that customer has more than one, counted or not: a customer's other check-ins of
 * the day may have come before the range or be written after it. The days are read whole from
 * check_ins_local_day, which is in day order and holds the customer; a few thousand rows a day.
 */
export async function listSameDayCheckIns(db: Db, ids: CheckInIdRange): Promise<void> {
  await sql`
    INSERT OR IGNORE INTO same_day_check_ins (local_date, customer_id, check_in_id)
    SELECT local_date, customer_id, id
    FROM (SELECT local_date, customer_id, id,
        count(*) OVER (PARTITION BY local_date, customer_id) AS check_ins
      FROM check_ins
      WHERE local_date IN (SELECT local_date FROM check_ins WHERE id > ${ids.after} AND id <= ${ids.through}))
    WHERE check_ins > 1`.execute(db)
}
