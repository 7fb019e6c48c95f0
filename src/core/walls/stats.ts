import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { addDays } from '../../lib/local-time.ts'
import { climbDisciplinesOf, type GradeDiscipline } from './disciplines.ts'
import { compareNames, staffName } from '../../domain/staff-names.ts'

/*
 * A gym's walls at a glance, for one discipline (walls.md's stats): what is up, against the grade
 * curve and by section, and who has been setting. A discipline is a grade's (BOU, ROP): ROP counts
 * every rope climb (TR, LEA, AUT). Each part is one grouped statement over the gym's climbs, so the
 * cost grows with the climbs, never with a statement per grade, section or setter.
 */

export interface GradeCount {
  grade_id: number
  grade_name: string
  rank: number
  up: number
  target_count: number | null
}

export interface SectionCount {
  section_id: number
  section_name: string
  up: number
  oldest_set_date: string | null
  last_reset_date: string | null
}

export interface SetterCount {
  setter_id: number
  name: string
  set_last_30_days: number
  set_last_365_days: number
}

export interface WallStats {
  climbs_up: number
  by_grade: GradeCount[]
  by_section: SectionCount[]
  by_setter: SetterCount[]
}

/** The windows by_setter counts in: the last N local days, today the last of them. */
export const SETTING_WINDOWS = { recent: 30, year: 365 } as const

/**
 * The stats of `gymId`'s climbs of `discipline` on the gym's local day `today`:
 *
 * - climbs_up: every climb of the discipline up, whatever its grade or section;
 * - by_grade: the gym's active grades of the discipline in rank order, each with its climbs up (0
 *   when none);
 * - by_section: the gym's active sections of the discipline and MIX, by sort_order then name, each
 *   with its climbs of the discipline up and the oldest set date among them;
 * - by_setter: every staff user who set a climb of the discipline here, with how many they set
 *   (set_date) in the last 30 and 365 days, today included; busiest of the last 30 days first, then
 *   of the year, then by name.
 */
export async function wallStats(
  db: Db,
  gymId: number,
  discipline: GradeDiscipline,
  today: string,
): Promise<WallStats> {
  const disciplines = climbDisciplinesOf[discipline]
  const [up, grades, sections, setterCounts, setters] = await Promise.all([
    db
      .selectFrom('climbs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('gym_id', '=', gymId)
      .where('stripped_date', 'is', null)
      .where('discipline', 'in', disciplines)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('grades as g')
      .leftJoin('climbs as c', (join) =>
        join
          .onRef('c.grade_id', '=', 'g.id')
          .on('c.stripped_date', 'is', null)
          .on('c.discipline', 'in', disciplines),
      )
      .select((eb) => ['g.id', 'g.name', 'g.rank', 'g.target_count', eb.fn.count<number>('c.id').as('up')])
      .where('g.gym_id', '=', gymId)
      .where('g.discipline', '=', discipline)
      .where('g.is_active', '=', 1)
      .groupBy('g.id')
      .orderBy('g.rank')
      .orderBy('g.id')
      .execute(),
    db
      .selectFrom('sections as s')
      .leftJoin('climbs as c', (join) =>
        join
          .onRef('c.section_id', '=', 's.id')
          .on('c.stripped_date', 'is', null)
          .on('c.discipline', 'in', disciplines),
      )
      .select((eb) => [
        's.id',
        's.name',
        's.last_reset_date',
        eb.fn.count<number>('c.id').as('up'),
        eb.fn.min<string | null>('c.set_date').as('oldest_set_date'),
      ])
      .where('s.gym_id', '=', gymId)
      .where('s.discipline', 'in', [discipline, 'MIX'])
      .where('s.is_active', '=', 1)
      .groupBy('s.id')
      // name is COLLATE NOCASE: "the cave" sorts beside "The Cave".
      .orderBy('s.sort_order')
      .orderBy('s.name')
      .orderBy('s.id')
      .execute(),
    // The year's climbs only, by the gym's set_date index: years of history are not read for it.
    db
      .selectFrom('climbs as c')
      .innerJoin('climb_setters as cs', 'cs.climb_id', 'c.id')
      .select([
        'cs.staff_user_id',
        setSince(addDays(today, 1 - SETTING_WINDOWS.recent), today).as('recent'),
        setSince(addDays(today, 1 - SETTING_WINDOWS.year), today).as('year'),
      ])
      .where('c.gym_id', '=', gymId)
      .where('c.discipline', 'in', disciplines)
      .where('c.set_date', '>=', addDays(today, 1 - SETTING_WINDOWS.year))
      .groupBy('cs.staff_user_id')
      .execute(),
    // Everyone who ever set here, a staff user at a time: their first such climb ends the search.
    db
      .selectFrom('staff_users as u')
      .select(['u.id', 'u.first_name', 'u.last_name', 'u.email'])
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('climb_setters as cs')
            .innerJoin('climbs as c', 'c.id', 'cs.climb_id')
            .select('cs.climb_id')
            .whereRef('cs.staff_user_id', '=', 'u.id')
            .where('c.gym_id', '=', gymId)
            .where('c.discipline', 'in', disciplines),
        ),
      )
      .execute(),
  ])
  const counted = new Map(setterCounts.map((row) => [row.staff_user_id, row]))
  const bySetter = setters
    .map((user) => ({
      setter_id: user.id,
      name: staffName(user),
      set_last_30_days: Number(counted.get(user.id)?.recent ?? 0),
      set_last_365_days: Number(counted.get(user.id)?.year ?? 0),
    }))
    .sort(
      (a, b) =>
        b.set_last_30_days - a.set_last_30_days ||
        b.set_last_365_days - a.set_last_365_days ||
        compareNames(a.name, b.name) ||
        a.setter_id - b.setter_id,
    )
  return {
    climbs_up: Number(up.n),
    by_grade: grades.map((grade) => ({
      grade_id: grade.id,
      grade_name: grade.name,
      rank: grade.rank,
      up: Number(grade.up),
      target_count: grade.target_count,
    })),
    by_section: sections.map((section) => ({
      section_id: section.id,
      section_name: section.name,
      up: Number(section.up),
      oldest_set_date: section.oldest_set_date,
      last_reset_date: section.last_reset_date,
    })),
    by_setter: bySetter,
  }
}

/** How many of the group's climbs were set from `first` through `last` (local dates). */
const setSince = (first: string, last: string) =>
  sql<number>`coalesce(sum(c.set_date >= ${first} AND c.set_date <= ${last}), 0)`
