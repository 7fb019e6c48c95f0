import type { Db } from '../../db/connection.ts'
import {
  addRefundedAmount,
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

/** PRO -> COM; false when the payment was no longer processing. */
export async function completePayment(deps: SettleDeps, payment: PaymentRow): Promise<boolean> {
  const at = deps.clock.now().toISOString()
  return deps.db
    .transaction()
    .execute((trx) => updatePaymentFrom(trx, payment.id, 'PRO', { status: 'COM', updated_at: at }))
}

/** PRO -> FAI with the processor's reason; false when the payment was no longer processing. */
export async function failPayment(
  deps: SettleDeps,
  payment: PaymentRow,
  failureMessage: string,
): Promise<boolean> {
  const at = deps.clock.now().toISOString()
  return deps.db
    .transaction()
    .execute((trx) =>
      updatePaymentFrom(trx, payment.id, 'PRO', {
        status: 'FAI',
        failure_message: failureMessage,
        updated_at: at,
      }),
    )
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
