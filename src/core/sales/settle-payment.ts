import type { Db } from '../../db/connection.ts'
import { insertStatusChange } from '../memberships/queries.ts'
import { renewMembership, type RenewalOutcome } from '../memberships/renew.ts'
import {
  activateMembership,
  addRefundedAmount,
  hasProcessingPayment,
  listAwaitingMemberships,
  listAwaitingRenewals,
  insertRefund,
  returnToCredit,
  updatePaymentFrom,
  type getPayment,
} from './queries.ts'

/**
 * What happens to a payment after its sale: a processing payment completes or fails, a complete
 * one is refunded, in part or in whole. Each is one transaction whose conditional update settles
 * two desks acting on the same payment at once: only one of them changes it.
 */

export type PaymentRow = NonNullable<Awaited<ReturnType<typeof getPayment>>>

interface SettleDeps {
  db: Db
  clock: { now(): Date }
}

/** Who settles a payment: the history rows of the memberships it settles are dated `today`. */
export interface Settler {
  userId: number
  /** The organization's today */
  today: string
}

/** Settles the renewals of the invoice's MRE lines that were waiting for their payment (PPR). */
async function settleRenewals(trx: Db, invoiceId: number, outcome: RenewalOutcome, by: Settler, at: string) {
  for (const membership of await listAwaitingRenewals(trx, invoiceId)) {
    // Read inside this transaction, which holds the one connection: nothing changes it meanwhile.
    await renewMembership(trx, membership, outcome, { today: by.today, at, changedById: by.userId })
  }
}

/**
 * PRO -> COM; false when the payment was no longer processing. Once none of the invoice's payments
 * is processing, the memberships its MIN lines started leave IPP for ACT and those its MRE lines
 * renew leave PPR for ACT with their next bill date moved on, each with its history row dated
 * `today` (organization-local).
 */
export async function completePayment(
  deps: SettleDeps,
  payment: PaymentRow,
  actor: Settler,
): Promise<boolean> {
  const at = deps.clock.now().toISOString()
  return deps.db.transaction().execute(async (trx) => {
    if (!(await updatePaymentFrom(trx, payment.id, 'PRO', { status: 'COM', updated_at: at }))) return false
    if (await hasProcessingPayment(trx, payment.invoice_id)) return true
    for (const membership of await listAwaitingMemberships(trx, payment.invoice_id)) {
      await activateMembership(trx, membership.id, at)
      await insertStatusChange(trx, {
        customer_membership_id: membership.id,
        member_customer_id: null,
        from_status: 'IPP',
        to_status: 'ACT',
        changed_on: actor.today,
        changed_by_id: actor.userId,
        created_at: at,
      })
    }
    await settleRenewals(trx, payment.invoice_id, 'paid', actor, at)
    return true
  })
}

/**
 * PRO -> FAI with the processor's reason; false when the payment was no longer processing. A
 * membership the sale started stays IPP: it is still awaiting its initial payment. A renewal the
 * sale sold has failed: its membership leaves PPR for PAF, its next bill date where it was.
 */
export async function failPayment(
  deps: SettleDeps,
  payment: PaymentRow,
  failureMessage: string,
  actor: Settler,
): Promise<boolean> {
  const at = deps.clock.now().toISOString()
  return deps.db.transaction().execute(async (trx) => {
    const failed = await updatePaymentFrom(trx, payment.id, 'PRO', {
      status: 'FAI',
      failure_message: failureMessage,
      updated_at: at,
    })
    if (failed) await settleRenewals(trx, payment.invoice_id, 'failed', actor, at)
    return failed
  })
}

export interface Refund {
  amountCents: number
  processorFeeCents: number
  reason: string
  staffUserId: number
}

/**
 * Refunds part or all of a complete payment, on today's date with its own processor fee: the
 * payment's amount_refunded grows and it becomes PRF, or REF once all of it is refunded. A credit
 * payment's refund goes back on the credit. False (nothing changed) when the payment cannot take
 * that much back any more.
 */
export async function refundPayment(deps: SettleDeps, payment: PaymentRow, refund: Refund): Promise<boolean> {
  const at = deps.clock.now().toISOString()
  return deps.db.transaction().execute(async (trx) => {
    if (!(await addRefundedAmount(trx, payment.id, refund.amountCents, at))) return false
    await insertRefund(trx, {
      payment_id: payment.id,
      amount_cents: refund.amountCents,
      processor_fee_cents: refund.processorFeeCents,
      reason: refund.reason,
      staff_user_id: refund.staffUserId,
      created_at: at,
    })
    if (payment.credit_id !== null) await returnToCredit(trx, payment.credit_id, refund.amountCents, at)
    return true
  })
}
