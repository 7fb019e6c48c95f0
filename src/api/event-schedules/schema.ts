import { Type as t } from '@sinclair/typebox'
import { SCHEDULE_WEEKDAYS, START_TIME_PATTERN, scheduleMessages } from '../../domain/schedules.ts'
import { decimalField } from '../../http/decimal.ts'
import { field, out } from '../../http/fields.ts'

export const ScheduleWrite = t.Object({
  gym_id: t.Optional(field.integer({ description: "A gym id; default: the event type's gym" })),
  weekdays: t.Array(field.choice(SCHEDULE_WEEKDAYS), {
    description: 'The days of the week it recurs on, each once, at least one; read back Monday first',
  }),
  start_time: field.pattern(START_TIME_PATTERN, scheduleMessages.time, {
    description: "HH:MM (24-hour), the gym's wall clock: the same local time on both sides of a DST change",
  }),
  duration_minutes: field.integer({ min: 1, max: 1440, description: 'Each event lasts this long' }),
  start_date: field.date({ description: 'The first local date it may have an event on' }),
  end_date: t.Optional(
    field.nullable(field.date({ description: 'The last local date (null, the default: open-ended)' })),
  ),
  capacity: t.Optional(
    field.nullable(
      field.integer({
        min: 0,
        max: 1000,
        description: "Copied onto its events (null, the default: only the type's capacity limits them)",
      }),
    ),
  ),
  price: t.Optional(decimalField({ description: 'Copied onto its events; at least 0; "0.00" unless given' })),
  is_active: t.Optional(
    field.bool({ description: 'Default true; false cancels its future events without reservations' }),
  ),
})

export const ScheduleOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    event_type_id: t.Integer(),
    gym_id: t.Integer(),
    weekdays: t.Array(t.String(), { description: 'MON..SUN, Monday first' }),
    start_time: t.String({ description: "HH:MM, the gym's wall clock" }),
    duration_minutes: t.Integer(),
    start_date: out.date(),
    end_date: field.nullable(out.date()),
    capacity: field.nullable(t.Integer()),
    price: out.money(),
    is_active: t.Boolean(),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      'When the events of an event type recur: on some days of the week, at a wall-clock time in its',
      "gym's zone, between two dates. The box keeps its events made as far ahead as the type's",
      '`booking_horizon_days`. Never deleted: deactivate it with `is_active`.',
    ].join(' '),
  },
)
