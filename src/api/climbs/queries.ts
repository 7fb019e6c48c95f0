import type { Insertable, SelectQueryBuilder, Updateable } from 'kysely'
import {
  climbDisciplinesOf,
  type ClimbDiscipline,
  type GradeDiscipline,
} from '../../core/walls/disciplines.ts'
import { definedChanges } from '../../db/changes.ts'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { Climb, Database, Grade, Section, StaffUser } from '../../db/schema.ts'
import type { ClimbTable } from '../../db/tables/walls.ts'
import { searchTerms } from '../../db/text-search.ts'
import { localDate } from '../../lib/local-time.ts'

/** A climb's setter as a climb names them. */
export type Setter = Pick<StaffUser, 'id' | 'first_name' | 'last_name' | 'email'>

/**
 * A climb as the API shows it: its row, its section's and grade's names, its setters in order, and
 * the gym's local day it was read on (what `days_up` counts to while it is up).
 */
export interface ClimbRow extends Climb {
  section_name: string
  grade_name: string
  setters: Setter[]
  today: string
}

export interface ClimbFilters {
  section_id?: number
  grade_id?: number
  discipline?: ClimbDiscipline
  setter_id?: number
  is_up?: boolean
  set_after?: string
  set_before?: string
  search?: string
}

type ClimbQuery = SelectQueryBuilder<Database, 'climbs', {}>

/** The gym's time zone; undefined when there is no such gym. */
export const gymTimeZone = async (db: Db, gymId: number): Promise<string | undefined> =>
  (await db.selectFrom('gyms').select('time_zone').where('id', '=', gymId).executeTakeFirst())?.time_zone

export const gymExists = async (db: Db, gymId: number): Promise<boolean> =>
  (await gymTimeZone(db, gymId)) !== undefined

function filtered(db: Db, gymId: number, filters: ClimbFilters): ClimbQuery {
  let query = db.selectFrom('climbs').where('climbs.gym_id', '=', gymId)
  if (filters.section_id !== undefined) query = query.where('climbs.section_id', '=', filters.section_id)
  if (filters.grade_id !== undefined) query = query.where('climbs.grade_id', '=', filters.grade_id)
  if (filters.discipline !== undefined) query = query.where('climbs.discipline', '=', filters.discipline)
  if (filters.setter_id !== undefined) {
    const setterId = filters.setter_id
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('climb_setters')
          .select('climb_setters.climb_id')
          .whereRef('climb_setters.climb_id', '=', 'climbs.id')
          .where('climb_setters.staff_user_id', '=', setterId),
      ),
    )
  }
  if (filters.is_up !== undefined)
    query = query.where('climbs.stripped_date', filters.is_up ? 'is' : 'is not', null)
  if (filters.set_after !== undefined) query = query.where('climbs.set_date', '>=', filters.set_after)
  if (filters.set_before !== undefined) query = query.where('climbs.set_date', '<', filters.set_before)
  if (filters.search !== undefined) {
    const search = filters.search
    query = query.where((eb) => searchTerms(eb, ['climbs.name', 'climbs.hold_color'], search))
  }
  return query
}

/**
 * The climbs of `query` with their section's, grade's and setters' names, read on `now`: two
 * statements whatever the number of climbs (the setters of all of them in one).
 */
async function readClimbs(db: Db, query: ClimbQuery, now: Date): Promise<ClimbRow[]> {
  const climbs = await query
    .innerJoin('sections', 'sections.id', 'climbs.section_id')
    .innerJoin('grades', 'grades.id', 'climbs.grade_id')
    .innerJoin('gyms', 'gyms.id', 'climbs.gym_id')
    .selectAll('climbs')
    .select(['sections.name as section_name', 'grades.name as grade_name', 'gyms.time_zone'])
    .execute()
  if (climbs.length === 0) return []
  const setters = await db
    .selectFrom('climb_setters')
    .innerJoin('staff_users', 'staff_users.id', 'climb_setters.staff_user_id')
    .select([
      'climb_setters.climb_id',
      'staff_users.id',
      'staff_users.first_name',
      'staff_users.last_name',
      'staff_users.email',
    ])
    .where(
      'climb_setters.climb_id',
      'in',
      climbs.map((climb) => climb.id),
    )
    .orderBy('climb_setters.climb_id')
    .orderBy('climb_setters.position')
    .execute()
  const byClimb = new Map<number, Setter[]>()
  for (const { climb_id, ...setter } of setters) {
    const list = byClimb.get(climb_id)
    if (list) list.push(setter)
    else byClimb.set(climb_id, [setter])
  }
  // One gym per read, so one zone: its today is worked out once.
  const todayIn = new Map<string, string>()
  return climbs.map(({ time_zone, ...climb }) => {
    let today = todayIn.get(time_zone)
    if (today === undefined) todayIn.set(time_zone, (today = localDate(now, time_zone)))
    return { ...climb, setters: byClimb.get(climb.id) ?? [], today }
  })
}

/** A gym's climbs: newest set_date first, then newest id. */
export const listClimbs = (db: Db, gymId: number, filters: ClimbFilters, now: Date): ListSource<ClimbRow> =>
  listFrom(filtered(db, gymId, filters), {
    order: (query) => query.orderBy('climbs.set_date', 'desc').orderBy('climbs.id', 'desc'),
    rows: (page) => readClimbs(db, page, now),
  })

/** One climb of one gym: another gym's climb is not found. */
export const getClimb = async (db: Db, gymId: number, id: number, now: Date): Promise<ClimbRow | undefined> =>
  (await readClimbs(db, filtered(db, gymId, {}).where('climbs.id', '=', id), now))[0]

/**
 * The gym's climbs of `discipline` up whose planned strip date is `today` or past: the longest
 * overdue first (planned_strip_date, then set_date, then id).
 */
export const listClimbsDue = (
  db: Db,
  gymId: number,
  discipline: GradeDiscipline,
  today: string,
  now: Date,
): Promise<ClimbRow[]> =>
  readClimbs(
    db,
    filtered(db, gymId, { is_up: true })
      .where('climbs.discipline', 'in', climbDisciplinesOf[discipline])
      .where('climbs.planned_strip_date', '<=', today)
      .orderBy('climbs.planned_strip_date')
      .orderBy('climbs.set_date')
      .orderBy('climbs.id'),
    now,
  )

/** What a climb's rules need of its grade: another gym's grade is not found. */
export const findGrade = (
  db: Db,
  gymId: number,
  id: number,
): Promise<Pick<Grade, 'id' | 'discipline' | 'is_active'> | undefined> =>
  db
    .selectFrom('grades')
    .select(['id', 'discipline', 'is_active'])
    .where('gym_id', '=', gymId)
    .where('id', '=', id)
    .executeTakeFirst()

/** What a climb's rules need of its section: another gym's section is not found. */
export const findSection = (
  db: Db,
  gymId: number,
  id: number,
): Promise<Pick<Section, 'id' | 'discipline' | 'is_active'> | undefined> =>
  db
    .selectFrom('sections')
    .select(['id', 'discipline', 'is_active'])
    .where('gym_id', '=', gymId)
    .where('id', '=', id)
    .executeTakeFirst()

/** Whether each of `ids` that names a staff user is active, by id (an unknown id is absent). */
export async function staffActivity(db: Db, ids: readonly number[]): Promise<Map<number, boolean>> {
  if (ids.length === 0) return new Map()
  const users = await db
    .selectFrom('staff_users')
    .select(['id', 'is_active'])
    .where('id', 'in', [...ids])
    .execute()
  return new Map(users.map((user) => [user.id, user.is_active === 1]))
}

const writeSetters = async (db: Db, climbId: number, setterIds: readonly number[]) => {
  await db
    .insertInto('climb_setters')
    .values(setterIds.map((staff_user_id, position) => ({ climb_id: climbId, staff_user_id, position })))
    .execute()
}

export async function insertClimb(
  db: Db,
  climb: Insertable<ClimbTable>,
  setterIds: readonly number[],
): Promise<number> {
  const { id } = await db.insertInto('climbs').values(climb).returning('id').executeTakeFirstOrThrow()
  await writeSetters(db, id, setterIds)
  return id
}

/** The columns sent change; `setterIds`, when given, replaces the setters in their new order. */
export async function updateClimb(
  db: Db,
  id: number,
  changes: Updateable<ClimbTable>,
  setterIds: readonly number[] | undefined,
): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('climbs').set(set).where('id', '=', id).execute()
  if (setterIds === undefined) return
  await db.deleteFrom('climb_setters').where('climb_id', '=', id).execute()
  await writeSetters(db, id, setterIds)
}

export async function deleteClimb(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('climb_setters').where('climb_id', '=', id).execute()
    await trx.deleteFrom('climbs').where('id', '=', id).execute()
  })
}

/**
 * Who may be named as a setter of the gym's climbs, as the Walls screen offers them: the active staff
 * users who may write climbs (`can_manage_climbs`, admins) and those who have set a climb here.
 */
export const listSetterChoices = (db: Db, gymId: number) =>
  db
    .selectFrom('staff_users as u')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email'])
    .where('u.is_active', '=', 1)
    .where(({ or, eb, exists, selectFrom }) =>
      or([
        eb('u.can_manage_climbs', '=', 1),
        eb('u.is_organization_admin', '=', 1),
        exists(
          selectFrom('climb_setters as cs')
            .innerJoin('climbs as c', 'c.id', 'cs.climb_id')
            .select('cs.climb_id')
            .whereRef('cs.staff_user_id', '=', 'u.id')
            .where('c.gym_id', '=', gymId),
        ),
      ]),
    )
    .execute()
