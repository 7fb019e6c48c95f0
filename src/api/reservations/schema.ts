import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'

export const ReservationCreate = t.Object({
  event_id: field.integer({ description: 'An event that is not cancelled' }),
  customer_id: field.integer({ description: 'A customer id' }),
  includes_entry: t.Optional(
    field.bool({ description: 'Whether the reservation lets its holder in; default true' }),
  ),
})

/** PUT/PATCH: the event and the customer may be sent again but not changed. */
export const ReservationReplace = t.Object({
  event_id: field.integer({ description: 'Cannot be changed' }),
  customer_id: field.integer({ description: 'Cannot be changed' }),
  includes_entry: t.Optional(field.bool()),
  checked_in: t.Optional(field.bool()),
})

export const NoBody = t.Object({})

export const ReservationOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    event_id: t.Integer(),
    event_url: out.url(),
    event_name: t.String(),
    event_start_at: out.datetime(),
    event_end_at: out.datetime(),
    gym_id: t.Integer(),
    customer_id: t.Integer(),
    customer_url: out.url(),
    customer_first_name: t.String(),
    customer_last_name: t.String(),
    includes_entry: t.Boolean(),
    is_cancelled: t.Boolean(),
    checked_in: t.Boolean(),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: ["A customer's place at an event. Cancel it with `cancel/`; never deleted."].join(' '),
  },
)
