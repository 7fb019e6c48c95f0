import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'
import { SCHEDULE_WEEKDAYS } from '../../domain/schedules.ts'
import { someOf } from '../../lib/choices.ts'

export const SCHEDULER_PATH_PATTERN = '^[A-Za-z0-9-]*$'

export const GymWrite = t.Object({
  name: field.text({ maxLength: 255 }),
  time_zone: field.timeZone(),
  hide_setter: t.Optional(field.bool()),
  scheduler_url_path: t.Optional(
    field.pattern(
      SCHEDULER_PATH_PATTERN,
      'Enter a valid value consisting only of letters, numbers or hyphens.',
      {
        description: [
          "Letters, numbers and hyphens: names the gym in its event types' `service_scheduler_url`",
          '(`/scheduler/<path>/event-types/<id>/`); empty (the default) uses the gym id instead',
        ].join(' '),
      },
    ),
  ),
  scheduler_landing_page_text: t.Optional(field.text({ blank: true, description: 'Markdown' })),
  scheduler_first_day_of_week: t.Optional(
    field.choice(someOf(SCHEDULE_WEEKDAYS, ['SUN', 'MON']), { description: 'SUN (the default) or MON' }),
  ),
  capacity: t.Optional(
    field.nullable(
      field.integer({
        min: 1,
        description:
          "People allowed inside at once (null: no limit); the front desk's occupancy bar reads it",
      }),
    ),
  ),
  combine_same_day_check_ins: t.Optional(
    field.bool({
      description: [
        "Record at most one check-in per customer per day in the gym's zone: a second scan the same",
        'day answers with the first check-in and records nothing (default false)',
      ].join(' '),
    }),
  ),
})

export const GymOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    name: t.String(),
    hide_setter: t.Boolean(),
    time_zone: t.String(),
    scheduler_url_path: t.String(),
    scheduler_landing_page_text: t.String(),
    scheduler_first_day_of_week: t.String(),
    capacity: field.nullable(t.Integer()),
    combine_same_day_check_ins: t.Boolean(),
    created_at: out.datetime(),
    updated_at: out.datetime(),
    climbs_url: out.url(),
    grades_url: out.url(),
    sections_url: out.url(),
  },
  {
    description: [
      'A gym of the organization. Its `time_zone` is the one its check-ins, access hours and',
      'same-day rules are judged in. Gyms are never deleted (DELETE is 405).',
    ].join(' '),
  },
)
