import { gradeDisciplineOf, type ClimbDiscipline, type GradeDiscipline } from '../core/walls/disciplines.ts'
import { type DemoContext, type DemoSetter, type Row, stream } from './context.ts'
import type { Random } from './random.ts'
import {
  BOULDER_NOTES,
  CLIMB_NAMES,
  HARDEST_AUTO_BELAY,
  HOLD_COLORS,
  SCALES,
  WALL_HISTORY_DAYS,
  WALLS,
  type SectionSpec,
} from './walls-catalog.ts'

/*
 * Route setting (walls.md): each gym's grade scales with their targets, its sections, and two years
 * of climbs set and stripped the way a setting crew works. A gym resets one section at a time in a
 * rotation, bouldering and rope walls each on their own weekdays: a reset strips every climb up in
 * the section and sets the new ones the same day, which stay up until the section's next turn. The
 * setters pick each new climb's grade where the gym's curve falls furthest short of its targets,
 * so the climbs up follow the targets while the stripped ones make the history.
 */

/** Grades of a gym: their ids and targets in rank order, per discipline. */
interface GymGrades {
  id: number[]
  name: string[]
  target: number[]
}

interface Rotation {
  sections: DemoSection[]
  days: readonly number[]
  next: number
  /** How long, in days, the setters plan a climb of this rotation to stay up. */
  planDays: number
}

interface DemoSection {
  row: Row<'sections'>
  spec: SectionSpec
  /** The climbs up in it. */
  up: Row<'climbs'>[]
}

interface GymWalls {
  gymId: number
  grades: Record<GradeDiscipline, GymGrades>
  /** Climbs up of each grade, by grade id. */
  upByGrade: Map<number, number>
  rotations: Rotation[]
  setters: DemoSetter[]
}

/**
 * Grades, sections, climbs and their setters for every gym, in day order across the gyms (so ids
 * follow the days as the API would have given them).
 */
export function buildWalls(ctx: DemoContext): void {
  const rng = stream(ctx, 'walls')
  const { cal, rows, ids } = ctx
  const first = cal.today - WALL_HISTORY_DAYS - 6 * 7
  // The walls were set up the day before the rotation that fills them begins.
  const made = cal.stamp(first - 1, 9 * 60)
  const gyms: GymWalls[] = ctx.gyms.map((gym) => {
    const spec = WALLS[gym.index] ?? WALLS[WALLS.length - 1]!
    const sections = spec.sections.map((section, sortOrder): DemoSection => {
      const row: Row<'sections'> = {
        id: ids.take('sections'),
        gym_id: gym.id,
        name: section.name,
        discipline: section.discipline,
        sort_order: sortOrder,
        description: section.description,
        is_active: 1,
        last_reset_date: null,
        created_at: made,
        updated_at: made,
      }
      rows.sections.push(row)
      return { row, spec: section, up: [] }
    })
    const upOf = (discipline: GradeDiscipline) =>
      spec.sections.reduce(
        (sum, s) =>
          sum +
          Object.entries(s.climbs)
            .filter(([d]) => gradeDisciplineOf(d as ClimbDiscipline) === discipline)
            .reduce((n, [, count]) => n + count, 0),
        0,
      )
    const grades = {} as Record<GradeDiscipline, GymGrades>
    for (const scale of SCALES) {
      const total = scale.grades.reduce((sum, [, share]) => sum + share, 0)
      const wallSize = upOf(scale.discipline)
      const gymGrades: GymGrades = { id: [], name: [], target: [] }
      scale.grades.forEach(([name, share], rank) => {
        // Even the hardest grade has a climb or two to aim for.
        const target = Math.max(1, Math.round((share / total) * wallSize))
        const id = ids.take('grades')
        rows.grades.push({
          id,
          gym_id: gym.id,
          name,
          system: scale.system,
          discipline: scale.discipline,
          rank,
          color_hex: null,
          target_count: target,
          is_active: 1,
          created_at: made,
          updated_at: made,
        })
        gymGrades.id.push(id)
        gymGrades.name.push(name)
        gymGrades.target.push(target)
      })
      grades[scale.discipline] = gymGrades
    }
    const rotation = (members: DemoSection[], days: readonly number[]): Rotation => {
      // A section comes round every `cycle` days; the plan is a week shorter, so the setters are
      // always a little behind it and "due to strip" always has climbs in it, as at a real gym.
      const cycle = (7 * members.length) / days.length
      return { sections: members, days, next: 0, planDays: 7 * (Math.ceil(cycle / 7) - 1) }
    }
    return {
      gymId: gym.id,
      grades,
      upByGrade: new Map(),
      rotations: [
        rotation(
          sections.filter((s) => s.spec.discipline !== 'ROP'),
          spec.boulderDays,
        ),
        rotation(
          sections.filter((s) => s.spec.discipline === 'ROP'),
          spec.ropeDays,
        ),
      ],
      setters: ctx.staff.setters.filter((s) => s.gymId === gym.id),
    }
  })

  for (let day = first; day < cal.today; day++) {
    const weekday = cal.weekday(day)
    for (const gym of gyms)
      for (const rotation of gym.rotations) {
        if (rotation.sections.length === 0 || !rotation.days.includes(weekday)) continue
        // Now and then a setting day is lost (a competition, a holiday, a crew out sick) and the
        // rotation waits.
        if (rng.chance(0.05)) continue
        const section = rotation.sections[rotation.next++ % rotation.sections.length]!
        resetSection(ctx, rng, gym, section, day, rotation.planDays)
      }
  }
}

/** Strips every climb up in `section` on `day` and sets its new climbs the same day. */
function resetSection(
  ctx: DemoContext,
  rng: Random,
  gym: GymWalls,
  section: DemoSection,
  day: number,
  planDays: number,
): void {
  const { cal, rows, ids } = ctx
  const date = cal.date(day)
  // Stripped first thing in the morning, before the gym opens.
  const stripped = cal.stamp(day, 7 * 60)
  for (const climb of section.up) {
    climb.stripped_date = date
    climb.updated_at = stripped
    gym.upByGrade.set(climb.grade_id, gym.upByGrade.get(climb.grade_id)! - 1)
  }
  section.up = []
  section.row.last_reset_date = date
  section.row.updated_at = stripped

  const eligible = gym.setters.filter((s) => s.joinedDay <= day)
  const crew = rng.sample(eligible.length > 0 ? eligible : gym.setters, rng.int(2, 3))
  const planned = cal.date(day + planDays)
  let slot = 0
  for (const [discipline, count] of Object.entries(section.spec.climbs) as [ClimbDiscipline, number][]) {
    const grades = gym.grades[gradeDisciplineOf(discipline)]
    const hardest =
      discipline === 'AUT' ? HARDEST_AUTO_BELAY : discipline === 'BOU' ? section.spec.hardest : undefined
    const top = hardest === undefined ? grades.id.length - 1 : grades.name.indexOf(hardest)
    for (let n = 0; n < count; n++) {
      const gradeId = drawGrade(rng, gym, grades, top)
      gym.upByGrade.set(gradeId, (gym.upByGrade.get(gradeId) ?? 0) + 1)
      const [holdColor, colorHex] = rng.pick(HOLD_COLORS)
      const named = rng.chance(discipline === 'BOU' ? 0.25 : 0.6)
      const id = ids.take('climbs')
      // Entered as each goes up through the setting day.
      const at = cal.stamp(day, Math.min(9 * 60 + slot++ * 12 + rng.int(0, 9), 20 * 60))
      const climb: Row<'climbs'> = {
        id,
        gym_id: gym.gymId,
        section_id: section.row.id!,
        grade_id: gradeId,
        discipline,
        name: named ? rng.pick(CLIMB_NAMES) : '',
        hold_color: holdColor,
        color_hex: colorHex,
        set_date: date,
        // Now and then a setter leaves the planned date out.
        planned_strip_date: rng.chance(0.08) ? null : planned,
        stripped_date: null,
        description: discipline === 'BOU' && rng.chance(0.1) ? rng.pick(BOULDER_NOTES) : '',
        created_at: at,
        updated_at: at,
      }
      rows.climbs.push(climb)
      section.up.push(climb)
      const setters = crew.length > 1 && rng.chance(0.3) ? rng.sample(crew, 2) : [rng.pick(crew)]
      setters.forEach((setter, position) =>
        rows.climb_setters.push({ climb_id: id, staff_user_id: setter.id, position }),
      )
    }
  }
}

/**
 * A grade for a new climb, at most rank `top`: drawn by how far each grade's climbs up fall short
 * of its target, so the wall tends back to the gym's curve, with a little weight on every grade so
 * that a full grade still turns up now and then.
 */
function drawGrade(rng: Random, gym: GymWalls, grades: GymGrades, top: number): number {
  let total = 0
  const weights: number[] = []
  for (let rank = 0; rank <= top; rank++) {
    const short = grades.target[rank]! - (gym.upByGrade.get(grades.id[rank]!) ?? 0)
    const weight = Math.max(short, 0) + 0.2
    weights.push(weight)
    total += weight
  }
  let x = rng.next() * total
  for (let rank = 0; rank <= top; rank++) {
    x -= weights[rank]!
    if (x < 0) return grades.id[rank]!
  }
  return grades.id[top]!
}
