import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'

export const ScheduleExceptionWrite = t.Object({
  schedule_id: field.integer({ description: 'A schedule of this event type' }),
  date: field.date({ description: 'The local date the schedule has no event on' }),
  reason: t.Optional(field.text({ blank: true, maxLength: 255, description: 'Why; default ""' })),
})

export const ScheduleExceptionOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    schedule_id: t.Integer(),
    date: out.date(),
    reason: t.String(),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      "A date one of the event type's schedules has no event on (a holiday, the instructor away).",
      'Removing it (DELETE) gives the date its event back while its start is still to come.',
    ].join(' '),
  },
)
