import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'

export const WAIVER_TEXT_MAX_LENGTH = 100_000
/** Ten years: a longer validity is a typing slip; null says "never expires". */
export const WAIVER_MAX_VALID_DAYS = 3660

/** A new version of the organization's waiver text. Versions are never edited afterwards. */
export const WaiverTextCreate = t.Object({
  text: field.text({
    maxLength: WAIVER_TEXT_MAX_LENGTH,
    description: 'The whole text the customer reads and signs; line breaks separate paragraphs',
  }),
  valid_for_days: t.Optional(
    field.nullable(
      field.integer({
        min: 1,
        max: WAIVER_MAX_VALID_DAYS,
        description: [
          'How long a waiver signed on this version lasts: it is valid through the day this many days',
          "after the signing day (the organization's zone). Null or absent: it never expires.",
        ].join(' '),
      }),
    ),
  ),
})

export const WaiverTextOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    version: t.Integer({ readOnly: true, description: 'The version number, the same as `id`' }),
    text: t.String(),
    valid_for_days: t.Union([t.Integer(), t.Null()]),
    is_current: t.Boolean({ readOnly: true, description: 'The newest version: the one signed now' }),
    created_at: out.datetime(),
    created_by_id: t.Union([t.Integer(), t.Null()], { readOnly: true }),
    created_by_name: t.String({ readOnly: true, description: "The admin's name, or their email" }),
  },
  {
    description: [
      "One version of the organization's waiver text. A change is a new version; old ones stay,",
      'so each signed waiver names the version it was signed on.',
    ].join(' '),
  },
)
