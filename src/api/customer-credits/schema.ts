import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'
import { expiryOut, expiryWrite, timestampsOut } from '../customer-records/schema.ts'

/** POST and PUT (PUT sends amount_total again: it may not change). */
export const CreditWrite = t.Object({
  amount_total: field.number({
    exclusiveMin: 0,
    description: 'Greater than 0, at most 2 decimal places; cannot change after creation',
  }),
  ...expiryWrite,
})

export const CreditOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    amount_total: t.Number(),
    amount_remaining: t.Number({ readOnly: true }),
    ...expiryOut,
    ...timestampsOut,
  },
  {
    description: [
      'Account credit a customer spends in sales: an amount, what is left of it, and an expiry date.',
      "Its days (expiry, date added) are read in the customer's home gym's zone, else the",
      "organization's; it is usable through the end of its expiry day. There is no DELETE: set",
      '`is_removed`.',
    ].join(' '),
  },
)
