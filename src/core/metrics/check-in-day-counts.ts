import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { isAmong, type CheckInIds } from './check-in-catch-up.ts'
import { anyCheckInProductId } from './check-in-products.ts'

/**
 * Adds the check-ins of `ids` to check_in_day_counts: one row per local day, gym, entry method and
 * product, the count and first-ever check-ins of the range added to what the row has. No index holds
 * the holdings a check-in was made with, so the check-ins are read from the table in id order (NOT
 * INDEXED): through an index in day order, each row would be one more read.
 */
export async function countCheckInDays(db: Db, ids: CheckInIds): Promise<void> {
  await sql`
    INSERT INTO check_in_day_counts (local_date, gym_id, entry_method, product_id, check_ins, first_check_ins)
    SELECT ci.local_date, ci.gym_id, ci.entry_method, ${anyCheckInProductId('ci')},
      count(*), sum(ci.check_in_count IS 1)
    FROM check_ins AS ci NOT INDEXED
    WHERE ${isAmong(ids, 'ci.id')}
    GROUP BY 1, 2, 3, 4
    ON CONFLICT DO UPDATE SET check_ins = check_ins + excluded.check_ins,
      first_check_ins = first_check_ins + excluded.first_check_ins`.execute(db)
}
