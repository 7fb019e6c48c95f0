import type { Db } from '../../src/db/connection.ts'
import type { Climb, Grade, Section } from '../../src/db/schema.ts'
import type { ClimbTable, GradeTable, SectionTable } from '../../src/db/tables/walls.ts'
import type { Insertable } from 'kysely'
import { START } from './app.ts'

/*
 * Grades, sections and climbs built straight into the database, for tests that need a wall to
 * stand on rather than the write under test. Dates default to START's local day in Denver.
 */

const FIRST_DAY = START.slice(0, 10)

export function makeGrade(
  db: Db,
  gymId: number,
  fields: Partial<Insertable<GradeTable>> = {},
): Promise<Grade> {
  return db
    .insertInto('grades')
    .values({
      gym_id: gymId,
      name: 'V4',
      system: 'V',
      discipline: 'BOU',
      rank: 4,
      color_hex: null,
      target_count: null,
      created_at: START,
      updated_at: START,
      ...fields,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function makeSection(
  db: Db,
  gymId: number,
  fields: Partial<Insertable<SectionTable>> = {},
): Promise<Section> {
  return db
    .insertInto('sections')
    .values({
      gym_id: gymId,
      name: 'The Cave',
      discipline: 'BOU',
      created_at: START,
      updated_at: START,
      ...fields,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** A climb up (unless `stripped_date` is given) in `section`, of `grade`, set by `setterIds` in order. */
export async function makeClimb(
  db: Db,
  where: { section: Section; grade: Grade; setterIds?: number[] },
  fields: Partial<Insertable<ClimbTable>> = {},
): Promise<Climb> {
  const climb = await db
    .insertInto('climbs')
    .values({
      gym_id: where.section.gym_id,
      section_id: where.section.id,
      grade_id: where.grade.id,
      discipline: where.grade.discipline === 'BOU' ? 'BOU' : 'LEA',
      hold_color: 'teal',
      color_hex: null,
      set_date: FIRST_DAY,
      planned_strip_date: null,
      created_at: START,
      updated_at: START,
      ...fields,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  const setterIds = where.setterIds ?? []
  if (setterIds.length > 0)
    await db
      .insertInto('climb_setters')
      .values(setterIds.map((staff_user_id, position) => ({ climb_id: climb.id, staff_user_id, position })))
      .execute()
  return climb
}
