import type { ExpressionBuilder, Insertable, Selectable, Updateable } from 'kysely'
import { climbDisciplinesOf, type SectionDiscipline } from '../../core/walls/disciplines.ts'
import { definedChanges } from '../../db/changes.ts'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { Database } from '../../db/schema.ts'
import type { SectionTable } from '../../db/tables/walls.ts'

export type SectionRow = Selectable<SectionTable> & { climbs_up: number }

export interface SectionFilters {
  discipline?: SectionDiscipline
  is_active?: boolean
}

function filtered(db: Db, gymId: number, filters: SectionFilters) {
  let query = db.selectFrom('sections').where('sections.gym_id', '=', gymId)
  if (filters.discipline !== undefined) query = query.where('sections.discipline', '=', filters.discipline)
  if (filters.is_active !== undefined)
    query = query.where('sections.is_active', '=', filters.is_active ? 1 : 0)
  return query
}

/** How many of the section's climbs are up (not stripped): climbs_section_up answers it. */
const climbsUp = (eb: ExpressionBuilder<Database, 'sections'>) =>
  eb
    .selectFrom('climbs')
    .select((sub) => sub.fn.countAll<number>().as('n'))
    .whereRef('climbs.section_id', '=', 'sections.id')
    .where('climbs.stripped_date', 'is', null)
    .as('climbs_up')

/** A gym's sections as they are walked: sort_order, then name (whatever its case), then id. */
export const listSections = (db: Db, gymId: number, filters: SectionFilters): ListSource<SectionRow> =>
  listFrom(filtered(db, gymId, filters), {
    order: (query) => query.orderBy('sections.sort_order').orderBy('sections.name').orderBy('sections.id'),
    rows: (page) => page.selectAll('sections').select(climbsUp).$castTo<SectionRow>().execute(),
  })

/** One section of one gym: another gym's section is not found. */
export const getSection = (db: Db, gymId: number, id: number): Promise<SectionRow | undefined> =>
  filtered(db, gymId, {})
    .selectAll('sections')
    .select(climbsUp)
    .where('sections.id', '=', id)
    .$castTo<SectionRow>()
    .executeTakeFirst()

/** The gym's section named `name` in any case (the column compares with NOCASE), other than `exceptId`. */
export const findSectionByName = (
  db: Db,
  gymId: number,
  name: string,
  exceptId?: number,
): Promise<{ id: number } | undefined> => {
  let query = db.selectFrom('sections').select('id').where('gym_id', '=', gymId).where('name', '=', name)
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId)
  return query.executeTakeFirst()
}

/** How many climbs up in the section a section of `discipline` could not hold (climbDisciplinesOf). */
export async function climbsUpNotSuiting(db: Db, sectionId: number, discipline: SectionDiscipline) {
  if (discipline === 'MIX') return 0
  const row = await db
    .selectFrom('climbs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('section_id', '=', sectionId)
    .where('stripped_date', 'is', null)
    .where('discipline', 'not in', climbDisciplinesOf[discipline])
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Whether any climb, up or stripped, was ever in this section. */
export const sectionHasClimbs = async (db: Db, sectionId: number): Promise<boolean> =>
  (await db
    .selectFrom('climbs')
    .select('id')
    .where('section_id', '=', sectionId)
    .limit(1)
    .executeTakeFirst()) !== undefined

export async function insertSection(db: Db, section: Insertable<SectionTable>): Promise<number> {
  return (await db.insertInto('sections').values(section).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateSection(db: Db, id: number, changes: Updateable<SectionTable>): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('sections').set(set).where('id', '=', id).execute()
}

export async function deleteSection(db: Db, id: number): Promise<void> {
  await db.deleteFrom('sections').where('id', '=', id).execute()
}
