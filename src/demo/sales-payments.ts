import type { PaymentStatus } from '../db/schema.ts'
import type { Calendar } from './calendar.ts'
import type { Random } from './random.ts'
import type { PaymentRow, Sale, SalePayment, SaleRefund } from './sales-ledger.ts'

/**
 * How the demo's sales are paid: cards on file charged by the gym's processor (processor B until
 * the switch to processor A three years ago), bank accounts, cards and cash at the desk, payment
 * links for bookings made online, and store credit. Card payments carry the processor's ids, the
 * card's brand and last four digits, and the processor's fee.
 */

/** A customer's saved payment method, charged for a membership's renewals all its life. */
export type OnFile = { card: Card } | { bank: { name: string; last4: string } }
export interface Card {
  brand: string
  last4: string
}

const BRANDS = [
  ['visa', 55],
  ['mastercard', 30],
  ['amex', 10],
  ['discover', 5],
] as const
const BANKS = ['FirstBank', 'Wells Fargo', 'Chase', 'Elevations Credit Union', 'US Bank'] as const
const DECLINES = ['Your card was declined.', 'Your card has insufficient funds.', 'Your card has expired.']
const BANK_FAILURES = ['The bank account has insufficient funds.', 'The bank account could not be debited.']

/** `length` random lower-case letters and digits, six to a draw. */
const token = (rng: Random, length: number): string => {
  let text = ''
  while (text.length < length)
    text += Math.floor(rng.next() * 36 ** 6)
      .toString(36)
      .padStart(6, '0')
  return text.slice(0, length)
}

/** `length` random digits (a card's last four, a processor's transaction number). */
const digits = (rng: Random, length: number): string =>
  String(Math.floor(rng.next() * 10 ** length)).padStart(length, '0')

export const newCard = (rng: Random): Card => ({ brand: rng.weighted(BRANDS), last4: digits(rng, 4) })

export const newOnFile = (rng: Random): OnFile =>
  rng.chance(0.85) ? { card: newCard(rng) } : { bank: { name: rng.pick(BANKS), last4: digits(rng, 4) } }

/**
 * Every column at its default (what a payment with no card, bank or processor records); the
 * ledger sets the id, invoice and times.
 */
const blank = (status: PaymentStatus, paymentType: string, amountCents: number): PaymentRow => ({
  id: 0,
  invoice_id: 0,
  status,
  payment_type: paymentType,
  payment_method_type: 'NA',
  amount_cents: amountCents,
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
  created_at: '',
  updated_at: '',
})

/** A processor's fee: a share in basis points plus a fixed part, at most `cap` (a bank debit's). */
const fee = (amountCents: number, basisPoints: number, fixedCents: number, cap = Infinity): number =>
  amountCents === 0 ? 0 : Math.min(cap, Math.round((amountCents * basisPoints) / 10_000) + fixedCents)

/** When a payment was made, and whether it completed, is processing, failed (and why) or waits. */
export interface Attempt {
  status: PaymentStatus
  atMs: number
  day: number
  /** When a failure or completion came, if later than atMs */
  settledMs?: number
  failureMessage?: string
}

export class Payments {
  constructor(
    private readonly rng: Random,
    private readonly cal: Calendar,
    /** The first day processor A charged cards on file (processor B before it) */
    private readonly switchDay: number,
  ) {}

  private add(sale: Sale, attempt: Attempt, row: PaymentRow, failures: readonly string[]): SalePayment {
    if (attempt.status === 'FAI') row.failure_message = attempt.failureMessage ?? this.rng.pick(failures)
    const payment: SalePayment = {
      atMs: attempt.atMs,
      day: attempt.day,
      updatedMs: attempt.settledMs ?? attempt.atMs,
      row,
    }
    sale.payments.push(payment)
    return payment
  }

  /** A charge to a saved card or bank account, by the gym's processor of the day. */
  onFile(sale: Sale, attempt: Attempt, method: OnFile, amountCents: number): SalePayment {
    const { rng } = this
    const failed = attempt.status === 'FAI'
    const complete = attempt.status === 'COM'
    const byA = attempt.day >= this.switchDay
    const row = blank(attempt.status, byA ? 'STR' : 'GRA', amountCents)
    if ('card' in method) {
      row.payment_method_type = 'CRD'
      row.credit_card_brand = method.card.brand
      row.credit_card_last4 = method.card.last4
      if (!failed) row.processor_fee_cents = byA ? fee(amountCents, 290, 30) : fee(amountCents, 275, 25)
    } else {
      row.payment_method_type = 'BNK'
      row.bank_account_bank_name = method.bank.name
      row.bank_account_last4 = method.bank.last4
      if (!failed) row.processor_fee_cents = fee(amountCents, 80, 0, 500)
    }
    if (byA) row.processor_a_payment_intent_id = `pi_${token(rng, 24)}`
    else {
      row.processor_b_external_transaction_id = digits(rng, 12)
      if (complete) row.processor_b_unique_transaction_id = token(rng, 20)
    }
    return this.add(sale, attempt, row, 'card' in method ? DECLINES : BANK_FAILURES)
  }

  /** A card at the desk's terminal (processor A's reader), or cash. */
  atDesk(sale: Sale, attempt: Attempt, amountCents: number, by: 'card' | 'cash'): SalePayment {
    if (by === 'cash') return this.add(sale, attempt, blank(attempt.status, 'OFF', amountCents), DECLINES)
    const card = newCard(this.rng)
    const row = blank(attempt.status, 'STR', amountCents)
    row.payment_method_type = 'CRD'
    row.credit_card_brand = card.brand
    row.credit_card_last4 = card.last4
    row.processor_a_payment_intent_id = `pi_${token(this.rng, 24)}`
    if (attempt.status !== 'FAI') row.processor_fee_cents = fee(amountCents, 270, 5)
    return this.add(sale, attempt, row, DECLINES)
  }

  /** A payment link (processor C) a customer pays online; pending until paid, cancelled if dropped. */
  online(sale: Sale, attempt: Attempt, amountCents: number, linkName: string): SalePayment {
    const { rng } = this
    const row = blank(attempt.status, 'MXM', amountCents)
    row.processor_c_payment_link_name = linkName
    row.processor_c_payment_link_id = `plink_${token(rng, 16)}`
    if (attempt.status === 'COM' || attempt.status === 'PRF' || attempt.status === 'REF') {
      const card = newCard(rng)
      row.payment_method_type = 'CRD'
      row.credit_card_brand = card.brand
      row.credit_card_last4 = card.last4
      row.processor_c_payment_id = `pay_${token(rng, 20)}`
      row.processor_fee_cents = fee(amountCents, 349, 49)
    }
    return this.add(sale, attempt, row, DECLINES)
  }

  /** Store credit drawn on (the credit's amount_remaining already reflects it). */
  credit(sale: Sale, attempt: Attempt, amountCents: number, creditId: number): SalePayment {
    const row = blank(attempt.status, 'CRE', amountCents)
    row.credit_id = creditId
    return this.add(sale, attempt, row, [])
  }

  /**
   * Gives back part or all of a complete payment, as the refund action does: amount_refunded
   * grows and the payment is PRF, or REF once all of it is back. Processor B charges for a
   * refund; the others do not.
   */
  refund(payment: SalePayment, refund: Omit<SaleRefund, 'processorFeeCents'>): void {
    const row = payment.row
    ;(payment.refunds ??= []).push({ ...refund, processorFeeCents: row.payment_type === 'GRA' ? 25 : 0 })
    row.amount_refunded_cents += refund.amountCents
    row.status = row.amount_refunded_cents === row.amount_cents ? 'REF' : 'PRF'
    payment.updatedMs = Math.max(payment.updatedMs, refund.atMs)
  }

  /**
   * A sale paid at the desk, in full (card or cash, now and then some of each) or, where
   * `partly` allows it, only in part: half now, the balance due later. A card at the terminal
   * on the last day may still be processing.
   */
  settleAtDesk(sale: Sale, atMs: number, day: number, partly = false): void {
    const { rng } = this
    const total = sale.priced.totalCents
    if (total === 0) return
    const complete: Attempt = { status: 'COM', atMs, day }
    const card: Attempt = day === this.cal.today && rng.chance(0.05) ? { status: 'PRO', atMs, day } : complete
    if (partly && total >= 4000 && rng.chance(0.04)) {
      this.atDesk(sale, card, Math.round(total / 200) * 100, 'card')
      return
    }
    if (total >= 2000 && rng.chance(0.03)) {
      const cash = Math.min(total - 100, rng.int(1, Math.floor(total / 200)) * 100)
      this.atDesk(sale, complete, cash, 'cash')
      this.atDesk(sale, card, total - cash, 'card')
      return
    }
    if (rng.chance(0.7)) this.atDesk(sale, card, total, 'card')
    else this.atDesk(sale, complete, total, 'cash')
  }
}
