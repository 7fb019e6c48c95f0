import { sql, type Selectable, type SelectQueryBuilder } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { Database, PaymentStatus, PaymentTable } from '../../db/schema.ts'
import { searchTerms, searchWords, trigramSearch } from '../../db/text-search.ts'

/**
 * A payment with its invoice as the record shows it: the customer, location and staff user, the
 * invoice's totals, its discounts joined in their order and its lines, all aggregated by SQLite
 * (the serializer only prorates them by the payment's share of the invoice).
 */
export type PaymentRow = Selectable<PaymentTable> & {
  invoice_description: string
  customer_id: number | null
  customer_first_name: string | null
  customer_last_name: string | null
  customer_email: string | null
  customer_birthday: string | null
  location_id: number
  location_name: string
  staff_user_id: number | null
  staff_user_first_name: string | null
  staff_user_last_name: string | null
  staff_user_email: string | null
  organization_time_zone: string
  /** The invoice's lines, tax included */
  invoice_total_cents: number
  invoice_tax_cents: number
  /** null when the invoice has no discount */
  discount_cents: number | null
  discount_codes: string
  discount_names: string
  discount_display_names: string
  /** JSON: [{ id, purchase_type, description, cents }] in the invoice's order, cents tax included */
  line_items: string
  /** JSON: { revenue account code: its lines' cents, tax included }, of the lines that have a code */
  revenue_cents: string
}

/** The filters in the form the database answers them: day filters already turned into instants. */
export interface PaymentQuery {
  statuses: readonly PaymentStatus[]
  /** created_at >= this UTC instant (ISO) */
  created_from?: string
  /** created_at < this UTC instant (ISO) */
  created_before?: string
  search?: string
  payment_types?: string[]
  amount_min_cents?: number
  amount_max_cents?: number
  discount_association_id?: number
  gym_id?: number
  /** true: only sales without a customer; false: only those with one */
  anonymous?: boolean
  processor_a_payment_intent_id?: string
  processor_b_external_transaction_id?: string
}

/**
 * The invoices whose searchable text (invoice_search, kept by triggers on invoices and customers)
 * holds every term of `match`, from the index alone.
 */
const indexedInvoices = (match: string) =>
  sql<number>`(SELECT rowid FROM invoice_search WHERE invoice_search MATCH ${match})`

/**
 * The invoices the invoice-side filters select, or undefined when none is given but a search whose
 * every term invoice_search holds (the payments are then read for its invoices directly). Terms
 * too short for the index are matched here against the columns it indexes, among the invoices it
 * finds for the others when there are any.
 */
function matchingInvoices(db: Db, q: PaymentQuery, search: ReturnType<typeof trigramSearch>) {
  const { discount_association_id: association, gym_id, anonymous } = q
  const terms = search.unindexed
  if (terms.length === 0 && association === undefined && gym_id === undefined && anonymous === undefined)
    return undefined
  // The customer is joined on its primary key, so SQLite leaves the join out unless search uses it.
  let query = db
    .selectFrom('invoices as i')
    .leftJoin('customers as c', 'c.id', 'i.customer_id')
    .select('i.id')
  if (search.match !== undefined) query = query.where('i.id', 'in', indexedInvoices(search.match))
  if (terms.length > 0) {
    const columns = ['i.description', 'c.email', 'c.first_name', 'c.last_name', 'c.preferred_name']
    query = query.where((eb) => searchTerms(eb, [sql`cast(${sql.ref('i.id')} as text)`, ...columns], terms))
  }
  if (association !== undefined) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('invoice_discounts as d')
          .select(sql.lit(1).as('one'))
          .whereRef('d.invoice_id', '=', 'i.id')
          .where('d.association_id', '=', association),
      ),
    )
  }
  if (gym_id !== undefined) query = query.where('i.gym_id', '=', gym_id)
  if (anonymous !== undefined) query = query.where('i.customer_id', anonymous ? 'is' : 'is not', null)
  return query
}

/**
 * The payments the filters select. The count reads payments alone, from an index where it can: the
 * invoice-side filters are subqueries of invoice ids, so an unfiltered count, a status or a date
 * window never visits the invoices, and a search of terms of three or more characters reads only
 * invoice_search and payments_invoice.
 */
function filtered(db: Db, q: PaymentQuery, inOrder = false) {
  const search = trigramSearch(q.search === undefined ? [] : searchWords(q.search))
  // A search reaches payments by invoice in payments_invoice, whose entries hold the status: the
  // unary + has SQLite read it there, rather than seek each invoice once per listed status. Read
  // `inOrder` (an export's chunks), the payments are walked newest first in payments_created and
  // their status read there too: the status index would sort every older payment for each chunk.
  const status = search.match === undefined && !inOrder ? sql.ref('p.status') : sql`+${sql.ref('p.status')}`
  let query = db
    .selectFrom('payments as p')
    .where(status, 'in', q.statuses.length > 0 ? [...q.statuses] : [null as never])
  // created_at is always written by Date#toISOString, so text order is time order.
  if (q.created_from !== undefined) query = query.where('p.created_at', '>=', q.created_from)
  if (q.created_before !== undefined) query = query.where('p.created_at', '<', q.created_before)
  const invoices = matchingInvoices(db, q, search)
  if (invoices !== undefined) query = query.where('p.invoice_id', 'in', invoices)
  else if (search.match !== undefined)
    query = query.where('p.invoice_id', 'in', indexedInvoices(search.match))
  if (q.payment_types !== undefined) query = query.where('p.payment_type', 'in', q.payment_types)
  if (q.amount_min_cents !== undefined) query = query.where('p.amount_cents', '>=', q.amount_min_cents)
  if (q.amount_max_cents !== undefined) query = query.where('p.amount_cents', '<=', q.amount_max_cents)
  if (q.processor_a_payment_intent_id !== undefined)
    query = query.where('p.processor_a_payment_intent_id', '=', q.processor_a_payment_intent_id)
  if (q.processor_b_external_transaction_id !== undefined)
    query = query.where('p.processor_b_external_transaction_id', '=', q.processor_b_external_transaction_id)
  return query
}

const ofInvoice = (table: string) => sql`${sql.ref(`${table}.invoice_id`)} = ${sql.ref('i.id')}`

/** A selection of payment ids, from payments named `p`. */
type PaymentIds = SelectQueryBuilder<Database & { p: PaymentTable }, 'p', { id: number }>

/**
 * The payments whose ids `ids` selects, with the joins and columns of PaymentRow. Each computed
 * column is a correlated subquery on the invoice's lines or discounts, run for these rows only: a
 * sort over the filtered payments carries their ids, not their figures.
 */
function withRecord(db: Db, ids: PaymentIds) {
  return db
    .selectFrom(ids.as('page'))
    .innerJoin('payments as p', 'p.id', 'page.id')
    .innerJoin('invoices as i', 'i.id', 'p.invoice_id')
    .leftJoin('customers as c', 'c.id', 'i.customer_id')
    .innerJoin('gyms as g', 'g.id', 'i.gym_id')
    .leftJoin('staff_users as u', 'u.id', 'i.staff_user_id')
    .selectAll('p')
    .select([
      'i.description as invoice_description',
      'i.customer_id',
      'c.first_name as customer_first_name',
      'c.last_name as customer_last_name',
      'c.email as customer_email',
      'c.birthday as customer_birthday',
      'i.gym_id as location_id',
      'g.name as location_name',
      'i.staff_user_id',
      'u.first_name as staff_user_first_name',
      'u.last_name as staff_user_last_name',
      'u.email as staff_user_email',
      sql<string>`(SELECT time_zone FROM organization)`.as('organization_time_zone'),
      sql<number>`(SELECT coalesce(sum(l.net_cents + l.tax_cents), 0)
        FROM invoice_line_items l WHERE ${ofInvoice('l')})`.as('invoice_total_cents'),
      sql<number>`(SELECT coalesce(sum(l.tax_cents), 0)
        FROM invoice_line_items l WHERE ${ofInvoice('l')})`.as('invoice_tax_cents'),
      sql<number | null>`(SELECT sum(d.amount_cents)
        FROM invoice_discounts d WHERE ${ofInvoice('d')})`.as('discount_cents'),
      sql<string>`(SELECT coalesce(group_concat(d.code, ',' ORDER BY d.position), '')
        FROM invoice_discounts d WHERE ${ofInvoice('d')})`.as('discount_codes'),
      sql<string>`(SELECT coalesce(group_concat(d.name, ',' ORDER BY d.position), '')
        FROM invoice_discounts d WHERE ${ofInvoice('d')})`.as('discount_names'),
      sql<string>`(SELECT coalesce(group_concat(coalesce(nullif(d.display_name, ''), d.code), ','
        ORDER BY d.position), '') FROM invoice_discounts d WHERE ${ofInvoice('d')})`.as(
        'discount_display_names',
      ),
      sql<string>`(SELECT json_group_array(json_object('id', l.id, 'purchase_type', l.purchase_type,
        'description', l.description, 'cents', l.net_cents + l.tax_cents) ORDER BY l.position)
        FROM invoice_line_items l WHERE ${ofInvoice('l')})`.as('line_items'),
      sql<string>`(SELECT json_group_object(code, cents) FROM (SELECT l.revenue_account_code AS code,
        sum(l.net_cents + l.tax_cents) AS cents FROM invoice_line_items l WHERE ${ofInvoice('l')}
        AND l.revenue_account_code <> '' GROUP BY l.revenue_account_code))`.as('revenue_cents'),
    ])
}

/**
 * Newest payment first: created_at, then id. The page's ids are chosen first (from payments_status
 * or payments_created for a status or a window, payments_invoice for a search), so the invoice's
 * figures are worked out for its rows only; the rows they select come back in the same order.
 */
export const listPayments = (db: Db, q: PaymentQuery): ListSource<PaymentRow> =>
  listFrom(filtered(db, q), {
    keyset: {
      columns: ['p.created_at', 'p.id'],
      descending: true,
      of: (row) => [row.created_at, row.id],
      filtered: filtered(db, q, true),
    },
    rows: (page) =>
      withRecord(db, page.select('p.id')).orderBy('p.created_at', 'desc').orderBy('p.id', 'desc').execute(),
  })

/** One payment, if it has a listed status (a pending or cancelled one is not found, as in the list). */
export function getPayment(
  db: Db,
  id: number,
  statuses: readonly PaymentStatus[],
): Promise<PaymentRow | undefined> {
  return withRecord(db, filtered(db, { statuses }).select('p.id').where('p.id', '=', id)).executeTakeFirst()
}
