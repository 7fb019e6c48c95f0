import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'

/** PUT needs the name and zone; everything else keeps its value when left out. */
export const OrganizationReplace = t.Object({
  name: field.text({ maxLength: 255 }),
  time_zone: field.timeZone({
    description: 'IANA time zone (`America/Denver`): the organization\'s "today" and its dates use it.',
  }),
  currency: t.Optional(
    field.pattern('^[A-Z]{3}$', 'Enter a three-letter ISO 4217 currency code.', {
      description: 'ISO 4217 code, upper case (default `USD`)',
    }),
  ),
  waiver_required: t.Optional(
    field.bool({ description: 'Customers need an unexpired waiver to check in (default true)' }),
  ),
  milestones: t.Optional(
    t.Array(field.integer({ min: 1 }), {
      description: 'Check-in counts celebrated at the door; stored sorted, each once',
    }),
  ),
})

export const OrganizationUpdate = t.Partial(OrganizationReplace)

export const OrganizationOut = t.Object(
  {
    name: t.String(),
    time_zone: t.String(),
    currency: t.String(),
    waiver_required: t.Boolean(),
    milestones: t.Array(t.Integer()),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      'The one organization this box serves: its `time_zone` is the one "today" and dates are read in',
      "unless a gym's is named, and `waiver_required` decides whether check-in asks for a waiver.",
    ].join(' '),
  },
)
