import type { Insertable, Selectable } from 'kysely'
import type { Db } from '../../src/db/connection.ts'
import type {
  Customer,
  CustomerAlertTable,
  CustomerDocumentTable,
  CustomerTable,
  MembershipStatus,
} from '../../src/db/schema.ts'
import { START } from './app.ts'

/**
 * Customers, their alerts and documents, and just enough of a membership to cover a customer, built
 * straight into the database for the customers, alerts and documents tests.
 */

export async function makeCustomer(
  db: Db,
  fields: Partial<Insertable<CustomerTable>> = {},
): Promise<Customer> {
  return db
    .insertInto('customers')
    .values({
      first_name: 'Lynn',
      last_name: 'Hill',
      preferred_name: '',
      email: null,
      telephone: '',
      birthday: '1961-01-03',
      barcode: null,
      is_active: 1,
      home_location_id: null,
      address_street_1: '',
      address_street_2: '',
      address_city: '',
      address_state: '',
      address_postcode: '',
      address_country: '',
      profile_image_url: '',
      first_check_in_timestamp: null,
      created_at: START,
      updated_at: START,
      ...fields,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function makeAlert(
  db: Db,
  customerId: number,
  fields: Partial<Insertable<CustomerAlertTable>> = {},
): Promise<Selectable<CustomerAlertTable>> {
  return db
    .insertInto('customer_alerts')
    .values({
      customer_id: customerId,
      alert_text: 'Check ID',
      color_hex: 'FF0000',
      prevents_check_in: 0,
      is_active: 1,
      created_date: '2026-11-22',
      created_at: START,
      updated_at: START,
      ...fields,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** A document (a waiver unless `kind` says otherwise), optionally with a stored file. */
export async function makeDocument(
  db: Db,
  customerId: number,
  fields: Partial<Insertable<CustomerDocumentTable>> = {},
  file?: Uint8Array,
): Promise<Selectable<CustomerDocumentTable>> {
  const document = await db
    .insertInto('customer_documents')
    .values({
      customer_id: customerId,
      name: 'Liability waiver',
      kind: 'waiver',
      expiration_date: null,
      created_at: START,
      updated_at: START,
      ...fields,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  if (file) {
    await db
      .insertInto('customer_document_files')
      .values({ document_id: document.id, content_type: 'application/pdf', content: file })
      .execute()
  }
  return document
}

/**
 * A membership of a plain monthly type in `status`, held by `ownerId` and covering `members`
 * (customer ids, each optionally frozen on their own).
 */
export async function makeMembership(
  db: Db,
  ownerId: number,
  status: MembershipStatus,
  members: Array<{ customerId: number; frozen?: boolean }>,
): Promise<number> {
  const type = await db
    .insertInto('membership_types')
    .values({
      name: 'Monthly',
      description: '',
      status: 'ACT',
      purchase_type: 'REC',
      interval: 'MON',
      price_cents: 7500,
      is_group: members.length > 1 ? 1 : 0,
      is_youth_programming: 0,
      duration_years: null,
      duration_months: null,
      duration_days: null,
      location_id: null,
      access_hours: null,
      guest_passes_per_month: 0,
      created_at: START,
      updated_at: START,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const membership = await db
    .insertInto('customer_memberships')
    .values({
      membership_type_id: type.id,
      owner_id: ownerId,
      status,
      start_date: '2026-01-01',
      end_date: null,
      billing_location_id: null,
      has_payment_method: 1,
      is_pending_staff_approval: 0,
      billing_amount_cents: 7500,
      discount_association_id: null,
      referring_customer_id: null,
      created_at: START,
      updated_at: START,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const member of members) {
    await db
      .insertInto('membership_members')
      .values({
        customer_membership_id: membership.id,
        customer_id: member.customerId,
        is_frozen: member.frozen ? 1 : 0,
      })
      .execute()
  }
  return membership.id
}

/** The stored row of a customer, for checking that a refused write changed nothing. */
export const storedCustomer = (db: Db, id: number) =>
  db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
