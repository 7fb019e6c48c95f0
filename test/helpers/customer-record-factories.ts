import type { Insertable, Kysely, Selectable } from 'kysely'
import type { CustomerRecordTable } from '../../src/api/customer-records/queries.ts'
import type { Db } from '../../src/db/connection.ts'
import type { Database } from '../../src/db/schema.ts'
import { START } from './app.ts'

/**
 * Customer sub-records (credits, emergency contacts, medical notes, relations, event vouchers)
 * built straight into the database, for the customer record tests. Customers: customer-factories.ts.
 */

type Fields<T extends CustomerRecordTable> = Partial<Insertable<Database[T]>>

/** A factory for `table`: `defaults`, then the record's customer and START stamps, then `fields`. */
function recordFactory<T extends CustomerRecordTable>(table: T, defaults: Fields<T>) {
  return async (db: Db, customerId: number, fields: Fields<T> = {}) =>
    (await (db as unknown as Kysely<any>)
      .insertInto(table)
      .values({ ...defaults, customer_id: customerId, created_at: START, updated_at: START, ...fields })
      .returningAll()
      .executeTakeFirstOrThrow()) as Selectable<Database[T]>
}

/** A credit of 25.00 with no expiry, added by nobody (created_by null). */
export const makeCredit = recordFactory('customer_credits', {
  amount_total_cents: 2500,
  amount_remaining_cents: 2500,
  expiry_date: null,
  is_removed: 0,
  created_by_id: null,
})

export const makeEmergencyContact = recordFactory('customer_emergency_contacts', {
  first_name: 'Dana',
  last_name: 'Rivera',
  telephone: '+1 303 555 0100',
  email: '',
  relation: '',
})

export const makeMedicalNote = recordFactory('customer_medical_notes', {
  medical_notes: 'Asthma; inhaler in locker 12.',
})

/**
 * One direction only (pass related_customer_id): the API always writes both, so a test can build a
 * lopsided pair on purpose.
 */
export const makeRelation = recordFactory('customer_relations', { relation: 'SIB' })

/** Five uses, no expiry (pass event_type_id). */
export const makeEventVoucher = recordFactory('customer_event_vouchers', {
  number_of_uses_total: 5,
  number_of_uses_remaining: 5,
  expiry_date: null,
  is_removed: 0,
  created_by_id: null,
})
