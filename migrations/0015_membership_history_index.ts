import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// The membership-scoped metrics (member churn, status change counts) sum a membership's own status
// changes up to a day: every change before a report's last day, read in the order of their days.
// This index holds exactly those rows (a member's own freeze is not the membership's status) with
// the columns the sums read, so they come from the index alone, already in day order.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE INDEX membership_status_changes_history
      ON membership_status_changes (changed_on, from_status, to_status, customer_membership_id)
      WHERE member_customer_id IS NULL`,
  ])
}
