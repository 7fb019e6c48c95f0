import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// The conversion metrics follow customers from their first check-in, and from the first time they
// used a product: the first check-in with a membership, an entry pass or an event's reservation.
//
// check_ins_first_visit holds only first check-ins (a running count of 1) with what they are
// counted by, so a range of them is read from it alone, without walking everyone's visits.
//
// Each customer holds few products, so the three *_use indexes give the first use of each holding
// in one step (its earliest check-in), however many check-ins the years hold; a check-in enters at
// most one of them, that of its own entry method.
//
// Whether a customer was a member on a day reads each of their memberships' last status change on
// or before it, which membership_status_changes_by_day finds in one step.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE INDEX check_ins_first_visit ON check_ins (created_at, customer_id, gym_id, entry_method,
      customer_membership_id, customer_entry_pass_id, reservation_id) WHERE check_in_count = 1`,
    `CREATE INDEX check_ins_membership_use ON check_ins (customer_membership_id, customer_id, created_at)
      WHERE entry_method = 'MEM'`,
    `CREATE INDEX check_ins_entry_pass_use ON check_ins (customer_entry_pass_id, customer_id, created_at)
      WHERE entry_method = 'ENT'`,
    `CREATE INDEX check_ins_reservation_use ON check_ins (reservation_id, customer_id, created_at)
      WHERE entry_method = 'EVE'`,
    `CREATE INDEX membership_status_changes_by_day
      ON membership_status_changes (customer_membership_id, changed_on, id, to_status)
      WHERE member_customer_id IS NULL`,
  ])
}
