import { Type as t } from '@sinclair/typebox'
import { SECTION_DISCIPLINES } from '../../core/walls/disciplines.ts'
import { field, out } from '../../http/fields.ts'

/** Django's IntegerField bounds, which DRF gives a model's integer. */
const INTEGER_MIN = -2147483648
const INTEGER_MAX = 2147483647

export const SECTION_NAME_MAX_LENGTH = 100
export const SECTION_DESCRIPTION_MAX_LENGTH = 1000

/** POST and PUT: name and discipline required; the rest defaulted on create, kept on PUT. */
export const SectionWrite = t.Object({
  name: field.text({
    maxLength: SECTION_NAME_MAX_LENGTH,
    description: 'Unique within the gym, whatever its case ("The Cave")',
  }),
  discipline: field.choice(SECTION_DISCIPLINES, {
    description: 'BOU boulders, ROP rope climbs (TR, LEA, AUT), MIX either',
  }),
  sort_order: t.Optional(
    field.integer({
      min: INTEGER_MIN,
      max: INTEGER_MAX,
      description: 'Sections are listed in ascending sort_order, then name; default 0',
    }),
  ),
  description: t.Optional(field.text({ blank: true, maxLength: SECTION_DESCRIPTION_MAX_LENGTH })),
  is_active: t.Optional(
    field.bool({ description: 'False retires the section: kept for its climbs; default true' }),
  ),
})

/** POST reset/: the local day the section was reset. */
export const SectionReset = t.Object({
  date: t.Optional(
    field.date({ description: "The day of the reset, not after today; default today in the gym's zone" }),
  ),
})

export const SectionOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    gym_id: t.Integer({ readOnly: true }),
    name: t.String(),
    discipline: t.String({ description: 'BOU, ROP or MIX' }),
    sort_order: t.Integer(),
    description: t.String(),
    is_active: t.Boolean(),
    climbs_up: t.Integer({ minimum: 0, readOnly: true, description: 'How many of its climbs are up now' }),
    last_reset_date: field.nullable(
      t.String({
        format: 'date',
        readOnly: true,
        description: 'The gym-local day of its latest reset; null until it is first reset',
      }),
    ),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      'A wall of the gym, reset one at a time: a BOU section holds boulders, a ROP one rope climbs',
      '(top rope, lead, auto-belay), a MIX one either. A section that never held a climb can be',
      "deleted; one that did is retired with `is_active: false` and keeps its climbs' history.",
    ].join(' '),
  },
)
