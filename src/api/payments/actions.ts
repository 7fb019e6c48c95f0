import type { Static } from '@sinclair/typebox'
import type { PaymentFail, PaymentRefund } from './schema.ts'
import { getPayment } from '../../core/sales/queries.ts'
import {
  completePayment,
  failPayment,
  refundPayment,
  type PaymentRow,
} from '../../core/sales/settle-payment.ts'
import type { Actor } from '../../domain/actor.ts'
import { paymentAmountMessages } from '../../domain/invoice-money.ts'
import { organizationToday } from '../organization/queries.ts'
import type { Deps } from '../../deps.ts'
import { checkDecimal } from '../../http/decimal.ts'
import { notFound, ValidationError } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { centsToDecimal } from '../../lib/money.ts'

/**
 * The payment actions: complete or fail a processing payment, refund a complete one. Each answers
 * with the payment's invoice, where its status, amount_refunded and refunds show.
 */

export const paymentActionMessages = {
  notProcessing: 'Only a processing payment can be completed or failed.',
  notRefundable: 'Only a complete or partly refunded payment can be refunded.',
  tooMuch: (left: number) => `Ensure this value is less than or equal to ${centsToDecimal(left)}.`,
  aboveZero: 'Ensure this value is greater than 0.',
}

/** The payment of the path, or 404. */
export async function paymentOf(deps: Pick<Deps, 'db'>, id: number): Promise<PaymentRow> {
  const payment = await getPayment(deps.db, id)
  if (!payment) throw notFound()
  return payment
}

const refuse = (message: string) => new ValidationError({ non_field_errors: [message] })

/** POST complete/: PRO -> COM. */
export async function completeProcessingPayment(
  deps: Deps,
  payment: PaymentRow,
  body: CheckedBody<object>,
  actor: Actor,
) {
  body.valid()
  const today = await organizationToday(deps)
  if (!(await completePayment(deps, payment, { userId: actor.user.id, today })))
    throw refuse(paymentActionMessages.notProcessing)
}

/** POST fail/: PRO -> FAI, with the processor's failure_message. */
export async function failProcessingPayment(
  deps: Deps,
  payment: PaymentRow,
  body: CheckedBody<Static<typeof PaymentFail>>,
  actor: Actor,
) {
  const input = body.valid()
  const today = await organizationToday(deps)
  if (!(await failPayment(deps, payment, input.failure_message ?? '', { userId: actor.user.id, today })))
    throw refuse(paymentActionMessages.notProcessing)
}

/** POST refund/: part or all of what is not yet refunded, with its own processor fee and reason. */
export async function refundCompletePayment(
  deps: Deps,
  payment: PaymentRow,
  body: CheckedBody<Static<typeof PaymentRefund>>,
  actor: Actor,
) {
  const { fields, errors } = body
  // No lower bound in the reading: zero and below are one refusal, worded once, below.
  const amountCents = checkDecimal(fields, errors, 'amount', { min: Number.NEGATIVE_INFINITY })
  const processorFeeCents = checkDecimal(fields, errors, 'processor_fee')
  const left = payment.amount_cents - payment.amount_refunded_cents
  if (amountCents !== undefined && amountCents <= 0) errors.add('amount', paymentActionMessages.aboveZero)
  else if (amountCents !== undefined && amountCents > left)
    errors.add('amount', paymentActionMessages.tooMuch(left))
  // What the processor kept of a refund comes out of the refund.
  if (
    processorFeeCents !== undefined &&
    amountCents !== undefined &&
    amountCents > 0 &&
    processorFeeCents > amountCents
  )
    errors.add('processor_fee', paymentAmountMessages.feeAboveAmount(amountCents))
  if (payment.status !== 'COM' && payment.status !== 'PRF')
    errors.add('non_field_errors', paymentActionMessages.notRefundable)
  const input = body.valid()
  const done = await refundPayment(deps, payment, {
    amountCents: amountCents!,
    processorFeeCents: processorFeeCents ?? 0,
    reason: input.reason ?? '',
    staffUserId: actor.user.id,
  })
  // Another refund of the same payment was recorded in between: judge this one again on what it left.
  if (!done) return refundCompletePayment(deps, await paymentOf(deps, payment.id), body, actor)
}
