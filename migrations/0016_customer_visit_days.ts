import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// What the metrics ask of a customer's days of check-ins, kept so they need not walk them.
//
// Customer retention asks of every customer whether they came back on one of the 90 days after
// their first visit. customer_first_visit_days holds, per customer with check-ins, the earliest
// local_date of their check-ins and the earliest later one (NULL until they come back on another
// day), so the answer for every customer is one row read by key instead of a walk through their
// check-ins. A new check-in only moves the two days earlier, so it is compared with the row that
// is there (the door writes nothing when it is a later visit). A check-in deleted or moved off one
// of the two days has them worked out again from the customer's remaining check-ins.
//
// Counting each customer once a day (check_in_count unique) needs to tell customers apart only
// where one came more than once that day, which is rare. same_day_check_ins lists those check-ins:
// every check-in of a customer on a local_date where they have more than one. A new check-in looks
// for the customer's others of its day among their check-ins of the days around it at each gym: a
// local_date is the date of created_at in some zone, so it lies between the day before and the
// day after in UTC.
//
// Triggers keep both with every write of check_ins, whoever writes them.

/** The customer's row after the check-in `row` (NEW in a trigger) was added. */
const visit = (row: string) => `INSERT INTO customer_first_visit_days (customer_id, first_date, return_date)
      VALUES (${row}.customer_id, ${row}.local_date, NULL)
      ON CONFLICT DO UPDATE SET
        first_date = min(first_date, excluded.first_date),
        return_date = CASE WHEN excluded.first_date < first_date THEN first_date ELSE excluded.first_date END
      WHERE excluded.first_date <> first_date AND (return_date IS NULL OR excluded.first_date < return_date);`

/** The customer's row after the check-in `row` (OLD in a trigger) left, from the check-ins that remain. */
const forget = (row: string) => `DELETE FROM customer_first_visit_days
      WHERE customer_id = ${row}.customer_id AND ${row}.local_date IN (first_date, return_date);
    INSERT INTO customer_first_visit_days (customer_id, first_date, return_date)
      SELECT ${row}.customer_id, first_date,
        (SELECT min(local_date) FROM check_ins WHERE customer_id = ${row}.customer_id AND local_date > first_date)
      FROM (SELECT min(local_date) AS first_date FROM check_ins WHERE customer_id = ${row}.customer_id)
      WHERE first_date IS NOT NULL
      ON CONFLICT DO NOTHING;`

/** The check-ins of the customer of `row` (NEW in a trigger) on its local_date, `row` among them. */
const ofTheDayOf = (row: string) => `customer_id = ${row}.customer_id AND gym_id IN (SELECT id FROM gyms)
        AND created_at >= date(${row}.local_date, '-1 day') AND created_at < date(${row}.local_date, '+2 days')
        AND local_date = ${row}.local_date`

/** Whether the customer of `row` (NEW) has another check-in on its day. */
const notAlone = (row: string) =>
  `EXISTS (SELECT 1 FROM check_ins WHERE ${ofTheDayOf(row)} AND id <> ${row}.id)`

/** Lists the day's check-ins of the customer of `row` (NEW) when it is not their only one. */
const joinSameDay = (
  row: string,
) => `INSERT OR IGNORE INTO same_day_check_ins (local_date, customer_id, check_in_id)
      SELECT local_date, customer_id, id FROM check_ins WHERE ${ofTheDayOf(row)} AND ${notAlone(row)};`

/** Takes `row` (OLD) off the list, and the one check-in of its day left, if only one is. */
const leaveSameDay = (row: string) => `DELETE FROM same_day_check_ins
      WHERE local_date = ${row}.local_date AND customer_id = ${row}.customer_id AND check_in_id = ${row}.id;
    DELETE FROM same_day_check_ins
      WHERE local_date = ${row}.local_date AND customer_id = ${row}.customer_id
        AND (SELECT count(*) FROM same_day_check_ins
          WHERE local_date = ${row}.local_date AND customer_id = ${row}.customer_id) = 1;`

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE customer_first_visit_days (
      customer_id INTEGER PRIMARY KEY,
      first_date TEXT NOT NULL,
      return_date TEXT
    )`,
    // Each customer's first two distinct days, ranked in one pass over check_ins_local_day, which
    // holds both columns: the unary + keeps SQLite from reading every check-in from the table in
    // customer order through check_ins_customer_gym instead.
    `INSERT INTO customer_first_visit_days (customer_id, first_date, return_date)
      SELECT customer_id, min(local_date), min(CASE WHEN day_number = 2 THEN local_date END)
      FROM (SELECT customer_id, local_date,
          dense_rank() OVER (PARTITION BY +customer_id ORDER BY local_date) AS day_number
        FROM check_ins)
      WHERE day_number <= 2
      GROUP BY customer_id`,
    `CREATE TRIGGER customer_first_visit_days_insert AFTER INSERT ON check_ins BEGIN
      ${visit('new')}
    END`,
    `CREATE TRIGGER customer_first_visit_days_delete AFTER DELETE ON check_ins BEGIN
      ${forget('old')}
    END`,
    `CREATE TRIGGER customer_first_visit_days_update AFTER UPDATE OF customer_id, local_date ON check_ins BEGIN
      ${forget('old')}
      ${visit('new')}
    END`,
    `CREATE TABLE same_day_check_ins (
      local_date TEXT NOT NULL,
      customer_id INTEGER NOT NULL,
      check_in_id INTEGER NOT NULL,
      PRIMARY KEY (local_date, customer_id, check_in_id)
    ) WITHOUT ROWID`,
    // Counted in one pass over check_ins_local_day, which is in day order already.
    `INSERT INTO same_day_check_ins (local_date, customer_id, check_in_id)
      SELECT local_date, customer_id, id
      FROM (SELECT local_date, customer_id, id,
          count(*) OVER (PARTITION BY local_date, customer_id) AS check_ins
        FROM check_ins)
      WHERE check_ins > 1`,
    // The WHEN leaves the door's usual check-in, its customer's only one that day, at one look.
    `CREATE TRIGGER same_day_check_ins_insert AFTER INSERT ON check_ins WHEN ${notAlone('new')} BEGIN
      ${joinSameDay('new')}
    END`,
    `CREATE TRIGGER same_day_check_ins_delete AFTER DELETE ON check_ins BEGIN
      ${leaveSameDay('old')}
    END`,
    `CREATE TRIGGER same_day_check_ins_update AFTER UPDATE OF customer_id, local_date ON check_ins BEGIN
      ${leaveSameDay('old')}
      ${joinSameDay('new')}
    END`,
  ])
}
