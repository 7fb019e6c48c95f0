import { resetSectionOn } from './actions.ts'
import { SECTION_DISCIPLINES } from '../../core/walls/disciplines.ts'
import { changeSection, createSection, removeSection, sectionMessages } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { strippingMessages } from '../../core/walls/stripping.ts'
import { collectionRoutes, type Parent } from '../../http/crud.ts'
import { paragraphs } from '../../http/docs.ts'
import { defineFilters } from '../../http/filters.ts'
import { gymExists } from '../gyms/queries.ts'
import { getSection, listSections } from './queries.ts'
import { SectionOut, SectionReset, SectionWrite } from './schema.ts'
import { serializeSection } from './serializer.ts'

const PATH = '/api/gyms/:id/sections'
const TAG = 'Sections'
const WRITE = 'can_manage_climbs'

const gym: Parent = { param: 'id', description: "The gym's id", exists: (deps, id) => gymExists(deps.db, id) }

const NAME_RULE = [
  'A name is unique within the gym, whatever its case: `the cave` beside `The Cave` is `section with',
  'this name already exists.` on `name`. `climbs_up` and `last_reset_date` are read-only (a reset',
  'sets the date).',
].join(' ')

const CHANGE_RULES = paragraphs(
  [NAME_RULE, 'A field left out keeps its value.'],
  [
    'A BOU section holds boulders (`BOU` climbs), a ROP one rope climbs (`TR`, `LEA`, `AUT`), a MIX one',
    'any. `discipline` can change only to one that suits every climb up in the section (stripped',
    `ones do not count), else \`${sectionMessages.climbsWouldNotSuit(2, 'BOU')}\` on \`discipline\`.`,
  ],
)

/**
 * /api/gyms/<id>/sections/: a gym's walls (walls.md). The gym's own routes know its id as `:id`, so
 * this collection names it so too, and its own as `:section_id`.
 */
export const sectionRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: PATH,
    parent: gym,
    idParam: 'section_id',
    tag: TAG,
    noun: 'section',
    read: 'staff',
    write: WRITE,
    descriptions: {
      list: [
        "The gym's sections in ascending `sort_order`, then by name (whatever its case), then id.",
        'Retired ones are listed too unless filtered by `is_active`.',
      ].join(' '),
      read: '`climbs_up` counts its climbs up now; `last_reset_date` is the day of its latest reset.',
      create: paragraphs(
        [NAME_RULE],
        ['`sort_order` defaults to 0, `description` to "", `is_active` to true.'],
      ),
      replace: CHANGE_RULES,
      update: CHANGE_RULES,
      remove: [
        'Only a section no climb was ever set in: one that held any, up or stripped, keeps',
        `their history, and is refused with \`${sectionMessages.hasClimbs}\` under`,
        '`non_field_errors`. Answers 204 with no body.',
      ].join(' '),
    },
    filters: defineFilters({
      discipline: { kind: 'choice', choices: SECTION_DISCIPLINES, description: 'BOU, ROP or MIX' },
      is_active: 'bool',
    }),
    output: SectionOut,
    list: ({ deps, parentId }, filters) => listSections(deps.db, parentId, filters),
    get: ({ deps, parentId }, id) => getSection(deps.db, parentId, id),
    serialize: serializeSection,
    create: {
      body: SectionWrite,
      run: ({ deps, parentId }, body) => createSection(deps, parentId, body),
    },
    replace: { body: SectionWrite, run: ({ deps }, row, body) => changeSection(deps, row, body) },
    remove: {
      run: ({ deps }, row) => removeSection(deps, row),
      refusal: 'A climb was set in this section; nothing was deleted',
    },
    actions: [
      {
        name: 'reset',
        summary: 'Reset a section: strip every climb up in it',
        description: paragraphs(
          [
            'Strips every climb up in the section that was set on or before `date` (a day of the',
            "gym's zone, today when left out), with `date` as its stripped date; a climb set after",
            "that day was not up then, and stays. The section's `last_reset_date` becomes `date`,",
            'unless a later reset is on record already. A day after today is refused with',
            `\`${strippingMessages.inTheFuture('2026-12-01')}\` on \`date\`, and nothing is stripped.`,
          ],
          [
            'Every climb comes down in one transaction, or none. Two resets sent at once are applied',
            'one after the other: the second finds nothing left to strip. Answers 200 with the',
            'section (`climbs_up` then counts only the climbs set after `date`).',
          ],
        ),
        body: SectionReset,
        run: ({ deps }, row, body) => resetSectionOn(deps, row, body),
      },
    ],
  })
