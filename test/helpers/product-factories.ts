import type { Insertable, Selectable } from 'kysely'
import type { Db } from '../../src/db/connection.ts'
import type { Database, MembershipStatus } from '../../src/db/schema.ts'
import { START } from './app.ts'

/**
 * Records for the products-and-holdings tests (tax rates, membership types, add-ons, customer
 * memberships, entry passes, events, reservations) and the members report, built straight into the database.
 * Customers come from customer-factories.ts, event types from factories.ts. Customer memberships
 * follow the shared convention: every covered person has a membership_members row (a solo
 * membership exactly its owner) and the first status is in membership_status_changes.
 */

type Row<T extends keyof Database> = Selectable<Database[T]>
type Fields<T extends keyof Database> = Partial<Omit<Insertable<Database[T]>, 'id'>>

const stamps = { created_at: START, updated_at: START }

async function insert<T extends keyof Database>(
  db: Db,
  table: T,
  values: Record<string, unknown>,
): Promise<Row<T>> {
  return (await db
    .insertInto(table)
    .values(values as never)
    .returningAll()
    .executeTakeFirstOrThrow()) as Row<T>
}

export const makeMembershipType = (db: Db, fields: Fields<'membership_types'> = {}) =>
  insert(db, 'membership_types', {
    name: 'Monthly Adult',
    status: 'ACT',
    purchase_type: 'REC',
    interval: 'MON',
    price_cents: 6500,
    ...stamps,
    ...fields,
  })

export const makeAddOn = (db: Db, fields: Fields<'add_ons'> & { id: string; name: string }) =>
  insert(db, 'add_ons', { ...stamps, ...fields })

export const makeEntryPassType = (db: Db, fields: Fields<'entry_pass_types'> = {}) =>
  insert(db, 'entry_pass_types', {
    name: '10-Punch Card',
    status: 'ACT',
    number_of_entries: 10,
    valid_days: 365,
    price_cents: 15000,
    ...stamps,
    ...fields,
  })

export const makeCustomerEntryPass = (
  db: Db,
  fields: Fields<'customer_entry_passes'> & { entry_pass_type_id: number; owner_id: number },
) =>
  insert(db, 'customer_entry_passes', {
    entries_total: 10,
    entries_remaining: 10,
    expiry_date: null,
    ...stamps,
    ...fields,
  })

/** A person a membership covers: frozen on their own or not, with the ids of their add-ons. */
export interface MemberSpec {
  customer_id: number
  is_frozen?: boolean
  add_ons?: string[]
}

/**
 * A customer membership (ACT since 2026-01-01 unless told) with its members (default: the owner
 * alone) and their add-ons, and its first status change (dated `changed_on`, default the start
 * date).
 */
export async function makeCustomerMembership(
  db: Db,
  fields: Fields<'customer_memberships'> & {
    membership_type_id: number
    owner_id: number
    members?: MemberSpec[]
    changed_on?: string
  },
) {
  const { members, changed_on, ...values } = fields
  const membership = await insert(db, 'customer_memberships', {
    status: 'ACT',
    start_date: '2026-01-01',
    ...stamps,
    ...values,
  })
  for (const member of members ?? [{ customer_id: membership.owner_id }]) {
    const row = await insert(db, 'membership_members', {
      customer_membership_id: membership.id,
      customer_id: member.customer_id,
      is_frozen: member.is_frozen ? 1 : 0,
    })
    for (const addOnId of member.add_ons ?? []) {
      await insert(db, 'membership_member_add_ons', { membership_member_id: row.id, add_on_id: addOnId })
    }
  }
  await insert(db, 'membership_status_changes', {
    customer_membership_id: membership.id,
    from_status: null,
    to_status: membership.status as MembershipStatus,
    changed_on: changed_on ?? membership.start_date,
    created_at: START,
  })
  return membership
}

export const makeEvent = (db: Db, fields: Fields<'events'> & { event_type_id: number; gym_id: number }) =>
  insert(db, 'events', {
    name: 'Intro to Bouldering',
    start_at: '2026-11-22T15:00:00.000Z',
    end_at: '2026-11-22T16:30:00.000Z',
    ...stamps,
    ...fields,
  })

export const makeReservation = (
  db: Db,
  fields: Fields<'reservations'> & { event_id: number; customer_id: number },
) => insert(db, 'reservations', { ...stamps, ...fields })

/** A tax rate of 8.25% unless told. */
export const makeTaxRate = (db: Db, fields: Fields<'tax_rates'> = {}) =>
  insert(db, 'tax_rates', { name: 'Colorado sales tax', rate_basis_points: 825, ...stamps, ...fields })

/** SPRING10: 10% off, unless told. */
export const makeDiscount = (db: Db, fields: Fields<'discounts'> = {}) =>
  insert(db, 'discounts', { code: 'SPRING10', percent_off_hundredths: 1000, ...stamps, ...fields })

/** A 5-pack of the event type's events, usable for 90 days, for 60.00, unless told. */
export const makeVoucherPack = (db: Db, fields: Fields<'voucher_packs'> & { event_type_id: number }) =>
  insert(db, 'voucher_packs', {
    name: 'Yoga 5-pack',
    status: 'ACT',
    number_of_uses: 5,
    valid_days: 90,
    price_cents: 6000,
    ...stamps,
    ...fields,
  })

/** A question of the event type: optional free text, active, sorted at 0, unless told. */
export const makeEventQuestion = (db: Db, fields: Fields<'event_questions'> & { event_type_id: number }) =>
  insert(db, 'event_questions', { text: 'Have you climbed before?', ...stamps, ...fields })
