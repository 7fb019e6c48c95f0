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
