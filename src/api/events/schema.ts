import { Type as t } from '@sinclair/typebox'
import { decimalField } from '../../http/decimal.ts'
import { field, out } from '../../http/fields.ts'
import { saleTermsOut, saleTermsWrite } from '../tax-rates/schema.ts'
import { messages } from '../../http/errors.ts'

/** An instant with its offset: 2026-11-22T08:00:00-07:00 or 2026-11-22T15:00:00Z; stored in UTC. */
export const INSTANT_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|z|[+-]\\d{2}:?\\d{2})$'

const instant = (description: string) =>
  t.String({ pattern: INSTANT_PATTERN, 'x-drf-message': messages.datetime, description })

export const EventWrite = t.Object({
  event_type_id: field.integer({ description: 'An event type id' }),
  gym_id: t.Optional(field.integer({ description: "A gym id; default: the event type's gym" })),
  name: t.Optional(
    field.text({ blank: true, maxLength: 255, description: "Default: the event type's name" }),
  ),
  start_at: instant('ISO 8601 with an offset or Z'),
  end_at: instant('ISO 8601 with an offset or Z; after start_at'),
  includes_entry: t.Optional(
    field.bool({ description: 'Whether a reservation also lets its holder in; default true' }),
  ),
  is_cancelled: t.Optional(field.bool({ description: 'Default false' })),
  capacity: t.Optional(
    field.nullable(
      field.integer({
        min: 0,
        max: 1000,
        description:
          "Its own limit on live reservations; null (default): only the type's facility capacity limits it; 0: waitlist only",
      }),
    ),
  ),
  price: t.Optional(decimalField({ description: 'What booking it costs, at least 0; "0.00" unless given' })),
  ...saleTermsWrite,
})

export const EventOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    event_type_id: t.Integer(),
    event_type_name: t.String(),
    event_type_url: out.url(),
    gym_id: t.Integer(),
    gym_name: t.String(),
    gym_url: out.url(),
    name: t.String(),
    start_at: out.datetime(),
    end_at: out.datetime(),
    includes_entry: t.Boolean(),
    is_cancelled: t.Boolean(),
    capacity: field.nullable(t.Integer()),
    num_reservations: t.Integer({ readOnly: true, description: 'Live (not cancelled) reservations' }),
    num_waitlisted: t.Integer({
      readOnly: true,
      description: 'Customers waiting for a spot; 0 once it has started (their entries have expired)',
    }),
    spots_left: field.nullable(
      t.Integer({
        readOnly: true,
        description: 'How many more bookings it would accept now; null when nothing limits it',
      }),
    ),
    schedule_id: field.nullable(
      t.Integer({ readOnly: true, description: 'The schedule that made it; null for one made by hand' }),
    ),
    price: t.String(),
    ...saleTermsOut,
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      'One event on the calendar, of an event type. Cancel it with `is_cancelled`; never deleted.',
    ].join(' '),
  },
)
