import type { Static } from '@sinclair/typebox'
import {
  gradeRefusal,
  sectionRefusal,
  type ClimbDiscipline,
  type GradeDiscipline,
  type SectionDiscipline,
} from '../../core/walls/disciplines.ts'
import { strippingMessages } from '../../core/walls/stripping.ts'
import type { Deps } from '../../deps.ts'
import type { Db } from '../../db/connection.ts'
import { messages, type FieldErrorCollector } from '../../http/errors.ts'
import { upperHex } from '../../http/fields.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { localDate } from '../../lib/local-time.ts'
import {
  deleteClimb,
  findGrade,
  findSection,
  gymTimeZone,
  insertClimb,
  staffActivity,
  updateClimb,
  type ClimbRow,
} from './queries.ts'
import { MAX_SETTERS, type ClimbWrite } from './schema.ts'

type ClimbInput = Static<typeof ClimbWrite>
type Fields = Partial<ClimbInput>

/** How a climb's own rules refuse a write (a discipline that does not suit: core/walls/disciplines.ts). */
export const climbMessages = {
  emptyList: 'This list may not be empty.',
  tooManySetters: `Ensure this field has no more than ${MAX_SETTERS} elements.`,
  setterTwice: (id: number) => `Staff user ${id} is listed more than once.`,
  setterInactive: (id: number) => `Staff user ${id} is inactive: only active staff can be named as setters.`,
  gradeInactive: 'This grade is retired (inactive): choose an active one.',
  sectionInactive: 'This section is retired (inactive): choose an active one.',
  plannedBeforeSet: (setDate: string) => `The planned strip date cannot be before the set date (${setDate}).`,
  setAfterPlanned: (planned: string) => `The set date cannot be after the planned strip date (${planned}).`,
  stripped: 'This climb has been stripped: only its name and description can change.',
} as const

/** What stays open on a stripped climb: the rest is the history the stats read. */
const OPEN_WHEN_STRIPPED = new Set<keyof ClimbInput>(['name', 'description'])

/** The gym's local day at `now`, read inside the write's transaction. */
async function todayOf(db: Db, gymId: number, now: Date): Promise<string> {
  return localDate(now, (await gymTimeZone(db, gymId))!)
}

/** On a stripped climb, each sent field but name and description that differs from the stored one. */
function checkStripped(fields: Fields, errors: FieldErrorCollector, existing: ClimbRow): void {
  const stored: Record<keyof ClimbInput, unknown> = {
    section_id: existing.section_id,
    grade_id: existing.grade_id,
    discipline: existing.discipline,
    name: existing.name,
    hold_color: existing.hold_color,
    color_hex: existing.color_hex,
    setter_ids: existing.setters.map((setter) => setter.id).join(','),
    set_date: existing.set_date,
    planned_strip_date: existing.planned_strip_date,
    description: existing.description,
  }
  const sent: Partial<Record<keyof ClimbInput, unknown>> = {
    ...fields,
    color_hex: upperHex(fields.color_hex),
    setter_ids: fields.setter_ids?.join(','),
  }
  for (const key of Object.keys(stored) as (keyof ClimbInput)[]) {
    if (OPEN_WHEN_STRIPPED.has(key) || errors.has(key) || !(key in fields)) continue
    if (sent[key] !== stored[key]) errors.add(key, climbMessages.stripped)
  }
}

/**
 * The grade and section sent must be the gym's (else "Invalid pk") and active, unless the climb
 * already has them. Answers their disciplines as the climb will have them (undefined when unknown).
 */
async function checkGradeAndSection(
  db: Db,
  gymId: number,
  fields: Fields,
  errors: FieldErrorCollector,
  existing?: ClimbRow,
): Promise<{ grade?: GradeDiscipline; section?: SectionDiscipline }> {
  let grade: GradeDiscipline | undefined
  let section: SectionDiscipline | undefined
  const gradeId = fields.grade_id ?? existing?.grade_id
  if (gradeId !== undefined && !errors.has('grade_id')) {
    const found = await findGrade(db, gymId, gradeId)
    if (found === undefined) errors.add('grade_id', messages.doesNotExist(gradeId))
    else if (found.is_active === 0 && gradeId !== existing?.grade_id)
      errors.add('grade_id', climbMessages.gradeInactive)
    else grade = found.discipline
  }
  const sectionId = fields.section_id ?? existing?.section_id
  if (sectionId !== undefined && !errors.has('section_id')) {
    const found = await findSection(db, gymId, sectionId)
    if (found === undefined) errors.add('section_id', messages.doesNotExist(sectionId))
    else if (found.is_active === 0 && sectionId !== existing?.section_id)
      errors.add('section_id', climbMessages.sectionInactive)
    else section = found.discipline
  }
  return { grade, section }
}

/**
 * The climb's discipline must suit its grade's and its section's, as the climb will be. A refusal
 * goes on `discipline` when it was sent, else on the grade or section that was.
 */
function checkDiscipline(
  fields: Fields,
  errors: FieldErrorCollector,
  of: { grade?: GradeDiscipline; section?: SectionDiscipline },
  existing?: ClimbRow,
): void {
  if (errors.has('discipline')) return
  const discipline: ClimbDiscipline | undefined = fields.discipline ?? existing?.discipline
  if (discipline === undefined) return
  const refusals: Array<[string, string | undefined]> = [
    ['grade_id', of.grade && gradeRefusal(discipline, of.grade)],
    ['section_id', of.section && sectionRefusal(discipline, of.section)],
  ]
  for (const [field, refusal] of refusals) {
    if (refusal !== undefined) errors.add(fields.discipline !== undefined ? 'discipline' : field, refusal)
  }
}

/**
 * One to MAX_SETTERS staff users, each once, each known (else "Invalid pk") and active; a setter the
 * climb already names stays though since made inactive, so sending back what was read keeps it.
 */
async function checkSetters(
  db: Db,
  fields: Fields,
  errors: FieldErrorCollector,
  existing?: ClimbRow,
): Promise<void> {
  const ids = fields.setter_ids
  if (ids === undefined || errors.has('setter_ids')) return
  if (ids.length === 0) return errors.add('setter_ids', climbMessages.emptyList)
  if (ids.length > MAX_SETTERS) return errors.add('setter_ids', climbMessages.tooManySetters)
  const active = await staffActivity(db, ids)
  const kept = new Set(existing?.setters.map((setter) => setter.id))
  const seen = new Set<number>()
  for (const id of ids) {
    if (seen.has(id)) errors.add('setter_ids', climbMessages.setterTwice(id))
    else if (!active.has(id)) errors.add('setter_ids', messages.doesNotExist(id))
    else if (!active.get(id) && !kept.has(id)) errors.add('setter_ids', climbMessages.setterInactive(id))
    seen.add(id)
  }
}

/**
 * set_date not after today; planned_strip_date not before set_date, judged as the climb will be
 * (a date left out keeps its stored value). A stripped climb's dates stay (checkStripped).
 */
function checkDates(fields: Fields, errors: FieldErrorCollector, today: string, existing?: ClimbRow): void {
  if (errors.has('set_date') || errors.has('planned_strip_date')) return
  if (fields.set_date !== undefined && fields.set_date > today)
    return errors.add('set_date', strippingMessages.inTheFuture(today))
  const setDate = fields.set_date ?? existing?.set_date ?? today
  const planned =
    fields.planned_strip_date !== undefined
      ? fields.planned_strip_date
      : (existing?.planned_strip_date ?? null)
  if (planned !== null && planned < setDate) {
    if (fields.planned_strip_date !== undefined)
      errors.add('planned_strip_date', climbMessages.plannedBeforeSet(setDate))
    else errors.add('set_date', climbMessages.setAfterPlanned(planned))
  }
}

/** Every rule of a climb's write, each field's refusals added to `errors`. */
async function checkClimb(
  db: Db,
  gymId: number,
  fields: Fields,
  errors: FieldErrorCollector,
  today: string,
  existing?: ClimbRow,
): Promise<void> {
  if (existing && existing.stripped_date !== null) checkStripped(fields, errors, existing)
  const disciplines = await checkGradeAndSection(db, gymId, fields, errors, existing)
  checkDiscipline(fields, errors, disciplines, existing)
  await checkSetters(db, fields, errors, existing)
  checkDates(fields, errors, today, existing)
}

/**
 * A new climb in `gymId`, up: set today (the gym's local day) unless told. Checked and written in
 * one transaction, so nothing it names changes between the two.
 */
export function createClimb(
  deps: Pick<Deps, 'db' | 'clock'>,
  gymId: number,
  body: CheckedBody<ClimbInput>,
): Promise<number> {
  const now = deps.clock.now()
  return deps.db.transaction().execute(async (trx) => {
    const today = await todayOf(trx, gymId, now)
    await checkClimb(trx, gymId, body.fields, body.errors, today)
    const input = body.valid()
    const at = now.toISOString()
    return insertClimb(
      trx,
      {
        gym_id: gymId,
        section_id: input.section_id,
        grade_id: input.grade_id,
        discipline: input.discipline,
        name: input.name ?? '',
        hold_color: input.hold_color,
        color_hex: upperHex(input.color_hex) ?? null,
        set_date: input.set_date ?? today,
        planned_strip_date: input.planned_strip_date ?? null,
        description: input.description ?? '',
        created_at: at,
        updated_at: at,
      },
      input.setter_ids,
    )
  })
}

/** PUT/PATCH: the fields sent change (setter_ids replaces the setters); the climb stays in its gym. */
export function changeClimb(
  deps: Pick<Deps, 'db' | 'clock'>,
  gymId: number,
  climb: ClimbRow,
  body: CheckedBody<Fields>,
): Promise<void> {
  const now = deps.clock.now()
  return deps.db.transaction().execute(async (trx) => {
    const today = await todayOf(trx, gymId, now)
    await checkClimb(trx, gymId, body.fields, body.errors, today, climb)
    const input = body.valid()
    await updateClimb(
      trx,
      climb.id,
      {
        section_id: input.section_id,
        grade_id: input.grade_id,
        discipline: input.discipline,
        name: input.name,
        hold_color: input.hold_color,
        color_hex: upperHex(input.color_hex),
        set_date: input.set_date,
        planned_strip_date: input.planned_strip_date,
        description: input.description,
        updated_at: now.toISOString(),
      },
      input.setter_ids,
    )
  })
}

/** DELETE: a climb entered by mistake goes, setters and all; history is kept by stripping. */
export const removeClimb = (deps: Pick<Deps, 'db'>, climb: ClimbRow): Promise<void> =>
  deleteClimb(deps.db, climb.id)
