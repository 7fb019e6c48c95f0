import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// The conversion metrics follow customers from their first check-in, and from the first time they
// used a product: their first check-in with a membership, an entry pass or an event's reservation.
//
// check_ins_first_visit holds only first check-ins (a running count of 1) with what they are
// counted by, so a range of them is read from it alone, without walking everyone's visits.
//
// product_first_uses is each customer's first use of each product (membership type, entry pass
// type, event type): when, and for a membership which one. A trigger keeps it with every check-in,
// whoever writes it; a later use of a product only reads the row that is there, so the door writes
// nothing more for it, and a check-in written with an earlier time than the first use on record
// takes its place. The metrics read a range of first uses from product_first_uses_by_day.
//
// Whether a customer was a member on a day reads each of their memberships' last status change on
// or before it, which membership_status_changes_by_day finds in one step.

/** The product type and product of a check-in row (`row` is NEW in a trigger, or a table alias). */
const productTypeOf = (row: string) =>
  `CASE ${row}.entry_method WHEN 'MEM' THEN 'membership' WHEN 'ENT' THEN 'entry_pass' ELSE 'event' END`
const productOf = (row: string) => `CASE ${row}.entry_method
    WHEN 'MEM' THEN
      (SELECT membership_type_id FROM customer_memberships WHERE id = ${row}.customer_membership_id)
    WHEN 'ENT' THEN
      (SELECT entry_pass_type_id FROM customer_entry_passes WHERE id = ${row}.customer_entry_pass_id)
    ELSE
      (SELECT events.event_type_id FROM reservations JOIN events ON events.id = reservations.event_id
        WHERE reservations.id = ${row}.reservation_id)
  END`
const membershipOf = (row: string) =>
  `CASE ${row}.entry_method WHEN 'MEM' THEN ${row}.customer_membership_id END`

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE INDEX check_ins_first_visit ON check_ins (created_at, customer_id, gym_id, entry_method,
      customer_membership_id, customer_entry_pass_id, reservation_id) WHERE check_in_count = 1`,
    `CREATE TABLE product_first_uses (
      customer_id INTEGER NOT NULL,
      product_type TEXT NOT NULL CHECK (product_type IN ('membership', 'entry_pass', 'event')),
      product_id INTEGER NOT NULL,
      used_at TEXT NOT NULL,
      -- the membership the first use was made with (membership products only)
      customer_membership_id INTEGER,
      PRIMARY KEY (customer_id, product_type, product_id)
    ) WITHOUT ROWID`,
    // SQLite takes a bare column of a min() aggregate from the row holding the minimum.
    `INSERT INTO product_first_uses (customer_id, product_type, product_id, used_at, customer_membership_id)
      SELECT customer_id, product_type, product_id, min(created_at), customer_membership_id
      FROM (SELECT ci.customer_id, ${productTypeOf('ci')} AS product_type, ${productOf('ci')} AS product_id,
          ci.created_at, ${membershipOf('ci')} AS customer_membership_id
        FROM check_ins AS ci WHERE ci.entry_method IN ('MEM', 'ENT', 'EVE'))
      WHERE product_id IS NOT NULL
      GROUP BY customer_id, product_type, product_id`,
    `CREATE INDEX product_first_uses_by_day
      ON product_first_uses (product_type, used_at, product_id, customer_id, customer_membership_id)`,
    `CREATE TRIGGER product_first_uses_check_in AFTER INSERT ON check_ins
      WHEN new.entry_method IN ('MEM', 'ENT', 'EVE') BEGIN
      INSERT INTO product_first_uses (customer_id, product_type, product_id, used_at, customer_membership_id)
        SELECT new.customer_id, ${productTypeOf('new')}, product_id, new.created_at, ${membershipOf('new')}
        FROM (SELECT ${productOf('new')} AS product_id)
        WHERE product_id IS NOT NULL
        ON CONFLICT DO UPDATE SET used_at = excluded.used_at,
          customer_membership_id = excluded.customer_membership_id
        WHERE excluded.used_at < used_at;
    END`,
    `CREATE INDEX membership_status_changes_by_day
      ON membership_status_changes (customer_membership_id, changed_on, id, to_status)
      WHERE member_customer_id IS NULL`,
  ])
}
