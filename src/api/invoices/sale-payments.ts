import type { Static } from '@sinclair/typebox'
import { invoiceMessages } from './messages.ts'
import type { PaymentWrite } from './schema.ts'
import { getCredit } from '../customer-credits/queries.ts'
import { getEventVoucher } from '../customer-event-vouchers/queries.ts'
import type { SalePayment } from '../../core/sales/post-invoice.ts'
import type { Deps } from '../../deps.ts'
import { MAX_PAYMENT_CENTS, paymentAmountMessages, type PricedInvoice } from '../../domain/invoice-money.ts'
import { checkDecimal } from '../../http/decimal.ts'
import { ApiError, messages, type FieldErrorCollector } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { isExpired } from '../../lib/local-time.ts'

/*
 * A sale's payments: what each pays with (a credit, a voucher, or money from outside), checked
 * together so that two payments of one sale cannot spend the same thing twice.
 */

type PaymentInput = Static<typeof PaymentWrite>

/**
 * What a sale's payments have drawn so far, so two payments cannot spend one thing twice: cents
 * from each credit (by its id), uses of each voucher (by its id negated).
 */
export type Drawn = Map<number, number>

/** What every payment of one sale is checked against. */
export interface SaleContext {
  customerId: number | null
  zone: string
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
 * payment's error) otherwise. An anonymous sale has no credits or vouchers to pay with.
 */
async function usableSource<S extends PaymentSource>(
  errors: FieldErrorCollector,
  field: 'credit_id' | 'voucher_id',
  id: number | undefined,
  sale: SaleContext,
  now: Date,
  get: (customerId: number, id: number) => Promise<S | undefined>,
): Promise<S | undefined> {
  if (id === undefined) return void errors.add(field, messages.required)
  const source = sale.customerId === null ? undefined : await get(sale.customerId, id)
  if (!source) return void errors.add(field, messages.doesNotExist(id))
  if (source.is_removed === 1) return void errors.add(field, invoiceMessages.removed)
  if (isExpired(source.expiry_date, sale.zone, now))
    return void errors.add(field, invoiceMessages.expired(source.expiry_date!))
  return source
}

/**
 * A CRE payment's credit: usable, with the amount still on it. A VOU payment's voucher: usable, a
 * use left, amount 0.
 */
async function checkPaymentSource(
  deps: Pick<Deps, 'db' | 'clock'>,
  payment: CheckedBody<PaymentInput>,
  amountCents: number | undefined,
  sale: SaleContext,
): Promise<void> {
  const { fields, errors } = payment
  const now = deps.clock.now()
  if (fields.payment_type === 'CRE') {
    const credit = await usableSource(errors, 'credit_id', fields.credit_id, sale, now, (customerId, id) =>
      getCredit(deps.db, customerId, id),
    )
    if (!credit || amountCents === undefined) return
    const left = credit.amount_remaining_cents - (sale.drawn.get(credit.id) ?? 0)
    if (amountCents > left) return errors.add('amount', invoiceMessages.creditTooLow(left))
    sale.drawn.set(credit.id, (sale.drawn.get(credit.id) ?? 0) + amountCents)
  } else if (fields.payment_type === 'VOU') {
    const voucher = await usableSource(errors, 'voucher_id', fields.voucher_id, sale, now, (customerId, id) =>
      getEventVoucher(deps.db, customerId, id),
    )
    if (!voucher) return
    const used = sale.drawn.get(-voucher.id) ?? 0
    if (voucher.number_of_uses_remaining - used < 1)
      return errors.add('voucher_id', invoiceMessages.voucherUsedUp)
    sale.drawn.set(-voucher.id, used + 1)
    if (amountCents !== undefined && amountCents !== 0) errors.add('amount', invoiceMessages.voucherAmount)
  }
}

/** A payment as recorded; undefined when it failed (its errors are on `payment`). */
export async function resolvePayment(
  deps: Pick<Deps, 'db' | 'clock'>,
  payment: CheckedBody<PaymentInput>,
  sale: SaleContext,
): Promise<SalePayment | undefined> {
  const { fields, errors } = payment
  const amountCents = checkDecimal(fields, errors, 'amount')
  const processorFeeCents = checkDecimal(fields, errors, 'processor_fee')
  // What the processor kept comes out of what was paid.
  if (processorFeeCents !== undefined && amountCents !== undefined && processorFeeCents > amountCents)
    errors.add('processor_fee', paymentAmountMessages.feeAboveAmount(amountCents))
  await checkPaymentSource(deps, payment, amountCents, sale)
  if (fields.payment_type === undefined || amountCents === undefined) return undefined
  return {
    status: fields.status ?? 'COM',
    payment_type: fields.payment_type,
    payment_method_type: fields.payment_method_type ?? 'NA',
    amount_cents: amountCents,
    amount_refunded_cents: 0,
    failure_message: '',
    credit_id: fields.payment_type === 'CRE' ? (fields.credit_id ?? null) : null,
    voucher_id: fields.payment_type === 'VOU' ? (fields.voucher_id ?? null) : null,
    processor_fee_cents: processorFeeCents ?? 0,
    credit_card_last4: fields.credit_card_last4 ?? '',
    credit_card_brand: fields.credit_card_brand ?? '',
    bank_account_last4: fields.bank_account_last4 ?? '',
    bank_account_bank_name: fields.bank_account_bank_name ?? '',
    processor_a_payment_intent_id: fields.processor_a_payment_intent_id ?? '',
    processor_b_external_transaction_id: fields.processor_b_external_transaction_id ?? '',
    processor_b_unique_transaction_id: fields.processor_b_unique_transaction_id ?? '',
    processor_c_payment_link_name: fields.processor_c_payment_link_name ?? '',
    processor_c_payment_link_id: fields.processor_c_payment_link_id ?? '',
    processor_c_payment_id: fields.processor_c_payment_id ?? '',
    gift_card_number: fields.gift_card_number ?? '',
  }
}

/**
 * The 400 of a sale that no payment could pay off: its lines before discounts (at line_items), or
 * its total (at non_field_errors), above what a payment's amount can hold. Undefined for a sale
 * within it.
 */
export function unpayableSale(priced: PricedInvoice): ApiError | undefined {
  const grossCents = priced.lines.reduce((sum, line) => sum + line.grossCents, 0)
  if (grossCents > MAX_PAYMENT_CENTS)
    return new ApiError(400, { line_items: [paymentAmountMessages.linesAbovePayment(grossCents)] })
  if (priced.totalCents > MAX_PAYMENT_CENTS)
    return new ApiError(400, {
      non_field_errors: [paymentAmountMessages.totalAbovePayment(priced.totalCents)],
    })
  return undefined
}
