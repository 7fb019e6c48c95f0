import type { Insertable, Updateable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type {
  BillingInterval,
  CustomerEntryPassTable,
  CustomerEventVoucherTable,
  GiftTable,
  InvoiceDiscountTable,
  InvoiceLineItemTable,
  InvoiceTable,
  PaymentStatus,
  PaymentTable,
  RefundTable,
  ReservationTable,
} from '../../db/schema.ts'

/** The statements posting an invoice runs, all inside its one transaction. */

export async function insertInvoice(trx: Db, row: Insertable<InvoiceTable>): Promise<number> {
  return (await trx.insertInto('invoices').values(row).returning('id').executeTakeFirstOrThrow()).id
}

/** The sale a staff user recorded with an Idempotency-Key, with the digest of its request. */
export const findInvoiceByIdempotencyKey = (db: Db, staffUserId: number, key: string) =>
  db
    .selectFrom('invoices')
    .select(['id', 'request_digest'])
    .where('staff_user_id', '=', staffUserId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst()

export async function insertInvoiceDiscounts(
  trx: Db,
  rows: Insertable<InvoiceDiscountTable>[],
): Promise<void> {
  if (rows.length > 0) await trx.insertInto('invoice_discounts').values(rows).execute()
}

export async function insertLineItem(trx: Db, row: Insertable<InvoiceLineItemTable>): Promise<number> {
  return (await trx.insertInto('invoice_line_items').values(row).returning('id').executeTakeFirstOrThrow()).id
}

export async function insertEntryPasses(trx: Db, rows: Insertable<CustomerEntryPassTable>[]): Promise<void> {
  if (rows.length > 0) await trx.insertInto('customer_entry_passes').values(rows).execute()
}

export async function insertPayments(trx: Db, rows: Insertable<PaymentTable>[]): Promise<void> {
  if (rows.length > 0) await trx.insertInto('payments').values(rows).execute()
}

/** Takes `cents` off a credit when that much remains; false when it does not (nothing changed). */
export async function drawOnCredit(trx: Db, creditId: number, cents: number, at: string): Promise<boolean> {
  const result = await trx
    .updateTable('customer_credits')
    .set((eb) => ({ amount_remaining_cents: eb('amount_remaining_cents', '-', cents), updated_at: at }))
    .where('id', '=', creditId)
    .where('amount_remaining_cents', '>=', cents)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Uses one use of a voucher when one remains; false when none does (nothing changed). */
export async function useVoucher(trx: Db, voucherId: number, at: string): Promise<boolean> {
  const result = await trx
    .updateTable('customer_event_vouchers')
    .set((eb) => ({ number_of_uses_remaining: eb('number_of_uses_remaining', '-', 1), updated_at: at }))
    .where('id', '=', voucherId)
    .where('number_of_uses_remaining', '>=', 1)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export async function insertReservation(trx: Db, row: Insertable<ReservationTable>): Promise<number> {
  return (await trx.insertInto('reservations').values(row).returning('id').executeTakeFirstOrThrow()).id
}

export async function insertEventVoucher(
  trx: Db,
  row: Insertable<CustomerEventVoucherTable>,
): Promise<number> {
  return (
    await trx.insertInto('customer_event_vouchers').values(row).returning('id').executeTakeFirstOrThrow()
  ).id
}

export const getPayment = (db: Db, id: number) =>
  db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst()

/** Moves a payment on from `from` only, so two desks settling it at once cannot both succeed. */
export async function updatePaymentFrom(
  trx: Db,
  id: number,
  from: PaymentStatus,
  changes: Updateable<PaymentTable>,
): Promise<boolean> {
  const result = await trx
    .updateTable('payments')
    .set(changes)
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/**
 * Adds a refund to a payment when that much of it is still unrefunded; false (nothing changed)
 * when another refund got there first.
 */
export async function addRefundedAmount(trx: Db, id: number, cents: number, at: string): Promise<boolean> {
  const result = await trx
    .updateTable('payments')
    .set((eb) => ({
      amount_refunded_cents: eb('amount_refunded_cents', '+', cents),
      status: eb
        .case()
        .when(eb('amount_refunded_cents', '+', cents), '>=', eb.ref('amount_cents'))
        .then('REF' as const)
        .else('PRF' as const)
        .end(),
      updated_at: at,
    }))
    .where('id', '=', id)
    .where('status', 'in', ['COM', 'PRF'])
    .where((eb) => eb(eb('amount_refunded_cents', '+', cents), '<=', eb.ref('amount_cents')))
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export async function insertRefund(trx: Db, row: Insertable<RefundTable>): Promise<number> {
  return (await trx.insertInto('refunds').values(row).returning('id').executeTakeFirstOrThrow()).id
}

/** Puts a refunded amount back on the credit it was paid from. */
export async function returnToCredit(trx: Db, creditId: number, cents: number, at: string): Promise<void> {
  await trx
    .updateTable('customer_credits')
    .set((eb) => ({ amount_remaining_cents: eb('amount_remaining_cents', '+', cents), updated_at: at }))
    .where('id', '=', creditId)
    .execute()
}

/** Whether any payment of the invoice is still at the terminal. */
export async function hasProcessingPayment(trx: Db, invoiceId: number): Promise<boolean> {
  const row = await trx
    .selectFrom('payments')
    .select('id')
    .where('invoice_id', '=', invoiceId)
    .where('status', '=', 'PRO')
    .executeTakeFirst()
  return row !== undefined
}

/** The memberships the invoice's MIN lines started that are still awaiting their payment (IPP). */
export const listAwaitingMemberships = (trx: Db, invoiceId: number) =>
  trx
    .selectFrom('invoice_line_items as l')
    .innerJoin('customer_memberships as m', 'm.id', 'l.customer_membership_id')
    .select('m.id')
    .where('l.invoice_id', '=', invoiceId)
    .where('l.purchase_type', '=', 'MIN')
    .where('m.status', '=', 'IPP')
    .execute()

/**
 * The memberships the invoice's MRE lines renew that are still awaiting their renewal payment
 * (PPR), as a renewal reads them.
 */
export const listAwaitingRenewals = (trx: Db, invoiceId: number) =>
  trx
    .selectFrom('invoice_line_items as l')
    .innerJoin('customer_memberships as m', 'm.id', 'l.customer_membership_id')
    .innerJoin('membership_types as t', 't.id', 'm.membership_type_id')
    .select(['m.id', 'm.status', 'm.start_date', 'm.end_date', 't.interval'])
    .where('l.invoice_id', '=', invoiceId)
    .where('l.purchase_type', '=', 'MRE')
    .where('m.status', '=', 'PPR')
    .where('t.interval', '!=', '')
    .$narrowType<{ interval: Exclude<BillingInterval, ''> }>()
    .execute()

export async function activateMembership(trx: Db, id: number, at: string): Promise<void> {
  await trx
    .updateTable('customer_memberships')
    .set({ status: 'ACT', updated_at: at })
    .where('id', '=', id)
    .execute()
}

export async function insertGift(trx: Db, row: Insertable<GiftTable>): Promise<void> {
  await trx.insertInto('gifts').values(row).execute()
}

/**
 * The gift with this code, with the location of the sale that sold it; codes are kept in capitals,
 * so any case finds it.
 */
export const findGiftByCode = (db: Db, code: string) =>
  db
    .selectFrom('gifts as g')
    .innerJoin('invoice_line_items as l', 'l.id', 'g.invoice_line_item_id')
    .innerJoin('invoices as i', 'i.id', 'l.invoice_id')
    .selectAll('g')
    .select('i.gym_id as sold_at_gym_id')
    .where('g.code', '=', code.toUpperCase())
    .executeTakeFirst()

/** Marks a gift redeemed unless it already is; false (nothing changed) when it was. */
export async function markGiftRedeemed(
  trx: Db,
  id: number,
  customerId: number,
  at: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('gifts')
    .set({ redeemed_by_id: customerId, redeemed_at: at })
    .where('id', '=', id)
    .where('redeemed_at', 'is', null)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export async function setGiftGranted(trx: Db, id: number, granted: Updateable<GiftTable>): Promise<void> {
  await trx.updateTable('gifts').set(granted).where('id', '=', id).execute()
}

export async function insertEntryPass(trx: Db, row: Insertable<CustomerEntryPassTable>): Promise<number> {
  return (await trx.insertInto('customer_entry_passes').values(row).returning('id').executeTakeFirstOrThrow())
    .id
}
