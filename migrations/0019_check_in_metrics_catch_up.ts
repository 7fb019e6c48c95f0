import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'
import { countIn, countOut } from './0012_check_in_metrics.ts'

// The door's check-ins no longer keep the check-in metrics' tables as they are written. The one
// insert trigger that kept all four (per-day counts, first uses, first visit days, same-day
// check-ins) was the largest part of a check-in's work in the door's transaction after the row
// itself: some tens of microseconds and several more pages in every commit, at the rate the door
// must sustain, for tables only the metrics read.
//
// Instead the metrics count the check-ins added since they last looked before they read those
// tables, some thousands at a time, each table by one statement over the batch
// (src/core/metrics/tables/check-in-catch-up.ts). check_in_metrics_state.counted_through is the id of the
// last check-in counted: check-ins are only ever appended, so every later id is one not counted yet.
// Rowids are not reused except the largest, after the check-in holding it is deleted: a delete
// that leaves counted_through above every id left lowers it to the largest one, so the next
// check-in's id is always above it.
//
// Deleting or changing a check-in still keeps the tables by its triggers:
// - the per-day counts add and take away, so they count a check-in in or out only once it has been
//   counted: until then the catch-up counts it as it is when it comes to it;
// - the first visit days and same-day check-ins are worked out again from the check-ins there are,
//   counted or not, which the catch-up's own statements then find already done;
// - the first uses were never taken back on a delete or a change, and are not now.
//
// customers.latest_check_in_date (migration 0018) only told the insert trigger where to look for a
// customer's other check-ins of the day. Nothing reads it now; it goes with its trigger.

/** Whether the check-in OLD has been counted by the catch-up. */
const counted = `old.id <= (SELECT counted_through FROM check_in_metrics_state)`

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE check_in_metrics_state (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      counted_through INTEGER NOT NULL
    )`,
    // Every check-in so far was counted by the trigger this replaces.
    `INSERT INTO check_in_metrics_state (id, counted_through)
      VALUES (1, (SELECT coalesce(max(id), 0) FROM check_ins))`,
    `DROP TRIGGER check_in_metrics_insert`,
    `DROP TRIGGER customer_latest_check_in_date_update`,
    `ALTER TABLE customers DROP COLUMN latest_check_in_date`,
    `DROP TRIGGER check_in_day_counts_delete`,
    `DROP TRIGGER check_in_day_counts_update`,
    // One trigger, so that the count comes out before counted_through is lowered past the check-in.
    `CREATE TRIGGER check_in_metrics_delete AFTER DELETE ON check_ins BEGIN
      ${countOut('old', counted)}
      UPDATE check_in_metrics_state SET counted_through = (SELECT coalesce(max(id), 0) FROM check_ins)
        WHERE counted_through > (SELECT coalesce(max(id), 0) FROM check_ins);
    END`,
    `CREATE TRIGGER check_in_day_counts_update AFTER UPDATE OF local_date, gym_id, entry_method,
      customer_membership_id, customer_entry_pass_id, reservation_id, check_in_count ON check_ins
      WHEN ${counted} BEGIN
      ${countOut('old')}
      ${countIn('new')}
    END`,
  ])
}
