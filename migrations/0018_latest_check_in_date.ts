import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'
import { checkInMetricsInsertTrigger, dayListed } from './0017_check_in_metrics_trigger.ts'

// Every check-in asks whether its customer has another check-in on its local_date, to keep
// same_day_check_ins. No index starts with the customer and the day, so the trigger asked
// check_ins_customer_gym once for each of the organization's gyms (customer, gym, then the UTC days
// around the local one), listing the gyms again each time, even for a check-in whose day was
// listed already: a door's check-in cost more with every location added. A second customer-keyed
// index would answer in one seek, but each check-in would write a page of it at a random place,
// and the door's commits would carry those pages too.
//
// Instead the look is made only where it can find something: at no gym at all when the day is
// listed already (the new check-in is then listed alone), or when all of the customer's check-ins
// lie on earlier days, which customers.latest_check_in_date tells at one look. That is the day's
// first check-in, the door's usual one, so the full look is left to a customer's second check-in
// of a day. The door writes the customer's row with every check-in already (their count), so
// keeping the date there writes no page the commit did not carry. The date only ever moves later:
// after a check-in is deleted or moved it may be later than every one left, which costs that
// customer the full look once more and never a check-in missed.

/** The gyms to look for the new check-in's day at: every gym, where there may be others. */
const gymsWhereOthersMayBe = `SELECT id FROM gyms WHERE NOT ${dayListed}
          AND (SELECT latest_check_in_date >= new.local_date FROM customers WHERE id = new.customer_id)`

/** Moves the customer's latest_check_in_date to the local_date of `row` (NEW) if that is later. */
const keepLatest = (row: string) => `      UPDATE customers SET latest_check_in_date = ${row}.local_date
        WHERE id = ${row}.customer_id AND (latest_check_in_date IS NULL OR latest_check_in_date < ${row}.local_date);
`

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE customers ADD COLUMN latest_check_in_date TEXT`,
    // In one pass over check_ins_local_day, which holds both columns; the unary + keeps SQLite from
    // reading every check-in from the table in customer order instead.
    `UPDATE customers SET latest_check_in_date = latest.day
      FROM (SELECT +customer_id AS customer_id, max(local_date) AS day FROM check_ins GROUP BY 1) AS latest
      WHERE latest.customer_id = customers.id`,
    `DROP TRIGGER check_in_metrics_insert`,
    // The trigger keeps the date after its look for the day, which reads the date as it was.
    checkInMetricsInsertTrigger({ gyms: gymsWhereOthersMayBe, then: keepLatest('new') }),
    `CREATE TRIGGER customer_latest_check_in_date_update AFTER UPDATE OF customer_id, local_date ON check_ins BEGIN
${keepLatest('new')}    END`,
  ])
}
