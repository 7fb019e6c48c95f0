import { Type as t } from '@sinclair/typebox'
import { decimalField } from '../../http/decimal.ts'
import { field } from '../../http/fields.ts'

export const NoBody = t.Object({})

export const PaymentFail = t.Object({
  failure_message: t.Optional(
    field.text({ blank: true, maxLength: 1000, description: "The processor's reason; empty unless given" }),
  ),
})

export const PaymentRefund = t.Object({
  amount: decimalField({ description: 'Above 0, at most what is not yet refunded of the payment' }),
  processor_fee: t.Optional(
    decimalField({ description: 'What the processor kept of the refund; "0.00" unless given' }),
  ),
  reason: t.Optional(field.text({ blank: true, maxLength: 1000, description: 'Empty unless given' })),
})
