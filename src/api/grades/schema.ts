import { Type as t } from '@sinclair/typebox'
import { GRADE_DISCIPLINES } from '../../core/walls/disciplines.ts'
import { field, out } from '../../http/fields.ts'
import { choices } from '../../lib/choices.ts'

/** How a grade is written: a standard scale's, a circuit's colours, or the gym's own. */
export const GRADE_SYSTEMS = choices({
  V: 'V scale',
  YDS: 'Yosemite Decimal System',
  FONT: 'Fontainebleau',
  FRENCH: 'French',
  CIRCUIT: 'Circuit (colours)',
  OTHER: 'Other',
})
export type GradeSystem = (typeof GRADE_SYSTEMS)[number]

/** Django's IntegerField bounds, which DRF gives a model's integer. */
const INTEGER_MIN = -2147483648
const INTEGER_MAX = 2147483647

export const GRADE_NAME_MAX_LENGTH = 50

const systemField = field.choice(GRADE_SYSTEMS, {
  description: 'V, YDS, FONT, FRENCH, CIRCUIT (colours) or OTHER',
})
const disciplineField = field.choice(GRADE_DISCIPLINES, { description: 'BOU boulder or ROP rope' })

/** POST and PUT: name, system and discipline required; the rest defaulted on create, kept on PUT. */
export const GradeWrite = t.Object({
  name: field.text({
    maxLength: GRADE_NAME_MAX_LENGTH,
    description:
      'As climbers write it ("V4", "5.11a", "6b+", "Blue"); unique within the gym and discipline, whatever its case',
  }),
  system: systemField,
  discipline: disciplineField,
  rank: t.Optional(
    field.integer({
      min: INTEGER_MIN,
      max: INTEGER_MAX,
      description: [
        'Difficulty order within the gym and discipline (higher is harder); default on create: one',
        "above the discipline's highest rank, 0 for its first grade",
      ].join(' '),
    }),
  ),
  color_hex: t.Optional(
    field.nullable(
      field.colorHex({
        description: '"#RRGGBB" in either case, stored upper case (a circuit\'s colour); default null',
      }),
    ),
  ),
  target_count: t.Optional(
    field.nullable(
      field.integer({
        min: 0,
        max: INTEGER_MAX,
        description: 'How many climbs of this grade the setters aim to have up; null (the default): no aim',
      }),
    ),
  ),
  is_active: t.Optional(
    field.bool({ description: 'False retires the grade: kept for the climbs that used it; default true' }),
  ),
})

/** POST load-scale/: which standard scale, into which discipline. */
export const GradeLoadScale = t.Object({
  system: systemField,
  discipline: disciplineField,
})

export const GradeOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    gym_id: t.Integer({ readOnly: true }),
    name: t.String(),
    system: t.String({ description: 'V, YDS, FONT, FRENCH, CIRCUIT or OTHER' }),
    discipline: t.String({ description: 'BOU or ROP' }),
    rank: t.Integer(),
    color_hex: field.nullable(t.String({ description: '"#RRGGBB", upper case' })),
    target_count: field.nullable(t.Integer({ minimum: 0 })),
    is_active: t.Boolean(),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      "A grade of the gym's scale for one discipline (BOU boulder, ROP rope), in `rank` order. A",
      'climb is of one grade. A grade no climb has used can be deleted; one in use is retired with',
      '`is_active: false` and stays on the climbs that used it.',
    ].join(' '),
  },
)
