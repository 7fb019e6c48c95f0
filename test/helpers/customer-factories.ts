import type { Insertable, Selectable } from 'kysely'
import type { Db } from '../../src/db/connection.ts'
import type {
  Customer,
  CustomerAlertTable,
  CustomerDocumentTable,
  CustomerTable,
} from '../../src/db/schema.ts'
import { START } from './app.ts'

/**
 * Customers, their alerts and documents, built straight into the database. `makeCustomer` is the one
 * customer factory every test uses; memberships come from product-factories.ts, the other customer
 * records from customer-record-factories.ts.
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

/** The stored row of a customer, for checking that a refused write changed nothing. */
export const storedCustomer = (db: Db, id: number) =>
  db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
