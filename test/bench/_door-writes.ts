import type { Database } from 'bun:sqlite'
import { countCheckIn, insertCheckIn } from '../../src/core/door/writes.ts'

/**
 * The door's write for the in-process benchmarks (door-triggers.ts, capture-triggers.ts): a member's
 * check-in on their membership, as src/core/door/record.ts writes one, without the HTTP around it.
 */

export interface Member {
  customerId: number
  membershipId: number
  /** The member's home location, where they scan unless a benchmark picks another. */
  gymId: number
}

/** The members with an active membership and a home location, in a stable order. */
export function activeMembers(sqlite: Database): Member[] {
  return sqlite
    .query<Member, []>(
      `SELECT owner_id AS customerId, customer_memberships.id AS membershipId, home_location_id AS gymId
       FROM customer_memberships JOIN customers ON customers.id = owner_id
       WHERE status = 'ACT' AND home_location_id IS NOT NULL ORDER BY customer_memberships.id`,
    )
    .all()
}

/** The door's two statements for one admitted scan: the check-in row and the customer's count. */
export function writeMemberCheckIn(sqlite: Database, member: Member, at: Date, gymId = member.gymId): void {
  const iso = at.toISOString()
  insertCheckIn(sqlite, {
    customer_id: member.customerId,
    gym_id: gymId,
    entry_method: 'MEM',
    entry_method_description: 'Membership',
    customer_membership_id: member.membershipId,
    customer_entry_pass_id: null,
    reservation_id: null,
    host_customer_id: null,
    free_entry_reason: '',
    free_entry_granting_user_id: null,
    milestone_list: '[]',
    check_in_count: 2,
    local_date: iso.slice(0, 10),
    local_time: iso.slice(11, 19),
    checked_in_by_id: null,
    created_at: iso,
  })
  countCheckIn(sqlite, member.customerId, iso)
}
