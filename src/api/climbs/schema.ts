import { Type as t } from '@sinclair/typebox'
import { CLIMB_DISCIPLINES, GRADE_DISCIPLINES } from '../../core/walls/disciplines.ts'
import { field, out } from '../../http/fields.ts'

/** How many setters one climb may name: a crew, not a list of everyone. */
export const MAX_SETTERS = 10

/**
 * POST and PUT: section, grade, discipline, hold colour and setters required; the rest defaulted on
 * POST and kept on PUT when left out.
 */
export const ClimbWrite = t.Object({
  section_id: field.integer({ description: "One of the gym's sections" }),
  grade_id: field.integer({ description: "One of the gym's grades" }),
  discipline: field.choice(CLIMB_DISCIPLINES, {
    description:
      "BOU boulder, TR top rope, LEA lead, AUT auto-belay; must suit the grade's and the section's",
  }),
  name: t.Optional(field.text({ blank: true, maxLength: 100, description: 'Optional; default ""' })),
  hold_color: field.text({
    maxLength: 50,
    description: 'The holds\' colour in a word ("teal"), as a route card shows it; not blank',
  }),
  color_hex: t.Optional(
    field.nullable(
      field.colorHex({
        description: '`#RRGGBB` for drawing the colour; stored upper case; default null',
      }),
    ),
  ),
  setter_ids: t.Array(field.integer(), {
    description: `Active staff users who set it, in the order named: one to ${MAX_SETTERS}, each once`,
  }),
  set_date: t.Optional(
    field.date({ description: "The gym's local day it went up, not after today; default today" }),
  ),
  planned_strip_date: t.Optional(
    field.nullable(
      field.date({ description: 'When it is meant to come down, not before set_date; default null' }),
    ),
  ),
  description: t.Optional(field.text({ blank: true, maxLength: 2000, description: 'Free text; default ""' })),
})

/** POST .../strip/: the day it came down, today unless given. */
export const ClimbStrip = t.Object({
  date: t.Optional(
    field.date({ description: "The gym's local day it came down: not before set_date, not after today" }),
  ),
})

const discipline = t.String({ description: 'BOU, TR, LEA or AUT' })

export const ClimbOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    gym_id: t.Integer({ readOnly: true }),
    section_id: t.Integer(),
    section_name: t.String({ readOnly: true }),
    grade_id: t.Integer(),
    grade_name: t.String({ readOnly: true }),
    discipline,
    name: t.String({ description: '"" when it has none' }),
    hold_color: t.String(),
    color_hex: t.Union([t.String(), t.Null()], { description: '`#RRGGBB` upper case, or null' }),
    setter_ids: t.Array(t.Integer(), { description: 'In the order named' }),
    setter_names: t.Array(t.String(), {
      readOnly: true,
      description: 'In setter_ids\' order: "First Last", or the email of a user with no name',
    }),
    set_date: t.String({ format: 'date' }),
    planned_strip_date: t.Union([t.String({ format: 'date' }), t.Null()]),
    stripped_date: t.Union([t.String({ format: 'date' }), t.Null()], {
      readOnly: true,
      description: 'The local day it came down; null while it is up',
    }),
    is_up: t.Boolean({ readOnly: true, description: 'Not stripped' }),
    days_up: t.Integer({
      readOnly: true,
      minimum: 0,
      description:
        "Days from set_date to today in the gym's zone, or to stripped_date; 0 on the day it is set",
    }),
    description: t.String(),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      "A climb on one of the gym's walls: up until it is stripped, then kept for the history the",
      "stats read (days up, who set what). Dates are local days in the gym's time zone.",
    ].join(' '),
  },
)

const GradeCountOut = t.Object({
  grade_id: t.Integer(),
  grade_name: t.String(),
  rank: t.Integer(),
  up: t.Integer({ minimum: 0, description: 'Its climbs of the discipline up; 0 when none' }),
  target_count: t.Union([t.Integer(), t.Null()], { description: 'How many the setters aim to have up' }),
})

const SectionCountOut = t.Object({
  section_id: t.Integer(),
  section_name: t.String(),
  up: t.Integer({ minimum: 0, description: 'Its climbs of the discipline up' }),
  oldest_set_date: t.Union([t.String({ format: 'date' }), t.Null()], {
    description: 'The earliest set_date among those climbs; null when none is up',
  }),
  last_reset_date: t.Union([t.String({ format: 'date' }), t.Null()], {
    description: 'Its last reset; null when never reset',
  }),
})

const SetterCountOut = t.Object({
  setter_id: t.Integer(),
  name: t.String({ description: '"First Last", or the email of a user with no name' }),
  set_last_30_days: t.Integer({ minimum: 0 }),
  set_last_365_days: t.Integer({ minimum: 0 }),
})

/** The stats' query: `discipline` is required. */
export const ClimbStatsQuery = t.Object({
  discipline: field.choice(GRADE_DISCIPLINES, {
    description: 'BOU (boulders) or ROP (every rope climb: TR, LEA and AUT); required',
  }),
})

export const ClimbStatsOut = (climb: typeof ClimbOut) =>
  t.Object(
    {
      discipline: t.String({ description: 'BOU or ROP, as asked' }),
      climbs_up: t.Integer({ minimum: 0, description: 'Every climb of the discipline up' }),
      by_grade: t.Array(GradeCountOut, {
        description: 'Every active grade of the discipline, in rank order',
      }),
      by_section: t.Array(SectionCountOut, {
        description: 'The active sections of the discipline and MIX, by sort_order then name',
      }),
      by_setter: t.Array(SetterCountOut, {
        description:
          'Each staff user who set a climb of the discipline here, busiest of the last 30 days first',
      }),
      due_to_strip: t.Array(climb, {
        description: 'Climbs up whose planned_strip_date is today or past: planned_strip_date, then set_date',
      }),
    },
    { description: "The gym's walls for one discipline: what is up, against the grade curve, and who sets" },
  )

/** One staff user a climb may name as its setter. */
export const SetterChoiceOut = t.Object(
  {
    setter_id: t.Integer(),
    name: t.String({ description: '"First Last", or the email of a user with no name' }),
  },
  { description: 'A staff user who may be named in `setter_ids`' },
)
