import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'
import { productOf } from './0012_check_in_metrics.ts'

// The index check_ins_local_day (migration 0012) was the last thing the door's transaction kept
// for the metrics alone: one more b-tree entry for every check-in, in day and time order, so
// several more pages written in every commit at the door's busiest. Its rows move to a table of
// their own, check_in_local_times, which the check-in metrics' catch-up fills as it fills the
// other four (src/core/metrics/tables/check-in-catch-up.ts): each counted check-in under its gym-local
// day and time, with what a check-in count filters on and counts, and the product it was let in on
// as check_in_day_counts reads it. Keyed by day, time and id, a time-of-day window of every day of
// a year is still one seek per day, reading nothing else.
//
// Deleting a check-in takes its row away; changing one puts its row back as it now is, once it has
// been counted (until then the catch-up writes it as it is when it comes to it).

/** Whether the check-in OLD has been counted by the catch-up. */
const counted = `old.id <= (SELECT counted_through FROM check_in_metrics_state)`

const columns = `local_date, local_time, check_in_id, gym_id, entry_method, product_id, customer_id,
  check_in_count`

/** The check-in `row`'s values for `columns`. */
const valuesOf = (row: string) => `${row}.local_date, ${row}.local_time, ${row}.id, ${row}.gym_id,
  ${row}.entry_method, coalesce(${productOf(row)}, 0), ${row}.customer_id, ${row}.check_in_count`

const deleteRowOf = (row: string) => `DELETE FROM check_in_local_times
  WHERE local_date = ${row}.local_date AND local_time = ${row}.local_time AND check_in_id = ${row}.id;`

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE check_in_local_times (
      local_date TEXT NOT NULL,
      local_time TEXT NOT NULL,
      check_in_id INTEGER NOT NULL,
      gym_id INTEGER NOT NULL,
      entry_method TEXT NOT NULL,
      product_id INTEGER NOT NULL,
      customer_id INTEGER NOT NULL,
      check_in_count INTEGER,
      PRIMARY KEY (local_date, local_time, check_in_id)
    ) WITHOUT ROWID`,
    // Every check-in the catch-up has counted so far; it counts the rest into this table too.
    `INSERT INTO check_in_local_times (${columns})
      SELECT ${valuesOf('ci')} FROM check_ins AS ci
      WHERE ci.id <= (SELECT counted_through FROM check_in_metrics_state)
      ORDER BY 1, 2, 3`,
    `DROP INDEX check_ins_local_day`,
    `CREATE TRIGGER check_in_local_times_delete AFTER DELETE ON check_ins BEGIN
      ${deleteRowOf('old')}
    END`,
    `CREATE TRIGGER check_in_local_times_update AFTER UPDATE OF local_date, local_time, gym_id,
      entry_method, customer_membership_id, customer_entry_pass_id, reservation_id, customer_id,
      check_in_count ON check_ins
      WHEN ${counted} BEGIN
      ${deleteRowOf('old')}
      INSERT INTO check_in_local_times (${columns}) VALUES (${valuesOf('new')});
    END`,
  ])
}
