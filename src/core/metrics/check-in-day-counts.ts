import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { anyCheckInProductId } from './check-in-products.ts'

/**
 * Writes check_in_day_counts again from every check-in there is, as its triggers on check_ins keep
 * it one check-in at a time (migration 0012): for a bulk load of check-ins (the demo), where one
 * pass over the finished table costs far less than the trigger for each row.
 */
export async function rebuildCheckInDayCounts(db: Db): Promise<void> {
  await db.deleteFrom('check_in_day_counts').execute()
  await sql`
    INSERT INTO check_in_day_counts (local_date, gym_id, entry_method, product_id, check_ins, first_check_ins)
    SELECT ci.local_date, ci.gym_id, ci.entry_method, ${anyCheckInProductId('ci')},
      count(*), sum(ci.check_in_count IS 1)
    FROM check_ins AS ci
    GROUP BY 1, 2, 3, 4`.execute(db)
}
