import { Type as t } from '@sinclair/typebox'
import { EVENT_SCHEDULE_TYPES, PRODUCT_STATUSES } from '../../domain/products.ts'
import { field, out } from '../../http/fields.ts'

export const EventTypeWrite = t.Object({
  name: field.text({ maxLength: 255 }),
  gym_id: field.integer({ description: 'A gym id; cannot change after creation' }),
  status: field.choice(PRODUCT_STATUSES, { description: 'DRA draft, ACT active, RET retired' }),
  capacity: t.Optional(
    field.nullable(
      field.integer({
        min: 1,
        max: 1000,
        description: 'Places at each of its events (null: no limit); not yet enforced at booking',
      }),
    ),
  ),
  late_booking_window_minutes: t.Optional(
    field.integer({
      below: 60,
      description:
        'Minutes after start an event may still be booked; below 60 (default 15); not yet enforced',
    }),
  ),
  is_listed: t.Optional(field.bool({ description: 'Default true' })),
  schedule_type: t.Optional(
    field.choice(EVENT_SCHEDULE_TYPES, {
      description:
        'recurring (default), multi_part (a course of several sessions) or rolling (joined any time)',
    }),
  ),
  category_ids: t.Optional(
    t.Array(field.integer(), {
      description: 'Event categories it is filed under; default []; replaced when sent',
    }),
  ),
})

export const EventTypeOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    name: t.String(),
    gym_id: t.Integer(),
    gym_name: t.String(),
    gym_url: out.url(),
    status: t.String(),
    capacity: field.nullable(t.Integer()),
    late_booking_window_minutes: t.Integer(),
    is_listed: t.Boolean(),
    schedule_type: t.String(),
    category_ids: t.Array(t.Integer(), { description: 'Ascending; a category removed since stays listed' }),
    created_at: out.datetime(),
    updated_at: out.datetime(),
    questions_url: out.url(),
    schedules_url: out.url(),
    service_scheduler_url: t.String({
      format: 'uri',
      readOnly: true,
      description: [
        "`/scheduler/<the gym's scheduler_url_path, or the gym id>/event-types/<id>/` on the same",
        'origin; the scheduler web app itself is not part of the appliance',
      ].join(' '),
    }),
  },
  {
    description: [
      'A kind of event a gym offers (a class, a course), filed under event categories. Never deleted:',
      'retire it with `status: "RET"`.',
    ].join(' '),
  },
)
