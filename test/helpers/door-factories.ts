import type { Insertable } from 'kysely'
import type { Db } from '../../src/db/connection.ts'
import type { CustomerTable } from '../../src/db/schema.ts'
import { makeCustomer, makeDocument } from './customer-factories.ts'
import { makeEventType } from './factories.ts'
import {
  makeCustomerEntryPass,
  makeCustomerMembership,
  makeEntryPassType,
  makeEvent,
  makeMembershipType,
  makeReservation,
} from './product-factories.ts'

/**
 * What the door endpoint tests stand at the door: customers with a barcode (and, unless told, an
 * unexpired waiver, since the seed organization requires one), and the things that let them in.
 * Built on customer-factories.ts and product-factories.ts; the rows go straight into the database.
 */

/**
 * A customer with `barcode` and a waiver without expiry (`waiver: false` for none). Lynn Hill with
 * an email unless `fields` say otherwise.
 */
export async function makeDoorCustomer(
  db: Db,
  barcode: string,
  fields: Partial<Insertable<CustomerTable>> & { waiver?: boolean } = {},
) {
  const { waiver = true, ...rest } = fields
  const customer = await makeCustomer(db, { email: 'lynn@example.com', barcode, ...rest })
  if (waiver) await makeDocument(db, customer.id)
  return customer
}

/** An ACT "Monthly Adult" membership (any hours) covering the customer alone, unless told. */
export async function makeMembershipFor(
  db: Db,
  customerId: number,
  options: {
    type?: Parameters<typeof makeMembershipType>[1]
    membership?: Omit<Parameters<typeof makeCustomerMembership>[1], 'membership_type_id' | 'owner_id'>
  } = {},
) {
  const type = await makeMembershipType(db, options.type)
  return makeCustomerMembership(db, {
    membership_type_id: type.id,
    owner_id: customerId,
    ...options.membership,
  })
}

/** A "10-Punch Card" pass of the customer's with 10 entries left and no expiry, unless told. */
export async function makePassFor(
  db: Db,
  customerId: number,
  fields: Omit<Parameters<typeof makeCustomerEntryPass>[1], 'entry_pass_type_id' | 'owner_id'> & {
    type_name?: string
  } = {},
) {
  const { type_name, ...rest } = fields
  const type = await makeEntryPassType(db, type_name === undefined ? {} : { name: type_name })
  return makeCustomerEntryPass(db, { entry_pass_type_id: type.id, owner_id: customerId, ...rest })
}

/**
 * A reservation of the customer's for "Intro to Bouldering" at `gymId`, 15:00-16:30Z on the test
 * day (the fixed clock's START, 15:04:05Z, is inside it), including entry unless told.
 */
export async function makeReservationNow(
  db: Db,
  customerId: number,
  gymId: number,
  options: {
    event?: Omit<Parameters<typeof makeEvent>[1], 'event_type_id' | 'gym_id'>
    reservation?: Omit<Parameters<typeof makeReservation>[1], 'event_id' | 'customer_id'>
  } = {},
) {
  const type = await makeEventType(db, { gym_id: gymId })
  const event = await makeEvent(db, { event_type_id: type.id, gym_id: gymId, ...options.event })
  const reservation = await makeReservation(db, {
    event_id: event.id,
    customer_id: customerId,
    ...options.reservation,
  })
  return { event, reservation }
}

/** Sets the organization's door settings (waiver_required 0/1, milestones as a list of counts). */
export async function setOrganization(db: Db, fields: { waiver_required?: 0 | 1; milestones?: number[] }) {
  await db
    .updateTable('organization')
    .set({
      ...(fields.waiver_required === undefined ? {} : { waiver_required: fields.waiver_required }),
      ...(fields.milestones === undefined ? {} : { milestones: JSON.stringify(fields.milestones) }),
    })
    .execute()
}

/** The stored check-ins, oldest first. */
export const storedCheckIns = (db: Db) => db.selectFrom('check_ins').selectAll().orderBy('id').execute()

/** The outbox rows, oldest first, each with its body parsed. */
export async function storedWebhookEvents(db: Db) {
  const rows = await db.selectFrom('webhook_events').selectAll().orderBy('id').execute()
  return rows.map((row) => ({ ...row, body: JSON.parse(row.body) as Record<string, unknown> }))
}

/** A customer's running check-in total and first check-in time, as the door keeps them. */
export const storedCheckInTotals = (db: Db, customerId: number) =>
  db
    .selectFrom('customers')
    .select(['check_in_count', 'first_check_in_timestamp'])
    .where('id', '=', customerId)
    .executeTakeFirstOrThrow()

// The door endpoints' paths and bodies.

export const barcodePath = (barcode: string) => `/api/gym-endpoints/barcode-check-in/${barcode}/`
export const openDoorPath = (barcode: string) => `/api/gym-endpoints/open-door-check-in/${barcode}/`
export const lookUpPath = (barcode: string) => `/api/look-up-member-by-barcode/${barcode}/`

interface Person {
  id: number
  first_name: string
  last_name: string
  email: string | null
}

/** The customer fields a 400 of barcode check-in carries. */
export const customerFieldsOf = (customer: Person) => ({
  customer_id: customer.id,
  customer_first_name: customer.first_name,
  customer_last_name: customer.last_name,
  customer_email: customer.email,
})

/** The whole 200 body of barcode check-in, a membership entry with nothing else to say unless `fields` say it. */
export const admittedBody = (id: number, customer: Person, fields: Record<string, unknown> = {}) => ({
  id,
  ...customerFieldsOf(customer),
  entry_method: 'MEM',
  entry_method_description: 'Monthly Adult',
  milestones: '',
  check_in_count: 1,
  has_any_automatic_check_ins: false,
  has_any_challenges_completed: false,
  customer_alerts: [],
  reservations: [],
  association_memberships_pending_reverification: [],
  ...fields,
})

/** The whole 400 body of a refused barcode check-in. */
export const refusedBody = (error: string, customer: Person, alerts?: string[]) => ({
  error,
  ...(alerts === undefined ? {} : { alerts }),
  ...customerFieldsOf(customer),
})
