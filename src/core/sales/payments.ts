import type { Db } from '../../db/connection.ts'
import { paymentAmountMessages } from '../../domain/invoice-money.ts'
import { paymentDetails } from '../../domain/payment-details.ts'
import { isExpired } from '../../lib/local-time.ts'
import { PaymentSourceSpent } from './conflicts.ts'
import { saleMessages } from './messages.ts'
import { drawOnCredit, useVoucher } from './queries.ts'
import { getCustomerCredit, getCustomerVoucher } from './reads.ts'
import { doesNotExist, required, type Refusals } from './refusals.ts'
import type { PaymentRequest } from './request.ts'
import type { SalePayment } from './sale.ts'

/*
 * A sale's payments: what each pays with (a credit, a voucher, or money from outside), checked
 * together so that two payments of one sale cannot spend the same thing twice, and drawn on again
 * when the sale is posted, in case another sale drew on them in between.
 */

/**
 * What a sale's payments have drawn so far, so two payments cannot spend one thing twice: cents
 * from each credit (by its id), uses of each voucher (by its id negated).
 */
export type Drawn = Map<number, number>

/** What every payment of one sale is checked against. */
export interface PaymentContext {
  db: Db
  customerId: number | null
  zone: string
  now: Date
  drawn: Drawn
}

/** A credit or voucher as a payment reads it: the customer's own, usable until its expiry. */
interface PaymentSource {
  id: number
  is_removed: number
  expiry_date: string | null
}

/**
 * The customer's own record that `field` names, not removed, not expired; undefined (with the
 * payment's refusal) otherwise. An anonymous sale has no credits or vouchers to pay with.
 */
async function usableSource<S extends PaymentSource>(
  refusals: Refusals,
  field: 'credit_id' | 'voucher_id',
  id: number | undefined,
  sale: PaymentContext,
  get: (customerId: number, id: number) => Promise<S | undefined>,
): Promise<S | undefined> {
  if (id === undefined) return void refusals.add(field, required)
  const source = sale.customerId === null ? undefined : await get(sale.customerId, id)
  if (!source) return void refusals.add(field, doesNotExist(id))
  if (source.is_removed === 1) return void refusals.add(field, saleMessages.removed)
  if (isExpired(source.expiry_date, sale.zone, sale.now))
    return void refusals.add(field, saleMessages.expired(source.expiry_date!))
  return source
}

/**
 * A CRE payment's credit: usable, with the amount still on it. A VOU payment's voucher: usable, a
 * use left, amount 0.
 */
async function checkPaymentSource(payment: PaymentRequest, sale: PaymentContext, refusals: Refusals) {
  const amountCents = payment.amount_cents
  if (payment.payment_type === 'CRE') {
    const credit = await usableSource(refusals, 'credit_id', payment.credit_id, sale, (customerId, id) =>
      getCustomerCredit(sale.db, customerId, id),
    )
    if (!credit || amountCents === undefined) return
    const left = credit.amount_remaining_cents - (sale.drawn.get(credit.id) ?? 0)
    if (amountCents > left) return refusals.add('amount', saleMessages.creditTooLow(left))
    sale.drawn.set(credit.id, (sale.drawn.get(credit.id) ?? 0) + amountCents)
  } else if (payment.payment_type === 'VOU') {
    const voucher = await usableSource(refusals, 'voucher_id', payment.voucher_id, sale, (customerId, id) =>
      getCustomerVoucher(sale.db, customerId, id),
    )
    if (!voucher) return
    const used = sale.drawn.get(-voucher.id) ?? 0
    if (voucher.number_of_uses_remaining - used < 1)
      return refusals.add('voucher_id', saleMessages.voucherUsedUp)
    sale.drawn.set(-voucher.id, used + 1)
    if (amountCents !== undefined && amountCents !== 0) refusals.add('amount', saleMessages.voucherAmount)
  }
}

/** A payment as recorded; undefined when it cannot be (its refusals say why). */
export async function checkPayment(
  payment: PaymentRequest,
  sale: PaymentContext,
  refusals: Refusals,
): Promise<SalePayment | undefined> {
  const amountCents = payment.amount_cents
  const processorFeeCents = payment.processor_fee_cents
  // What the processor kept comes out of what was paid.
  if (processorFeeCents !== undefined && amountCents !== undefined && processorFeeCents > amountCents)
    refusals.add('processor_fee', paymentAmountMessages.feeAboveAmount(amountCents))
  await checkPaymentSource(payment, sale, refusals)
  if (payment.payment_type === undefined || amountCents === undefined) return undefined
  return {
    status: payment.status ?? 'COM',
    payment_type: payment.payment_type,
    payment_method_type: payment.payment_method_type ?? 'NA',
    amount_cents: amountCents,
    amount_refunded_cents: 0,
    failure_message: '',
    credit_id: payment.payment_type === 'CRE' ? (payment.credit_id ?? null) : null,
    voucher_id: payment.payment_type === 'VOU' ? (payment.voucher_id ?? null) : null,
    processor_fee_cents: processorFeeCents ?? 0,
    ...paymentDetails(payment),
  }
}

/**
 * Draws each payment's credit or voucher again inside the posting transaction, from what is left
 * now: a sale posted in between may have spent it, and then this sale is refused.
 */
export async function drawPayments(trx: Db, payments: readonly SalePayment[], at: string): Promise<void> {
  for (const [i, payment] of payments.entries()) {
    const drawn =
      payment.credit_id != null
        ? await drawOnCredit(trx, payment.credit_id, payment.amount_cents, at)
        : payment.voucher_id != null
          ? await useVoucher(trx, payment.voucher_id, at)
          : true
    if (!drawn) throw new PaymentSourceSpent(i)
  }
}
