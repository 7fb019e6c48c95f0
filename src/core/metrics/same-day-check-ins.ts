import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'

/**
 * Writes same_day_check_ins again from every check-in there is, as its triggers on check_ins keep
 * it one check-in at a time (migration 0016): for a bulk load of check-ins (the demo), where one
 * pass over the finished table costs far less than the trigger for each row.
 */
export async function rebuildSameDayCheckIns(db: Db): Promise<void> {
  await db.deleteFrom('same_day_check_ins').execute()
  await sql`
    INSERT INTO same_day_check_ins (local_date, customer_id, check_in_id)
    SELECT local_date, customer_id, id
    FROM (SELECT local_date, customer_id, id,
        count(*) OVER (PARTITION BY local_date, customer_id) AS check_ins
      FROM check_ins)
    WHERE check_ins > 1`.execute(db)
}

/**
 * Writes customers.latest_check_in_date again from every check-in there is, as the check-in
 * trigger keeps it one check-in at a time (migration 0018), so that it tells each later check-in
 * whether its customer can have another on its day. One pass over check_ins_local_day, which holds
 * both columns; the unary + keeps SQLite from reading every row in customer order instead.
 */
export async function rebuildLatestCheckInDates(db: Db): Promise<void> {
  await sql`
    UPDATE customers SET latest_check_in_date = latest.day
    FROM (SELECT +customer_id AS customer_id, max(local_date) AS day FROM check_ins GROUP BY 1) AS latest
    WHERE latest.customer_id = customers.id`.execute(db)
}
