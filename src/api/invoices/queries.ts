import type { Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type {
  InvoiceDiscountTable,
  InvoiceLineItemTable,
  InvoiceTable,
  PaymentTable,
  RefundTable,
} from '../../db/schema.ts'

export type InvoiceLineRow = Selectable<InvoiceLineItemTable> & {
  customer_entry_pass_ids: number[]
  gift_code: string | null
}

/** An invoice with everything its record shows: location, discounts, lines, payments, refunds. */
export type InvoiceRow = Selectable<InvoiceTable> & {
  location_name: string
  discounts: Selectable<InvoiceDiscountTable>[]
  line_items: InvoiceLineRow[]
  payments: Selectable<PaymentTable>[]
  refunds: Selectable<RefundTable>[]
}

/** The filters as the database answers them: the day filters already turned into instants. */
export interface InvoiceQuery {
  customer_id?: number
  gym_id?: number
  /** created_at >= this UTC instant (ISO) */
  created_from?: string
  /** created_at < this UTC instant (ISO) */
  created_before?: string
}

function filtered(db: Db, q: InvoiceQuery) {
  let query = db.selectFrom('invoices as i')
  if (q.customer_id !== undefined) query = query.where('i.customer_id', '=', q.customer_id)
  if (q.gym_id !== undefined) query = query.where('i.gym_id', '=', q.gym_id)
  if (q.created_from !== undefined) query = query.where('i.created_at', '>=', q.created_from)
  if (q.created_before !== undefined) query = query.where('i.created_at', '<', q.created_before)
  return query
}

/** Each invoice's discounts, lines (with the passes they issued), payments and refunds, in order. */
async function withParts(
  db: Db,
  invoices: (Selectable<InvoiceTable> & { location_name: string })[],
): Promise<InvoiceRow[]> {
  if (invoices.length === 0) return []
  const ids = invoices.map((invoice) => invoice.id)
  const [discounts, lines, passes, payments, refunds] = await Promise.all([
    db
      .selectFrom('invoice_discounts')
      .selectAll()
      .where('invoice_id', 'in', ids)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('invoice_line_items as l')
      .leftJoin('gifts as g', 'g.invoice_line_item_id', 'l.id')
      .selectAll('l')
      .select('g.code as gift_code')
      .where('l.invoice_id', 'in', ids)
      .orderBy('l.position')
      .execute(),
    db
      .selectFrom('customer_entry_passes')
      .select(['id', 'invoice_id', 'entry_pass_type_id'])
      .where('invoice_id', 'in', ids)
      .orderBy('id')
      .execute(),
    db.selectFrom('payments').selectAll().where('invoice_id', 'in', ids).orderBy('id').execute(),
    db
      .selectFrom('refunds')
      .innerJoin('payments', 'payments.id', 'refunds.payment_id')
      .selectAll('refunds')
      .where('payments.invoice_id', 'in', ids)
      .orderBy('refunds.id')
      .execute(),
  ])
  const paymentInvoice = new Map(payments.map((payment) => [payment.id, payment.invoice_id]))
  return invoices.map((invoice) => {
    const invoiceLines = lines.filter((line) => line.invoice_id === invoice.id)
    // An invoice's passes are issued in line order, so each EPA line owns the next `quantity` of them.
    const invoicePasses = passes.filter((pass) => pass.invoice_id === invoice.id).map((pass) => pass.id)
    return {
      ...invoice,
      discounts: discounts.filter((discount) => discount.invoice_id === invoice.id),
      line_items: invoiceLines.map((line) => ({
        ...line,
        customer_entry_pass_ids: line.purchase_type === 'EPA' ? invoicePasses.splice(0, line.quantity) : [],
      })),
      payments: payments.filter((payment) => payment.invoice_id === invoice.id),
      refunds: refunds.filter((refund) => paymentInvoice.get(refund.payment_id) === invoice.id),
    }
  })
}

const withLocation = (query: ReturnType<typeof filtered>) =>
  query.innerJoin('gyms as g', 'g.id', 'i.gym_id').selectAll('i').select('g.name as location_name')

/** Newest first, then the higher id. */
export const listInvoices = (db: Db, q: InvoiceQuery): ListSource<InvoiceRow> =>
  listFrom(filtered(db, q), {
    order: (query) => query.orderBy('i.created_at', 'desc').orderBy('i.id', 'desc'),
    rows: async (page) => withParts(db, await withLocation(page).execute()),
  })

export async function getInvoice(db: Db, id: number): Promise<InvoiceRow | undefined> {
  const invoice = await withLocation(filtered(db, {})).where('i.id', '=', id).executeTakeFirst()
  return invoice ? (await withParts(db, [invoice]))[0] : undefined
}
