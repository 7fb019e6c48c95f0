import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'
import { expiryOut, expiryWrite, timestampsOut } from '../customer-records/schema.ts'

/** POST and PUT (PUT sends event_type_id and number_of_uses_total again: they may not change). */
export const EventVoucherWrite = t.Object({
  event_type_id: field.integer({ description: 'An event type id; cannot change after creation' }),
  number_of_uses_total: field.integer({ min: 1, description: 'At least 1; cannot change after creation' }),
  ...expiryWrite,
})

export const EventVoucherOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    event_type_id: t.Integer(),
    event_type_url: out.url(),
    event_type_name: t.String({ readOnly: true }),
    number_of_uses_total: t.Integer(),
    number_of_uses_remaining: t.Integer({ readOnly: true }),
    ...expiryOut,
    ...timestampsOut,
  },
  {
    description: [
      'A voucher for a number of events of one event type (selling a voucher pack issues one). Its',
      "days are read in its event type's gym's zone; it is usable through the end of its expiry",
      'day. There is no DELETE: set `is_removed`.',
    ].join(' '),
  },
)
