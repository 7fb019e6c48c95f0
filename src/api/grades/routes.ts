import { Elysia, t, type AnyElysia } from 'elysia'
import { GRADE_DISCIPLINES } from '../../core/walls/disciplines.ts'
import { changeGrade, createGrade, gradeMessages, loadScale, removeGrade } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { collectionRoutes, type Parent } from '../../http/crud.ts'
import { docs, named, paragraphs } from '../../http/docs.ts'
import { notFound } from '../../http/errors.ts'
import { defineFilters } from '../../http/filters.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { colorHexMessage } from '../../http/fields.ts'
import { RecordId } from '../../http/record-id.ts'
import { checkBody } from '../../http/validation.ts'
import { gymExists } from '../gyms/queries.ts'
import { getGrade, getGrades, listGrades } from './queries.ts'
import { GradeLoadScale, GradeOut, GradeWrite } from './schema.ts'
import { serializeGrade } from './serializer.ts'

const PATH = '/api/gyms/:id/grades'
const TAG = 'Grades'
const WRITE = 'can_manage_climbs'

const gym: Parent = { param: 'id', description: "The gym's id", exists: (deps, id) => gymExists(deps.db, id) }

const NAME_RULE = [
  'A name is unique within the gym and discipline, whatever its case: `v4` beside `V4` is',
  '`grade with this name already exists.` on `name` (the same name may be a BOU and a ROP grade).',
  `\`color_hex\` is \`#RRGGBB\` in either case, stored upper case (else \`${colorHexMessage}\`);`,
  '`target_count` is 0 or more, or null.',
].join(' ')

const CHANGE_RULES = paragraphs(
  [NAME_RULE],
  [
    'A field left out keeps its value, `rank` included. `discipline` can change only while no climb,',
    `up or stripped, is of the grade (else \`${gradeMessages.disciplineInUse}\` on \`discipline\`), so`,
    "that every climb's discipline suits its grade's.",
  ],
)

/**
 * /api/gyms/<id>/grades/: a gym's grade scales (walls.md). The gym's own routes know its id as `:id`,
 * so this collection names it so too, and its own as `:grade_id`. `load-scale/`, an action on the
 * collection rather than on a record, is a route of its own beside it.
 */
export const gradeRoutes = (deps: Deps): AnyElysia =>
  new Elysia()
    .use(
      collectionRoutes(deps, {
        path: PATH,
        parent: gym,
        idParam: 'grade_id',
        tag: TAG,
        noun: 'grade',
        read: 'staff',
        write: WRITE,
        descriptions: {
          list: [
            "The gym's grades by discipline (`BOU`, then `ROP`), then `rank` (easiest first), then id.",
            'Retired ones are listed too unless filtered by `is_active`.',
          ].join(' '),
          create: paragraphs(
            [NAME_RULE],
            [
              '`rank` defaults to one above the highest rank of the gym and discipline (0 for its first',
              'grade); `is_active` to true; `color_hex` and `target_count` to null.',
            ],
          ),
          replace: CHANGE_RULES,
          update: CHANGE_RULES,
          remove: [
            'Only a grade no climb has used: one used by any climb, up or stripped, is kept for',
            `their history, and refused with \`${gradeMessages.inUse}\` under \`non_field_errors\`.`,
            'Answers 204 with no body.',
          ].join(' '),
        },
        filters: defineFilters({
          discipline: { kind: 'choice', choices: GRADE_DISCIPLINES, description: 'BOU or ROP' },
          is_active: 'bool',
        }),
        output: GradeOut,
        list: ({ deps, parentId }, filters) => listGrades(deps.db, parentId, filters),
        get: ({ deps, parentId }, id) => getGrade(deps.db, parentId, id),
        serialize: serializeGrade,
        create: { body: GradeWrite, run: ({ deps, parentId }, body) => createGrade(deps, parentId, body) },
        replace: { body: GradeWrite, run: ({ deps }, row, body) => changeGrade(deps, row, body) },
        remove: {
          run: ({ deps }, row) => removeGrade(deps, row),
          refusal: 'A climb is of this grade; nothing was deleted',
        },
      }),
    )
    .use(
      new Elysia({ prefix: PATH }).use(authenticated(deps)).post(
        '/load-scale/',
        async ({ params, body, urls, set }) => {
          if (!(await gymExists(deps.db, params.id))) throw notFound()
          const ids = await loadScale(deps, params.id, checkBody(GradeLoadScale, body))
          set.status = 201
          return (await getGrades(deps.db, params.id, ids)).map((row) => serializeGrade(row, urls))
        },
        {
          params: t.Object({ id: RecordId() }),
          ...requires(WRITE),
          ...docs({
            tag: TAG,
            summary: 'Add a standard scale of grades',
            description: whoMay(
              WRITE,
              paragraphs(
                [
                  'Adds the grades of a standard scale, easiest first: `V` (V0 to V10) and `FONT` (4, 5,',
                  '5+, 6A, 6A+, 6B, 6B+, 6C, 6C+, 7A, 7A+, 7B, 7B+, 7C, 7C+, 8A) for `BOU`; `YDS` (5.6 to',
                  '5.9, then 5.10a to 5.13d) and `FRENCH` (4a, 4b, 4c, 5a, 5b, 5c, 6a, 6a+ ... 7c+, 8a) for',
                  '`ROP`. Another pair is `The V scale is for BOU grades.` on `discipline`; `CIRCUIT` and',
                  '`OTHER` have none (`CIRCUIT has no standard scale: add its grades one by one.` on',
                  '`system`).',
                ],
                [
                  'The new grades are ranked one after another, on from the highest rank of the gym and',
                  'discipline (from 0 when it has none); a name the gym has already in that discipline,',
                  'whatever its case, is skipped, and takes no rank. They are active, with no colour or',
                  'target. All are added in one transaction, or none.',
                ],
                [
                  'Answers 201 with a plain list (no envelope) of the grades added, in rank order: `[]`',
                  'when the gym had them all, so loading a scale twice adds nothing the second time.',
                ],
              ),
            ),
            body: named('GradeLoadScale', GradeLoadScale),
            ok: {
              status: 201,
              schema: t.Array(named('Grade', GradeOut)),
              description: 'The grades added, in rank order',
            },
            errors: [404],
            params: { id: "The gym's id" },
          }),
        },
      ),
    )
