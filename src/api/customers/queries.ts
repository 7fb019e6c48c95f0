import { sql, type Insertable, type SelectQueryBuilder, type Updateable } from 'kysely'
import { ACTIVE_STATUSES } from '../../domain/membership-status.ts'
import { usableWaiverExists } from '../../domain/waiver.ts'
import { definedChanges } from '../../db/changes.ts'
import { compiledStatement } from '../../db/compiled-statement.ts'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { Customer, CustomerTable, Database, Flag } from '../../db/schema.ts'
import { contains, searchWords } from '../../db/text-search.ts'
import { lostCustomerValues } from '../sites/queries.ts'

/** For nested collections (`/api/customers/<id>/...`): 404 unless the customer exists. */
export async function customerExists(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('customers').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
}

export type CustomerRow = Customer & {
  home_location_name: string | null
  has_active_membership: Flag
  active_waiver_exists: Flag
  latest_waiver_expiration_date: string | null
  /** JSON: the barcodes lost to another site's customer (sites/queries.ts `lostCustomerValues`). */
  site_conflicts: string
}

/** What `search` looks in, word by word, besides the telephone. */
const SEARCHED_COLUMNS = [
  'customers.first_name',
  'customers.last_name',
  'customers.preferred_name',
  'customers.email',
  'customers.barcode',
]

/** The telephone's digits alone, so that "303 555" finds "(303) 555-0182" and "+1.303.555.0182". */
export const TELEPHONE_DIGITS = sql<string>`replace(replace(replace(replace(replace(replace(
  customers.telephone, ' ', ''), '-', ''), '(', ''), ')', ''), '+', ''), '.', '')`

/**
 * A search word that reads as part of a telephone number (digits, with the spaces, dashes,
 * brackets, dots and plus that numbers are written with) and holds at least three digits: its digits.
 * Null for any other word, which is then looked for in the names, email and barcode only.
 */
export function telephoneDigitsOf(term: string): string | null {
  if (!/^[\d()+.-]+$/.test(term)) return null
  const digits = term.replace(/\D/g, '')
  return digits.length >= 3 ? digits : null
}

export interface CustomerFilters {
  search?: string
  barcode?: string
  home_location_id?: number
  is_active?: boolean
}

function filtered(db: Db, filters: CustomerFilters) {
  let query = db.selectFrom('customers')
  if (filters.search !== undefined) {
    const terms = searchWords(filters.search)
    query = query.where((eb) =>
      eb.and(
        terms.map((term) => {
          const digits = telephoneDigitsOf(term)
          return eb.or([
            ...SEARCHED_COLUMNS.map((column) => contains(column, term)),
            ...(digits === null ? [] : [contains(TELEPHONE_DIGITS, digits)]),
          ])
        }),
      ),
    )
  }
  if (filters.barcode !== undefined) query = query.where('customers.barcode', '=', filters.barcode)
  if (filters.home_location_id !== undefined)
    query = query.where('customers.home_location_id', '=', filters.home_location_id)
  if (filters.is_active !== undefined)
    query = query.where('customers.is_active', '=', filters.is_active ? 1 : 0)
  return query
}

/** MAX over the waivers' dates, but null when one has none: it never expires, so nothing is later. */
const latestExpiration = sql<string | null>`CASE
  WHEN COUNT(*) = COUNT(customer_documents.expiration_date) THEN MAX(customer_documents.expiration_date)
END`

/**
 * The customers whose ids `ids` selects, with the computed fields. Each computed field is a
 * correlated subquery on an index (membership_members_customer, customer_documents_customer), run
 * only for the rows of `ids`, so a page costs one statement whatever its size.
 * `today` is the organization-local date: a waiver is usable through the end of its expiration day.
 */
function withComputed(db: Db, ids: SelectQueryBuilder<Database, 'customers', { id: number }>, today: string) {
  // CROSS JOIN keeps the page the outer loop: each of its ids looked up, then sorted. Joined
  // otherwise, SQLite walked every customer in the name index, for the order, and probed the page.
  return db
    .selectFrom(ids.as('page'))
    .crossJoin('customers')
    .whereRef('customers.id', '=', 'page.id')
    .leftJoin('gyms', 'gyms.id', 'customers.home_location_id')
    .leftJoin(lostCustomerValues(db).as('lost'), 'lost.customer_id', 'customers.id')
    .selectAll('customers')
    .select('gyms.name as home_location_name')
    .select((eb) => [
      sql<Flag>`${eb.exists(
        eb
          .selectFrom('membership_members')
          .innerJoin(
            'customer_memberships',
            'customer_memberships.id',
            'membership_members.customer_membership_id',
          )
          .select(sql.lit(1).as('one'))
          .whereRef('membership_members.customer_id', '=', 'customers.id')
          .where('membership_members.is_frozen', '=', 0)
          .where('customer_memberships.status', 'in', ACTIVE_STATUSES),
      )}`.as('has_active_membership'),
      usableWaiverExists(eb.ref('customers.id'), today).as('active_waiver_exists'),
      eb
        .selectFrom('customer_documents')
        .select(latestExpiration.as('latest'))
        .whereRef('customer_documents.customer_id', '=', 'customers.id')
        .where('customer_documents.kind', '=', 'waiver')
        .$asScalar()
        .as('latest_waiver_expiration_date'),
      sql<string>`coalesce(lost.conflicts, '[]')`.as('site_conflicts'),
    ])
}

/**
 * In the list order: last name, first name, then id, compared as stored (binary), which the
 * customers_name index serves. The page's ids are chosen first, so the computed fields run for them
 * only; the rows they select come back in the same order.
 */
export const listCustomers = (db: Db, filters: CustomerFilters, today: string): ListSource<CustomerRow> =>
  listFrom(filtered(db, filters), {
    keyset: {
      columns: ['customers.last_name', 'customers.first_name', 'customers.id'],
      of: (row) => [row.last_name, row.first_name, row.id],
    },
    rows: (page) =>
      withComputed(db, page.select('customers.id'), today)
        .orderBy('customers.last_name')
        .orderBy('customers.first_name')
        .orderBy('customers.id')
        .execute(),
  })

export const getCustomer = (db: Db, id: number, today: string): Promise<CustomerRow | undefined> =>
  withComputed(
    db,
    db.selectFrom('customers').select('customers.id').where('customers.id', '=', id),
    today,
  ).executeTakeFirst()

/** The customer's stored columns, without the computed fields: what a change to it starts from. */
export const getStoredCustomer = (db: Db, id: number): Promise<Customer | undefined> =>
  db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst()

/** The customer holding `barcode`, other than `exceptId` (uniqueness on create and update). */
export async function barcodeTaken(db: Db, barcode: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('customers').select('id').where('barcode', '=', barcode)
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId)
  return (await query.executeTakeFirst()) !== undefined
}

export async function insertCustomer(db: Db, customer: Insertable<CustomerTable>): Promise<number> {
  return (await db.insertInto('customers').values(customer).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateCustomer(db: Db, id: number, changes: Updateable<CustomerTable>): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('customers').set(set).where('id', '=', id).execute()
}

/** Every barcode and email customers hold: what a spreadsheet's rows may not repeat. */
export const customerBarcodesAndEmails = (db: Db) =>
  db
    .selectFrom('customers')
    .select(['barcode', 'email'])
    .where((eb) => eb.or([eb('barcode', 'is not', null), eb('email', 'is not', null)]))
    .execute()

/** The same, compiled once, for a synchronous transaction (the import's check under the lock). */
export const customerBarcodesAndEmailsStatement = compiledStatement((db) =>
  db
    .selectFrom('customers')
    .select(['barcode', 'email'])
    .where((eb) => eb.or([eb('barcode', 'is not', null), eb('email', 'is not', null)])),
)

/** Whether the gym is there, compiled once for a synchronous transaction. */
export const gymThereStatement = compiledStatement((db, p: { id: number }) =>
  db.selectFrom('gyms').select('id').where('id', '=', p.id),
)

/** A new customer as an import writes it: every column, the id null unless a site allocates it. */
export type NewCustomerRow = Required<Omit<Insertable<CustomerTable>, 'id' | 'check_in_count'>> & {
  id: number | null
}

/**
 * One new customer, compiled once and run synchronously, a row at a time inside the caller's
 * transaction: 50,000 rows built through Kysely's builder cost as much again as SQLite's own work.
 */
export const insertCustomerStatement = compiledStatement((db, c: NewCustomerRow) =>
  db.insertInto('customers').values({
    // null (typed as the column's number): SQLite picks it, unless the box is a site of a hub and
    // allocates its own (db/site-ids.ts).
    id: c.id as number,
    first_name: c.first_name,
    last_name: c.last_name,
    preferred_name: c.preferred_name,
    email: c.email,
    telephone: c.telephone,
    birthday: c.birthday,
    barcode: c.barcode,
    is_active: c.is_active,
    home_location_id: c.home_location_id,
    address_street_1: c.address_street_1,
    address_street_2: c.address_street_2,
    address_city: c.address_city,
    address_state: c.address_state,
    address_postcode: c.address_postcode,
    address_country: c.address_country,
    profile_image_url: c.profile_image_url,
    first_check_in_timestamp: c.first_check_in_timestamp,
    created_at: c.created_at,
    updated_at: c.updated_at,
  }),
)
