import type { Db } from '../../src/db/connection.ts'
import type { MembershipStatus } from '../../src/db/schema.ts'
import { START } from './app.ts'
import { makeCustomerMembership } from './product-factories.ts'

/** One day of a membership's history: the status it entered that (organization-local) day. */
export type HistoryStep = readonly [day: string, status: MembershipStatus]

/**
 * A membership that started on the first step's day in its status and then went through the others
 * in order, each change leaving the status the one before entered; it is in the last status now.
 * Every change is recorded at START (today), so each one is dated earlier than it was recorded.
 */
export async function makeMembershipHistory(
  db: Db,
  fields: Parameters<typeof makeCustomerMembership>[1],
  history: readonly [HistoryStep, ...HistoryStep[]],
) {
  const [[startDate, firstStatus], ...later] = history
  const membership = await makeCustomerMembership(db, {
    start_date: startDate,
    ...fields,
    status: firstStatus,
  })
  let from = firstStatus
  for (const [day, to] of later) {
    await addStatusChange(db, membership.id, { from, to, on: day })
    from = to
  }
  await db.updateTable('customer_memberships').set({ status: from }).where('id', '=', membership.id).execute()
  return membership
}

/** A change of the membership's status (or, with `memberId`, of that member's alone). */
export const addStatusChange = (
  db: Db,
  membershipId: number,
  change: { from: MembershipStatus; to: MembershipStatus; on: string; memberId?: number },
) =>
  db
    .insertInto('membership_status_changes')
    .values({
      customer_membership_id: membershipId,
      member_customer_id: change.memberId ?? null,
      from_status: change.from,
      to_status: change.to,
      changed_on: change.on,
      created_at: START,
    })
    .execute()
