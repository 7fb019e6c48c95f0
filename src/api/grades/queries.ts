import { sql, type Insertable, type Selectable, type Updateable } from 'kysely'
import type { GradeDiscipline } from '../../core/walls/disciplines.ts'
import { definedChanges } from '../../db/changes.ts'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { GradeTable } from '../../db/tables/walls.ts'

export type GradeRow = Selectable<GradeTable>

export interface GradeFilters {
  discipline?: GradeDiscipline
  is_active?: boolean
}

function filtered(db: Db, gymId: number, filters: GradeFilters) {
  let query = db.selectFrom('grades').where('gym_id', '=', gymId)
  if (filters.discipline !== undefined) query = query.where('discipline', '=', filters.discipline)
  if (filters.is_active !== undefined) query = query.where('is_active', '=', filters.is_active ? 1 : 0)
  return query
}

/** A gym's grades as its scales read: by discipline (BOU, then ROP), then rank, then id. */
export const listGrades = (db: Db, gymId: number, filters: GradeFilters): ListSource<GradeRow> =>
  listFrom(filtered(db, gymId, filters), {
    order: (query) => query.orderBy('discipline').orderBy('rank').orderBy('id'),
    rows: (page) => page.selectAll().execute(),
  })

/** One grade of one gym: another gym's grade is not found. */
export const getGrade = (db: Db, gymId: number, id: number): Promise<GradeRow | undefined> =>
  filtered(db, gymId, {}).selectAll().where('id', '=', id).executeTakeFirst()

/** Grades of one gym by id, in the order of `ids`. */
export async function getGrades(db: Db, gymId: number, ids: number[]): Promise<GradeRow[]> {
  if (ids.length === 0) return []
  const rows = await filtered(db, gymId, {}).selectAll().where('id', 'in', ids).execute()
  const byId = new Map(rows.map((row) => [row.id, row]))
  return ids.map((id) => byId.get(id)!)
}

/**
 * The gym's grade of `discipline` named `name` in any case (the column compares with NOCASE, as
 * its unique index does), other than `exceptId`.
 */
export const findGradeByName = (
  db: Db,
  gymId: number,
  discipline: GradeDiscipline,
  name: string,
  exceptId?: number,
): Promise<{ id: number } | undefined> => {
  let query = db
    .selectFrom('grades')
    .select('id')
    .where('gym_id', '=', gymId)
    .where('discipline', '=', discipline)
    .where('name', '=', name)
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId)
  return query.executeTakeFirst()
}

/** The names of the gym's grades of `discipline`, as stored. */
export const gradeNames = async (db: Db, gymId: number, discipline: GradeDiscipline): Promise<string[]> =>
  (
    await db
      .selectFrom('grades')
      .select('name')
      .where('gym_id', '=', gymId)
      .where('discipline', '=', discipline)
      .execute()
  ).map((row) => row.name)

/** The rank after the gym's highest of `discipline`; 0 when it has no grade of it yet. */
export async function nextRank(db: Db, gymId: number, discipline: GradeDiscipline): Promise<number> {
  const row = await db
    .selectFrom('grades')
    .select(sql<number | null>`max(rank)`.as('top'))
    .where('gym_id', '=', gymId)
    .where('discipline', '=', discipline)
    .executeTakeFirstOrThrow()
  return row.top === null ? 0 : row.top + 1
}

/** Whether any climb, up or stripped, is of this grade. */
export const gradeInUse = async (db: Db, gradeId: number): Promise<boolean> =>
  (await db.selectFrom('climbs').select('id').where('grade_id', '=', gradeId).limit(1).executeTakeFirst()) !==
  undefined

export async function insertGrade(db: Db, grade: Insertable<GradeTable>): Promise<number> {
  return (await db.insertInto('grades').values(grade).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateGrade(db: Db, id: number, changes: Updateable<GradeTable>): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('grades').set(set).where('id', '=', id).execute()
}

export async function deleteGrade(db: Db, id: number): Promise<void> {
  await db.deleteFrom('grades').where('id', '=', id).execute()
}
