import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'

/**
 * Writes customer_first_visit_days again from every check-in there is, as its triggers on check_ins
 * keep it one check-in at a time (migration 0016): for a bulk load of check-ins (the demo), where
 * one pass over the finished table costs far less than the trigger for each row. The unary + keeps
 * SQLite reading check_ins_local_day, which holds both columns, instead of every row in customer
 * order through check_ins_customer_gym.
 */
export async function rebuildCustomerFirstVisitDays(db: Db): Promise<void> {
  await db.deleteFrom('customer_first_visit_days').execute()
  await sql`
    INSERT INTO customer_first_visit_days (customer_id, first_date, return_date)
    SELECT customer_id, min(local_date), min(CASE WHEN day_number = 2 THEN local_date END)
    FROM (SELECT customer_id, local_date,
        dense_rank() OVER (PARTITION BY +customer_id ORDER BY local_date) AS day_number
      FROM check_ins)
    WHERE day_number <= 2
    GROUP BY customer_id`.execute(db)
}
