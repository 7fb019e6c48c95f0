import { sql } from 'kysely'
import type { Db } from '../../../db/connection.ts'
import type { CheckInIds } from './check-in-ids.ts'
import { localTimesOf } from './check-in-local-times.ts'

/**
 * Adds the check-ins of `ids` to check_in_day_counts: one row per local day, gym, entry method and
 * product, the count and first-ever check-ins of the range added to what the row has.
 */
export async function countCheckInDays(db: Db, ids: CheckInIds): Promise<void> {
  await sql`
    INSERT INTO check_in_day_counts (local_date, gym_id, entry_method, product_id, check_ins, first_check_ins)
    SELECT local_date, gym_id, entry_method, product_id, count(*), sum(check_in_count IS 1)
    FROM (${localTimesOf(ids)})
    GROUP BY 1, 2, 3, 4
    ON CONFLICT DO UPDATE SET check_ins = check_ins + excluded.check_ins,
      first_check_ins = first_check_ins + excluded.first_check_ins`.execute(db)
}
