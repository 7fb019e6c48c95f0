import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'
import { joinSameDay, leaveSameDay } from './0016_customer_visit_days.ts'
import { checkInMetricsInsertTrigger } from './0017_check_in_metrics_trigger.ts'

// Every check-in asks whether its customer has another check-in on its local_date, to keep
// same_day_check_ins. Without an index that starts with the customer and the day, the triggers
// asked check_ins_customer_gym once for every gym the organization has (customer, gym, then the
// UTC days around the local one), and built that list of gyms again for each insert: a door's
// check-in cost more with every location added. check_ins_customer_local_day answers with one seek
// however many gyms there are, at the price of one more index entry for each check-in.

/** The check-ins of the customer of `row` (NEW in a trigger) on its local_date, `row` among them. */
const ofTheDayOf = (row: string) => `customer_id = ${row}.customer_id AND local_date = ${row}.local_date`

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE INDEX check_ins_customer_local_day ON check_ins (customer_id, local_date)`,
    `DROP TRIGGER check_in_metrics_insert`,
    checkInMetricsInsertTrigger(ofTheDayOf('new')),
    `DROP TRIGGER same_day_check_ins_update`,
    `CREATE TRIGGER same_day_check_ins_update AFTER UPDATE OF customer_id, local_date ON check_ins BEGIN
      ${leaveSameDay('old')}
      ${joinSameDay('new', ofTheDayOf)}
    END`,
  ])
}
