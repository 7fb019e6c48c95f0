import type { Db } from '../../src/db/connection.ts'
import type { Database, MembershipStatus } from '../../src/db/schema.ts'
import type { Insertable, Selectable } from 'kysely'
import { START } from './app.ts'

/**
 * Customers, membership types, add-ons and customer memberships built straight into the database,
 * for the members report. They follow the shared convention: every covered person of a membership
 * has a membership_members row (a solo membership: one row, the owner's).
 */

type Row<T extends keyof Database> = Selectable<Database[T]>
type Fields<T extends keyof Database> = Partial<Omit<Insertable<Database[T]>, 'id'>>

export type CustomerRecord = Row<'customers'>
export type MembershipTypeRecord = Row<'membership_types'>
export type AddOnRecord = Row<'add_ons'>

const stamps = { created_at: START, updated_at: START }

export async function makeCustomer(db: Db, fields: Fields<'customers'> = {}): Promise<CustomerRecord> {
  return db
    .insertInto('customers')
    .values({
      first_name: 'Alex',
      last_name: 'Honnold',
      birthday: '1985-08-17',
      ...stamps,
      ...fields,
    } as Insertable<Database['customers']>)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function makeMembershipType(
  db: Db,
  fields: Fields<'membership_types'> = {},
): Promise<MembershipTypeRecord> {
  return db
    .insertInto('membership_types')
    .values({
      name: 'Monthly Adult',
      status: 'ACT',
      purchase_type: 'REC',
      interval: 'MON',
      price_cents: 6500,
      ...stamps,
      ...fields,
    } as Insertable<Database['membership_types']>)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function makeAddOn(
  db: Db,
  fields: Fields<'add_ons'> & { id: string; name: string },
): Promise<AddOnRecord> {
  return db
    .insertInto('add_ons')
    .values({ ...stamps, ...fields } as Insertable<Database['add_ons']>)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export interface MemberSpec {
  customer: CustomerRecord
  is_frozen?: boolean
  /** add-on ids */
  add_ons?: string[]
}

/**
 * A customer membership and its membership_members rows (default: the owner alone), with add-ons.
 * Returns the membership's id.
 */
export async function makeMembership(
  db: Db,
  spec: {
    type: MembershipTypeRecord
    owner: CustomerRecord
    status: MembershipStatus
    start_date: string
    members?: MemberSpec[]
  } & Fields<'customer_memberships'>,
): Promise<number> {
  const { type, owner, members, ...fields } = spec
  const { id } = await db
    .insertInto('customer_memberships')
    .values({
      membership_type_id: type.id,
      owner_id: owner.id,
      ...stamps,
      ...fields,
    } as Insertable<Database['customer_memberships']>)
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const member of members ?? [{ customer: owner }]) {
    const row = await db
      .insertInto('membership_members')
      .values({
        customer_membership_id: id,
        customer_id: member.customer.id,
        is_frozen: member.is_frozen ? 1 : 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    for (const addOnId of member.add_ons ?? [])
      await db
        .insertInto('membership_member_add_ons')
        .values({ membership_member_id: row.id, add_on_id: addOnId })
        .execute()
  }
  return id
}
