import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// Customer retention asks of every customer whether they came back on one of the 90 days after
// their first visit. customer_first_visit_days holds, per customer with check-ins, the earliest
// local_date of their check-ins and the earliest later one (NULL until they come back on another
// day), so the answer for every customer is one row read by key instead of a walk through their
// check-ins.
//
// Triggers keep it with every write of check_ins, whoever writes them. A new check-in only moves
// the two days earlier, so it is compared with the row that is there (the door writes nothing when
// it is a later visit). A check-in deleted or moved off one of the two days has them worked out
// again from the customer's remaining check-ins.

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
  ])
}
