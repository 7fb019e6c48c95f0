import type { Insertable, Selectable } from 'kysely'
import type { Db } from '../../src/db/connection.ts'
import type { InvoiceLineItemTable, InvoiceTable, PaymentTable } from '../../src/db/schema.ts'
import { START } from './app.ts'

/**
 * Sales written straight into the tables, as the sales engine leaves them, for the read side's
 * tests (which must not depend on the engine's arithmetic): an invoice with its lines and
 * discounts given as stored, and its payments.
 */

/** A line as stored: net and tax in cents; the rest defaults to one generic item without tax. */
export type LineFields = Partial<Omit<Insertable<InvoiceLineItemTable>, 'id' | 'invoice_id' | 'position'>> & {
  net_cents: number
  tax_cents?: number
}

/** A discount applied to the invoice: a new discounts row with these names, and what it took off. */
export interface DiscountFields {
  code: string
  name?: string
  display_name?: string
  association_id?: number | null
  amount_cents: number
}

let discountCounter = 0

export async function makeInvoice(
  db: Db,
  fields: Partial<Omit<Insertable<InvoiceTable>, 'id'>> & {
    gym_id: number
    lines?: LineFields[]
    discounts?: DiscountFields[]
    at?: string
  },
): Promise<Selectable<InvoiceTable> & { line_ids: number[] }> {
  const { lines = [{ net_cents: 1000 }], discounts = [], at = START, ...rest } = fields
  const invoice = await db
    .insertInto('invoices')
    .values({
      customer_id: null,
      staff_user_id: null,
      description: 'Day pass',
      created_at: at,
      updated_at: at,
      ...rest,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  const lineIds: number[] = []
  for (const [position, line] of lines.entries()) {
    const { id } = await db
      .insertInto('invoice_line_items')
      .values({
        invoice_id: invoice.id,
        position,
        purchase_type: 'GEN',
        description: 'Chalk',
        quantity: 1,
        unit_price_cents: line.net_cents,
        discount_cents: 0,
        tax_rate_id: null,
        tax_rate_basis_points: 0,
        tax_cents: 0,
        revenue_account_code: '4000',
        ...line,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    lineIds.push(id)
  }
  for (const [position, discount] of discounts.entries()) {
    discountCounter += 1
    const { id } = await db
      .insertInto('discounts')
      .values({
        code: `${discount.code}-${discountCounter}`,
        name: discount.name ?? '',
        display_name: discount.display_name ?? '',
        association_id: discount.association_id ?? null,
        percent_off_hundredths: null,
        amount_off_cents: discount.amount_cents,
        is_active: 1,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db
      .insertInto('invoice_discounts')
      .values({
        invoice_id: invoice.id,
        position,
        discount_id: id,
        code: discount.code,
        name: discount.name ?? '',
        display_name: discount.display_name ?? '',
        association_id: discount.association_id ?? null,
        amount_cents: discount.amount_cents,
      })
      .execute()
  }
  return { ...invoice, line_ids: lineIds }
}

/** A completed offline payment of `amount_cents` (or given fields) at `at`. */
export async function makePayment(
  db: Db,
  fields: Partial<Omit<Insertable<PaymentTable>, 'id'>> & { invoice_id: number; at?: string },
): Promise<Selectable<PaymentTable>> {
  const { at = START, ...rest } = fields
  return db
    .insertInto('payments')
    .values({
      status: 'COM',
      payment_type: 'OFF',
      payment_method_type: 'NA',
      amount_cents: 1000,
      amount_refunded_cents: 0,
      processor_fee_cents: 0,
      failure_message: '',
      credit_id: null,
      voucher_id: null,
      credit_card_last4: '',
      credit_card_brand: '',
      bank_account_last4: '',
      bank_account_bank_name: '',
      processor_a_payment_intent_id: '',
      processor_b_external_transaction_id: '',
      processor_b_unique_transaction_id: '',
      processor_c_payment_link_name: '',
      processor_c_payment_link_id: '',
      processor_c_payment_id: '',
      gift_card_number: '',
      created_at: at,
      updated_at: at,
      ...rest,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** A payment as an invoice shows it, with every field at what a plain offline payment of 0.00 has. */
export const emptyPayment = {
  status: 'COM',
  payment_type: 'OFF',
  payment_method_type: 'NA',
  amount: '0.00',
  amount_refunded: '0.00',
  processor_fee: '0.00',
  failure_message: '',
  credit_id: null,
  voucher_id: null,
  credit_card_last4: '',
  credit_card_brand: '',
  bank_account_last4: '',
  bank_account_bank_name: '',
  processor_a_payment_intent_id: '',
  processor_b_external_transaction_id: '',
  processor_b_unique_transaction_id: '',
  processor_c_payment_link_name: '',
  processor_c_payment_link_id: '',
  processor_c_payment_id: '',
  gift_card_number: '',
  created_at: START,
  updated_at: START,
}
