import type { Static } from '@sinclair/typebox'
import type { GradeDiscipline } from '../../core/walls/disciplines.ts'
import type { Deps } from '../../deps.ts'
import type { Db } from '../../db/connection.ts'
import { toFlag } from '../../db/flags.ts'
import { messages, ValidationError, type FieldErrorCollector } from '../../http/errors.ts'
import { upperHex } from '../../http/fields.ts'
import type { CheckedBody } from '../../http/validation.ts'
import {
  deleteGrade,
  findGradeByName,
  gradeInUse,
  gradeNames,
  insertGrade,
  nextRank,
  updateGrade,
  type GradeRow,
} from './queries.ts'
import { STANDARD_SCALES } from './scales.ts'
import type { GradeLoadScale, GradeSystem, GradeWrite } from './schema.ts'

type GradeInput = Static<typeof GradeWrite>
type LoadScaleInput = Static<typeof GradeLoadScale>

export const gradeMessages = {
  nameTaken: messages.unique('grade', 'name'),
  disciplineInUse: 'This grade is used by climbs (up or stripped), so its discipline cannot change.',
  inUse:
    'This grade is used by climbs (up or stripped), so it cannot be deleted. Set is_active to false to retire it.',
  noStandardScale: (system: GradeSystem) => `${system} has no standard scale: add its grades one by one.`,
  scaleIsFor: (system: GradeSystem, discipline: GradeDiscipline) =>
    `The ${system} scale is for ${discipline} grades.`,
}

/** A grade's name as the unique index compares it: SQLite's NOCASE folds ASCII letters only. */
const foldCase = (name: string) => name.replace(/[A-Z]/g, (letter) => letter.toLowerCase())

/**
 * The rules a schema cannot say, judged on the grade as it will be: a grade used by any climb keeps
 * its discipline (a climb's discipline suits its grade's), and the name is free within the gym and
 * the discipline, whatever its case. Nothing is judged on a field that failed its schema.
 */
async function checkGrade(
  db: Db,
  gymId: number,
  fields: Partial<GradeInput>,
  errors: FieldErrorCollector,
  existing?: GradeRow,
): Promise<void> {
  const changesDiscipline =
    existing !== undefined && fields.discipline !== undefined && fields.discipline !== existing.discipline
  if (changesDiscipline && !errors.has('discipline') && (await gradeInUse(db, existing.id)))
    errors.add('discipline', gradeMessages.disciplineInUse)
  if (errors.has('name') || errors.has('discipline')) return
  if (fields.name === undefined && fields.discipline === undefined) return
  const name = fields.name ?? existing?.name
  const discipline = fields.discipline ?? existing?.discipline
  if (name === undefined || discipline === undefined) return
  if (await findGradeByName(db, gymId, discipline, name, existing?.id))
    errors.add('name', gradeMessages.nameTaken)
}

/** A new grade of `gymId`: active, with no colour or target, ranked above the rest unless told. */
export async function createGrade(
  deps: Pick<Deps, 'db' | 'clock'>,
  gymId: number,
  body: CheckedBody<GradeInput>,
): Promise<number> {
  await checkGrade(deps.db, gymId, body.fields, body.errors)
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  // The default rank is read and written in one transaction, so two grades added at once differ.
  return deps.db.transaction().execute(async (trx) =>
    insertGrade(trx, {
      gym_id: gymId,
      name: input.name,
      system: input.system,
      discipline: input.discipline,
      rank: input.rank ?? (await nextRank(trx, gymId, input.discipline)),
      color_hex: upperHex(input.color_hex) ?? null,
      target_count: input.target_count ?? null,
      is_active: toFlag(input.is_active) ?? 1,
      created_at: now,
      updated_at: now,
    }),
  )
}

/** PUT/PATCH: the fields sent change; a field left out keeps its value (the rank too). */
export async function changeGrade(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: GradeRow,
  body: CheckedBody<Partial<GradeInput>>,
): Promise<void> {
  await checkGrade(deps.db, row.gym_id, body.fields, body.errors, row)
  const input = body.valid()
  const changesDiscipline = input.discipline !== undefined && input.discipline !== row.discipline
  await deps.db.transaction().execute(async (trx) => {
    // A climb set at this grade since the check above holds the discipline as firmly.
    if (changesDiscipline && (await gradeInUse(trx, row.id)))
      throw ValidationError.field('discipline', gradeMessages.disciplineInUse)
    await updateGrade(trx, row.id, {
      name: input.name,
      system: input.system,
      discipline: input.discipline,
      rank: input.rank,
      color_hex: upperHex(input.color_hex),
      target_count: input.target_count,
      is_active: toFlag(input.is_active),
      updated_at: deps.clock.now().toISOString(),
    })
  })
}

/** DELETE: only a grade no climb, up or stripped, has used; the check and the delete are one. */
export function removeGrade(deps: Pick<Deps, 'db'>, row: GradeRow): Promise<void> {
  return deps.db.transaction().execute(async (trx) => {
    if (await gradeInUse(trx, row.id)) throw ValidationError.field('non_field_errors', gradeMessages.inUse)
    await deleteGrade(trx, row.id)
  })
}

/**
 * Adds a standard scale's grades to `gymId`, easiest first, ranked on from the discipline's highest,
 * skipping the names it has already (whatever their case); answers the new grades' ids in rank
 * order. Read and written in one transaction: of two loads at once, the second adds nothing.
 */
export async function loadScale(
  deps: Pick<Deps, 'db' | 'clock'>,
  gymId: number,
  body: CheckedBody<LoadScaleInput>,
): Promise<number[]> {
  const { system, discipline } = body.fields
  const scale = system === undefined || body.errors.has('system') ? undefined : STANDARD_SCALES[system]
  if (system !== undefined && !body.errors.has('system') && scale === undefined)
    body.errors.add('system', gradeMessages.noStandardScale(system))
  if (scale && discipline !== undefined && !body.errors.has('discipline') && scale.discipline !== discipline)
    body.errors.add('discipline', gradeMessages.scaleIsFor(system!, scale.discipline))
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return deps.db.transaction().execute(async (trx) => {
    const held = new Set((await gradeNames(trx, gymId, input.discipline)).map(foldCase))
    let rank = await nextRank(trx, gymId, input.discipline)
    const ids: number[] = []
    for (const name of scale!.names) {
      if (held.has(foldCase(name))) continue
      ids.push(
        await insertGrade(trx, {
          gym_id: gymId,
          name,
          system: input.system,
          discipline: input.discipline,
          rank: rank++,
          color_hex: null,
          target_count: null,
          created_at: now,
          updated_at: now,
        }),
      )
    }
    return ids
  })
}
