import { sql } from 'kysely'
import type { Db } from '../../../db/connection.ts'
import type { CheckInIds } from './check-in-ids.ts'
import { localTimesOf } from './check-in-local-times.ts'

/**
 * Moves each customer's first_date and return_date in customer_first_visit_days to the check-ins
 * of `ids` where those come earlier. Only each customer's first two days of the range can, so
 * only they are offered, one row each: SQLite applies the upsert row by row, so a customer's
 * second day is compared with the row their first has just written. The unary + keeps SQLite
 * reading the rows straight through and sorting them, never every check-in in customer order
 * through check_ins_customer_gym with a read of the table for each.
 */
export async function countFirstVisitDays(db: Db, ids: CheckInIds): Promise<void> {
  await sql`
    INSERT INTO customer_first_visit_days (customer_id, first_date, return_date)
    SELECT DISTINCT customer_id, local_date, NULL
    FROM (SELECT customer_id, local_date,
        dense_rank() OVER (PARTITION BY +customer_id ORDER BY local_date) AS day_number
      FROM (${localTimesOf(ids)}))
    WHERE day_number <= 2
    ON CONFLICT DO UPDATE SET
      first_date = min(first_date, excluded.first_date),
      return_date = CASE WHEN excluded.first_date < first_date THEN first_date ELSE excluded.first_date END
    WHERE excluded.first_date <> first_date AND (return_date IS NULL OR excluded.first_date < return_date)`.execute(
    db,
  )
}
