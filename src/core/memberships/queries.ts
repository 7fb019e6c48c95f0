import type { Insertable, Selectable, Updateable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { CustomerMembershipTable, MembershipStatusChangeTable } from '../../db/schema.ts'

/** The statements that start or renew a membership, used by /api/customer-memberships/ and by a sale. */

export async function insertCustomerMembership(
  db: Db,
  row: Insertable<CustomerMembershipTable>,
): Promise<number> {
  return (await db.insertInto('customer_memberships').values(row).returning('id').executeTakeFirstOrThrow())
    .id
}

/** Which of `ids` are customers. */
export async function listExistingCustomerIds(db: Db, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const rows = await db.selectFrom('customers').select('id').where('id', 'in', ids).execute()
  return new Set(rows.map((r) => r.id))
}

/** Covers each customer by the membership, each with the same add-ons. */
export async function insertMembers(
  db: Db,
  membershipId: number,
  customerIds: readonly number[],
  addOnIds: readonly string[],
): Promise<void> {
  for (const customerId of customerIds) {
    const { id } = await db
      .insertInto('membership_members')
      .values({ customer_membership_id: membershipId, customer_id: customerId, is_frozen: 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
    if (addOnIds.length > 0) {
      await db
        .insertInto('membership_member_add_ons')
        .values(addOnIds.map((addOnId) => ({ membership_member_id: id, add_on_id: addOnId })))
        .execute()
    }
  }
}

export async function insertStatusChange(
  db: Db,
  change: Insertable<MembershipStatusChangeTable>,
): Promise<void> {
  await db.insertInto('membership_status_changes').values(change).execute()
}

/**
 * Changes a membership still in the status and with the next bill date (`end_date`) a caller read;
 * false (nothing changed) when either has changed since, so two sales renewing one membership at
 * once cannot both move its bill date.
 */
export async function updateMembershipFrom(
  db: Db,
  id: number,
  from: Pick<Selectable<CustomerMembershipTable>, 'status' | 'end_date'>,
  changes: Updateable<CustomerMembershipTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('customer_memberships')
    .set(changes)
    .where('id', '=', id)
    .where('status', '=', from.status)
    .where((eb) => (from.end_date === null ? eb('end_date', 'is', null) : eb('end_date', '=', from.end_date)))
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}
