import type { Insertable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { CustomerMembershipTable } from '../../db/schema.ts'
import { insertCustomerMembership, insertMembers, insertStatusChange } from './queries.ts'

export interface NewMembership {
  row: Insertable<CustomerMembershipTable>
  memberIds: readonly number[]
  addOnIds: readonly string[]
  /** The organization's today */
  today: string
  changedById: number
}

/**
 * Starts a membership inside the caller's transaction: the record, its members with their add-ons,
 * and its first status change. The change is dated the start date when that is already past (an
 * import of a running membership has been in its status since it started), else today.
 */
export async function startMembership(trx: Db, membership: NewMembership): Promise<number> {
  const { row } = membership
  const id = await insertCustomerMembership(trx, row)
  await insertMembers(trx, id, membership.memberIds, membership.addOnIds)
  await insertStatusChange(trx, {
    customer_membership_id: id,
    member_customer_id: null,
    from_status: null,
    to_status: row.status,
    changed_on: row.start_date < membership.today ? row.start_date : membership.today,
    changed_by_id: membership.changedById,
    created_at: row.created_at,
  })
  return id
}
