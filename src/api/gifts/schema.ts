import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'

export const GiftRedeem = t.Object({
  code: field.text({ maxLength: 64, description: 'The gift code, in any case' }),
  customer_id: field.integer({ description: 'The customer who receives the gift' }),
})

export const GiftOut = t.Object({
  code: t.String(),
  entry_pass_id: field.nullable(t.Integer({ description: 'The entry pass type gifted' })),
  voucher_pack_id: field.nullable(t.Integer({ description: 'The voucher pack gifted' })),
  membership_id: field.nullable(t.Integer({ description: 'The membership type gifted' })),
  purchaser_id: field.nullable(t.Integer()),
  redeemed_by_id: field.nullable(t.Integer()),
  redeemed_at: field.nullable(out.datetime()),
  customer_entry_pass_id: field.nullable(t.Integer({ description: 'The entry pass redeeming it granted' })),
  customer_event_voucher_id: field.nullable(
    t.Integer({ description: 'The event voucher redeeming it granted' }),
  ),
  customer_membership_id: field.nullable(
    t.Integer({ description: 'The membership redeeming it started, on the day of redemption' }),
  ),
  created_at: out.datetime(),
})
