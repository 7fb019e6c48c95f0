import type { Updateable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { definedChanges } from '../../db/changes.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { CustomerMembershipTable, Flag, MembershipStatus } from '../../db/schema.ts'
import { contains } from '../../db/text-search.ts'

export interface CustomerMembershipFilters {
  owner_id?: number
  status?: string
  /** the membership type */
  membership_id?: number
  billing_location_id?: number
}

function filtered(db: Db, filters: CustomerMembershipFilters) {
  let query = db
    .selectFrom('customer_memberships as cm')
    .innerJoin('membership_types as mt', 'mt.id', 'cm.membership_type_id')
    .innerJoin('customers as owner', 'owner.id', 'cm.owner_id')
    .leftJoin('gyms as billing', 'billing.id', 'cm.billing_location_id')
  if (filters.owner_id !== undefined) query = query.where('cm.owner_id', '=', filters.owner_id)
  if (filters.status !== undefined) query = query.where(contains('cm.status', filters.status))
  if (filters.membership_id !== undefined)
    query = query.where('cm.membership_type_id', '=', filters.membership_id)
  if (filters.billing_location_id !== undefined)
    query = query.where('cm.billing_location_id', '=', filters.billing_location_id)
  return query
}

/** The columns of a membership with its type's, owner's and billing location's names. */
const withNames = (query: ReturnType<typeof filtered>) =>
  query
    .selectAll('cm')
    .select([
      'mt.name as membership_name',
      'mt.is_group as membership_is_group',
      'owner.first_name as owner_first_name',
      'owner.last_name as owner_last_name',
      'billing.name as billing_location_name',
    ])

type BaseRow = Awaited<ReturnType<ReturnType<typeof withNames>['executeTakeFirstOrThrow']>>

export interface MemberRow {
  /** membership_members.id */
  id: number
  customer_membership_id: number
  customer_id: number
  first_name: string
  last_name: string
  is_frozen: Flag
  add_ons: Array<{ id: string; name: string }>
}

export interface StatusChangeRow {
  customer_membership_id: number
  from_status: MembershipStatus | null
  to_status: MembershipStatus
  changed_on: string
  member_customer_id: number | null
}

export type CustomerMembershipRow = BaseRow & { members: MemberRow[]; status_history: StatusChangeRow[] }

/** Members (with their add-ons) and status history of each membership, in two queries per kind. */
async function withDetails(db: Db, rows: BaseRow[]): Promise<CustomerMembershipRow[]> {
  if (rows.length === 0) return []
  const ids = rows.map((r) => r.id)
  const members = await db
    .selectFrom('membership_members as mm')
    .innerJoin('customers as c', 'c.id', 'mm.customer_id')
    .select([
      'mm.id',
      'mm.customer_membership_id',
      'mm.customer_id',
      'mm.is_frozen',
      'c.first_name',
      'c.last_name',
    ])
    .where('mm.customer_membership_id', 'in', ids)
    .orderBy('mm.id')
    .execute()
  const addOns = members.length
    ? await db
        .selectFrom('membership_member_add_ons as mma')
        .innerJoin('add_ons as a', 'a.id', 'mma.add_on_id')
        .select(['mma.membership_member_id', 'a.id', 'a.name'])
        .where(
          'mma.membership_member_id',
          'in',
          members.map((m) => m.id),
        )
        .orderBy('a.name')
        .orderBy('a.id')
        .execute()
    : []
  const history = await db
    .selectFrom('membership_status_changes')
    .select(['customer_membership_id', 'from_status', 'to_status', 'changed_on', 'member_customer_id'])
    .where('customer_membership_id', 'in', ids)
    .orderBy('id')
    .execute()
  return rows.map((row) => ({
    ...row,
    members: members
      .filter((m) => m.customer_membership_id === row.id)
      .map((m) => ({
        ...m,
        add_ons: addOns
          .filter((a) => a.membership_member_id === m.id)
          .map((a) => ({ id: a.id, name: a.name })),
      })),
    status_history: history.filter((h) => h.customer_membership_id === row.id),
  }))
}

/** Newest start first, then newest record first. */
export const listCustomerMemberships = (
  db: Db,
  filters: CustomerMembershipFilters,
): ListSource<CustomerMembershipRow> =>
  listFrom(filtered(db, filters), {
    order: (query) => query.orderBy('cm.start_date', 'desc').orderBy('cm.id', 'desc'),
    rows: async (page) => withDetails(db, await withNames(page).execute()),
  })

export async function getCustomerMembership(db: Db, id: number): Promise<CustomerMembershipRow | undefined> {
  const row = await withNames(filtered(db, {})).where('cm.id', '=', id).executeTakeFirst()
  return row && (await withDetails(db, [row]))[0]
}

export async function updateCustomerMembership(
  db: Db,
  id: number,
  changes: Updateable<CustomerMembershipTable>,
): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('customer_memberships').set(set).where('id', '=', id).execute()
}

/**
 * Freezes or unfreezes one member who is not so already; false (nothing changed) when another
 * request did it first.
 */
export async function updateMemberFrozen(
  db: Db,
  membershipId: number,
  customerId: number,
  isFrozen: Flag,
): Promise<boolean> {
  const result = await db
    .updateTable('membership_members')
    .set({ is_frozen: isFrozen })
    .where('customer_membership_id', '=', membershipId)
    .where('customer_id', '=', customerId)
    .where('is_frozen', '!=', isFrozen)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

// Starting and renewing a membership are shared with the sales engine (MIN and MRE lines), so
// their statements live there.
export {
  updateMembershipFrom,
  insertCustomerMembership,
  insertMembers,
  insertStatusChange,
} from '../../core/memberships/queries.ts'
