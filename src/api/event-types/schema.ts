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
        description: [
          'Facility capacity (null: no limit): the most live reservations at any moment across its',
          "overlapping events (two events overlap when one starts before the other ends); an event's",
          'own `capacity` limits that event too. Enforced at booking: `The event is full.`',
        ].join(' '),
      }),
    ),
  ),
  late_booking_window_minutes: t.Optional(
    field.integer({
      below: 60,
      description:
        'Minutes after its start an event may still be booked; below 60 (default 15); negative closes booking before the start (`Booking for this event has closed.`)',
    }),
  ),
  is_listed: t.Optional(field.bool({ description: 'Default true' })),
  max_reservations_per_day_for_customer: t.Optional(
    field.nullable(
      field.integer({
        min: 1,
        description:
          "How many of its events one customer may hold live reservations for on one day (the gym's local day of the event's start); null (default): no limit",
      }),
    ),
  ),
  waitlist_promotion_cutoff_hours: t.Optional(
    field.integer({
      min: 0,
      max: 720,
      description:
        'A spot opening at an event that starts more than this many hours from now goes to the first waiting customer by itself; later, staff promote by hand (default 2)',
    }),
  ),
  booking_horizon_days: t.Optional(
    field.integer({
      min: 1,
      max: 366,
      description: 'How many days ahead its schedules keep events made (default 28)',
    }),
  ),
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
    max_reservations_per_day_for_customer: field.nullable(t.Integer()),
    waitlist_promotion_cutoff_hours: t.Integer(),
    booking_horizon_days: t.Integer(),
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
