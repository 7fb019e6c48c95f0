import type { Static } from '@sinclair/typebox'
import type { SectionDiscipline } from '../../core/walls/disciplines.ts'
import type { Deps } from '../../deps.ts'
import type { Db } from '../../db/connection.ts'
import { toFlag } from '../../db/flags.ts'
import { messages, ValidationError, type FieldErrorCollector } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import {
  climbsUpNotSuiting,
  deleteSection,
  findSectionByName,
  insertSection,
  sectionHasClimbs,
  updateSection,
  type SectionRow,
} from './queries.ts'
import type { SectionWrite } from './schema.ts'

type SectionInput = Static<typeof SectionWrite>

export const sectionMessages = {
  nameTaken: messages.unique('section', 'name'),
  climbsWouldNotSuit: (count: number, discipline: SectionDiscipline) =>
    `This section has ${count} climb${count === 1 ? '' : 's'} up that a ${discipline} section cannot hold: ` +
    `strip ${count === 1 ? 'it' : 'them'} or reset the section first.`,
  hasClimbs:
    'This section has climbs on record (up or stripped), so it cannot be deleted. Set is_active to false to retire it.',
}

/** The climbs up that a change to `discipline` would leave in a section that cannot hold them. */
async function disciplineRefusal(db: Db, row: SectionRow, discipline: SectionDiscipline | undefined) {
  if (discipline === undefined || discipline === row.discipline) return undefined
  const count = await climbsUpNotSuiting(db, row.id, discipline)
  return count > 0 ? sectionMessages.climbsWouldNotSuit(count, discipline) : undefined
}

/**
 * The rules a schema cannot say: the name is free within the gym, whatever its case, and a new
 * discipline suits every climb up in the section (stripped ones are history, and do not count).
 */
async function checkSection(
  db: Db,
  gymId: number,
  fields: Partial<SectionInput>,
  errors: FieldErrorCollector,
  existing?: SectionRow,
): Promise<void> {
  if (fields.name !== undefined && !errors.has('name')) {
    if (await findSectionByName(db, gymId, fields.name, existing?.id))
      errors.add('name', sectionMessages.nameTaken)
  }
  if (existing && !errors.has('discipline')) {
    const refusal = await disciplineRefusal(db, existing, fields.discipline)
    if (refusal) errors.add('discipline', refusal)
  }
}

/** A new section of `gymId`: active, sorted at 0 and with no description unless told. */
export async function createSection(
  deps: Pick<Deps, 'db' | 'clock'>,
  gymId: number,
  body: CheckedBody<SectionInput>,
): Promise<number> {
  await checkSection(deps.db, gymId, body.fields, body.errors)
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return insertSection(deps.db, {
    gym_id: gymId,
    name: input.name,
    discipline: input.discipline,
    sort_order: input.sort_order ?? 0,
    description: input.description ?? '',
    is_active: toFlag(input.is_active) ?? 1,
    created_at: now,
    updated_at: now,
  })
}

/** PUT/PATCH: the fields sent change; `last_reset_date` is a reset's alone. */
export async function changeSection(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: SectionRow,
  body: CheckedBody<Partial<SectionInput>>,
): Promise<void> {
  await checkSection(deps.db, row.gym_id, body.fields, body.errors, row)
  const input = body.valid()
  await deps.db.transaction().execute(async (trx) => {
    // A climb set here since the check above holds the discipline as firmly.
    const refusal = await disciplineRefusal(trx, row, input.discipline)
    if (refusal) throw ValidationError.field('discipline', refusal)
    await updateSection(trx, row.id, {
      name: input.name,
      discipline: input.discipline,
      sort_order: input.sort_order,
      description: input.description,
      is_active: toFlag(input.is_active),
      updated_at: deps.clock.now().toISOString(),
    })
  })
}

/** DELETE: only a section no climb was ever set in; the check and the delete are one. */
export function removeSection(deps: Pick<Deps, 'db'>, row: SectionRow): Promise<void> {
  return deps.db.transaction().execute(async (trx) => {
    if (await sectionHasClimbs(trx, row.id))
      throw ValidationError.field('non_field_errors', sectionMessages.hasClimbs)
    await deleteSection(trx, row.id)
  })
}
