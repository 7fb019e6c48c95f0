import { Elysia, t } from 'elysia'
import { CLIMB_DISCIPLINES, GRADE_DISCIPLINES, type GradeDiscipline } from '../../core/walls/disciplines.ts'
import { compareNames, staffName } from '../../domain/staff-names.ts'
import { wallStats } from '../../core/walls/stats.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { docs, named, paragraphs } from '../../http/docs.ts'
import { messages, notFound, ValidationError } from '../../http/errors.ts'
import { defineFilters, readFilters } from '../../http/filters.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { colorHexMessage } from '../../http/fields.ts'
import { RecordId } from '../../http/record-id.ts'
import { localDate } from '../../lib/local-time.ts'
import { stripClimbNow } from './actions.ts'
import { getClimb, gymExists, gymTimeZone, listClimbs, listClimbsDue, listSetterChoices } from './queries.ts'
import { changeClimb, createClimb, removeClimb } from './rules.ts'
import {
  ClimbOut,
  ClimbStatsOut,
  ClimbStatsQuery,
  ClimbStrip,
  ClimbWrite,
  SetterChoiceOut,
} from './schema.ts'
import { serializeClimb } from './serializer.ts'

const WRITE_RULES = [
  [
    "`section_id` and `grade_id` must name the gym's own section and grade (another gym's, or none:",
    '`Invalid pk "9" - object does not exist.`), active ones (`This grade is retired (inactive):',
    'choose an active one.`, `This section is retired (inactive): choose an active one.`; a climb',
    'keeps the one it has when it is retired).',
  ],
  [
    "`discipline` must suit the grade's: a BOU grade takes a BOU climb (`The grade is a boulder grade",
    '(BOU): the climb must be BOU.`), a ROP grade a TR, LEA or AUT one (`The grade is a rope grade',
    "(ROP): the climb must be TR, LEA or AUT.`); and the section's: a BOU section takes BOU climbs",
    '(`The section is for boulders (BOU): the climb must be BOU.`), a ROP section rope climbs (`The',
    'section is for ropes (ROP): the climb must be TR, LEA or AUT.`), a MIX section any. Judged as the',
    'climb will be; the refusal is on `discipline` when it was sent, else on the `grade_id` or',
    '`section_id` that was.',
  ],
  [
    '`setter_ids` names one to 10 staff users in the order the card lists them (`This list may not be',
    'empty.`, `Ensure this field has no more than 10 elements.`), each once (`Staff user 7 is listed',
    'more than once.`), each a staff user (`Invalid pk "9" - object does not exist.`) who is active',
    '(`Staff user 7 is inactive: only active staff can be named as setters.`; a setter the climb',
    'already names stays, so sending back what was read keeps them). `setter_names` reads "First',
    'Last", or the email of a user with no name.',
  ],
  [
    "`set_date` defaults to today, the gym's local day, and is not after it (`Enter a date no later",
    'than today (2026-11-22).`). `planned_strip_date` is not before `set_date` (`The planned strip',
    'date cannot be before the set date (2026-11-01).`; a change of `set_date` alone past it: `The set',
    'date cannot be after the planned strip date (2026-11-30).`). `hold_color` is required and not',
    'blank: a route card shows it. `color_hex` is `#RRGGBB` in either case, stored upper case',
    `(else \`${colorHexMessage}\`).`,
  ],
]

const CHANGE_RULES = [
  ...WRITE_RULES,
  [
    'Left out, a field keeps its stored value; `setter_ids`, when sent, replaces the setters. A',
    'stripped climb is history: only its `name` and `description` change, and any other field sent',
    'with a different value is refused on that field (`This climb has been stripped: only its name',
    'and description can change.`).',
  ],
]

const LIST_RULES = paragraphs(
  [
    "The gym's climbs, up and stripped: newest `set_date` first, then newest id. `days_up` counts the",
    "days from `set_date` to today in the gym's zone (to `stripped_date` once stripped); 0 on the day",
    'it is set.',
  ],
  [
    'Filters: `section_id`, `grade_id`, `setter_id` (one of its setters) exact; `discipline` one code',
    '(BOU, TR, LEA, AUT); `is_up`; `set_after` (inclusive) and `set_before` (exclusive), local dates',
    'compared with `set_date`; `search`: each word a case-insensitive substring of `name` or',
    '`hold_color`.',
  ],
)

const STRIP_RULES = [
  "Takes the climb down on `date`, the gym's local day (default today), and answers it. Refused:",
  'a climb already stripped (`non_field_errors`: `This climb has already been stripped.`), a date',
  'after today (`Enter a date no later than today (2026-11-22).`) or before it was set (`A climb',
  'cannot be stripped before it was set (2026-11-01).`). Of two strips of one climb at once, one',
  'succeeds and the other gets the first refusal. A stripped climb is kept, for history and the stats.',
].join(' ')

const REMOVE_RULES = [
  'Deletes a climb entered by mistake, with its setters: it leaves no history. A climb that came',
  'down is stripped (`.../strip/`), never deleted, so the stats keep it.',
].join(' ')

const STATS_RULES = [
  paragraphs([
    "The gym's walls for one discipline, read on today (the gym's local day). `discipline` is",
    'required: `BOU`, or `ROP` for every rope climb (TR, LEA and AUT); missing, it is `This field is',
    'required.`, another value `Select a valid choice. X is not one of the available choices.`.',
  ]),
  [
    '- `climbs_up`: every climb of the discipline up, whatever its grade or section.',
    '- `by_grade`: every active grade of the discipline in rank order, with its climbs up (0 where',
    '  none) and its `target_count`.',
    '- `by_section`: the active sections of the discipline and `MIX`, by `sort_order` then name, with',
    '  their climbs of the discipline up, the oldest `set_date` among them (null when none) and',
    '  `last_reset_date`. A climb on a retired grade is left out of `by_grade`, one in a retired',
    '  section out of `by_section`; both count in `climbs_up`.',
    '- `by_setter`: each staff user who ever set a climb of the discipline here (inactive ones too),',
    '  named "First Last" (or their email), with the climbs they set (by `set_date`) in the last 30',
    '  and 365 days, today included; most set in the last 30 days first, then in the last 365, then',
    '  by name. A climb set by two counts for each.',
    '- `due_to_strip`: the climbs up whose `planned_strip_date` is today or past, whole, as the list',
    '  shows them: by `planned_strip_date`, then `set_date`.',
  ].join('\n'),
].join('\n\n')

const statsFilter = { discipline: { kind: 'choice', choices: GRADE_DISCIPLINES } } as const

/** The stats' one parameter: required, BOU or ROP, with django-filter's refusals. */
function readStatsQuery(query: Record<string, string | undefined>): GradeDiscipline {
  const { values, errors } = readFilters(statsFilter, query)
  if (values.discipline === undefined && errors.discipline === undefined)
    errors.discipline = [messages.required]
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
  return values.discipline!
}

const climb = named('Climb', ClimbOut)

const STATS_PATH = '/api/gyms/:id/climbs/stats/'

/**
 * GET /api/gyms/<id>/climbs/stats/: the walls for one discipline. The router prefers this literal
 * path to the records' `:climb_id` (which names only digits), so `stats` is never read as a climb.
 */
const climbStatsRoutes = (deps: Deps) =>
  new Elysia().use(authenticated(deps)).get(
    STATS_PATH,
    async ({ params, query, urls }) => {
      const zone = await gymTimeZone(deps.db, params.id)
      if (zone === undefined) throw notFound()
      const discipline = readStatsQuery(query as Record<string, string | undefined>)
      const now = deps.clock.now()
      const today = localDate(now, zone)
      const [stats, due] = await Promise.all([
        wallStats(deps.reader, params.id, discipline, today),
        listClimbsDue(deps.reader, params.id, discipline, today, now),
      ])
      return {
        discipline,
        ...stats,
        due_to_strip: due.map((row) => serializeClimb(row, urls)),
      }
    },
    {
      params: t.Object({ id: RecordId() }),
      ...requires('staff'),
      ...docs({
        tag: 'Gyms',
        summary: "A gym's climbs at a glance: up by grade and section, setters, due to strip",
        description: whoMay('staff', STATS_RULES),
        ok: { status: 200, schema: named('ClimbStats', ClimbStatsOut(climb)) },
        errors: [404],
        params: { id: "The gym's id" },
        query: ClimbStatsQuery,
        filters: true,
      }),
    },
  )

const SETTERS_PATH = '/api/gyms/:id/climbs/setters/'

/**
 * GET /api/gyms/<id>/climbs/setters/: whom a climb may name, for a setter who is not an admin and so
 * cannot list the staff (`/api/users/` is admins' only). Names only, as the climbs show them anyway.
 */
const setterChoiceRoutes = (deps: Deps) =>
  new Elysia().use(authenticated(deps)).get(
    SETTERS_PATH,
    async ({ params }) => {
      if (!(await gymExists(deps.db, params.id))) throw notFound()
      return (await listSetterChoices(deps.db, params.id))
        .map((user) => ({ setter_id: user.id, name: staffName(user) }))
        .sort((a, b) => compareNames(a.name, b.name) || a.setter_id - b.setter_id)
    },
    {
      params: t.Object({ id: RecordId() }),
      ...requires('staff'),
      ...docs({
        tag: 'Gyms',
        summary: "Who may be named as a setter of the gym's climbs",
        description: whoMay(
          'staff',
          [
            'A plain list (no envelope), by name: every active staff user with `can_manage_climbs`,',
            'every active organization admin, and every other active staff user who has set a climb at',
            'this gym. `setter_ids` takes any active staff user; this is the list a setting team picks',
            'from.',
          ].join(' '),
        ),
        ok: { status: 200, schema: t.Array(named('SetterChoice', SetterChoiceOut)) },
        errors: [404],
        params: { id: "The gym's id" },
      }),
    },
  )

/** /api/gyms/<id>/climbs/: a gym's climbs, up and stripped. The gym is `:id`, as its own routes name it. */
export const climbRoutes = (deps: Deps) =>
  new Elysia()
    .use(climbStatsRoutes(deps))
    .use(setterChoiceRoutes(deps))
    .use(
      collectionRoutes(deps, {
        path: '/api/gyms/:id/climbs',
        parent: { param: 'id', description: "The gym's id", exists: (deps, id) => gymExists(deps.db, id) },
        idParam: 'climb_id',
        tag: 'Gyms',
        noun: 'climb',
        read: 'staff',
        write: 'can_manage_climbs',
        descriptions: {
          list: LIST_RULES,
          create: paragraphs(...WRITE_RULES),
          replace: paragraphs(...CHANGE_RULES),
          update: paragraphs(...CHANGE_RULES),
          remove: REMOVE_RULES,
        },
        filters: defineFilters({
          section_id: 'id',
          grade_id: 'id',
          discipline: { kind: 'choice', choices: CLIMB_DISCIPLINES, description: 'BOU, TR, LEA or AUT' },
          setter_id: { kind: 'id', description: 'One of its setters' },
          is_up: 'bool',
          set_after: { kind: 'date', description: 'Set on or after this local date (YYYY-MM-DD)' },
          set_before: { kind: 'date', description: 'Set before this local date (YYYY-MM-DD)' },
          search: {
            kind: 'text',
            description: 'Each word a case-insensitive substring of name or hold_color',
          },
        }),
        output: ClimbOut,
        list: ({ deps, parentId }, filters) => listClimbs(deps.reader, parentId, filters, deps.clock.now()),
        get: ({ deps, parentId }, id) => getClimb(deps.db, parentId, id, deps.clock.now()),
        serialize: serializeClimb,
        create: { body: ClimbWrite, run: ({ deps, parentId }, body) => createClimb(deps, parentId, body) },
        replace: {
          body: ClimbWrite,
          run: ({ deps, parentId }, row, body) => changeClimb(deps, parentId, row, body),
        },
        remove: { run: ({ deps }, row) => removeClimb(deps, row) },
        actions: [
          {
            name: 'strip',
            summary: 'Strip a climb',
            description: STRIP_RULES,
            body: ClimbStrip,
            run: ({ deps }, row, body) => stripClimbNow(deps, row, body),
          },
        ],
      }),
    )
