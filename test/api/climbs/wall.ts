import { beforeEach } from 'bun:test'
import type { Grade, Gym, Section, StaffUser } from '../../../src/db/schema.ts'
import { addDays } from '../../../src/lib/local-time.ts'
import { ORIGIN, START } from '../../helpers/app.ts'
import { makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import type { SeededApp } from '../../helpers/seeded.ts'
import { makeGrade, makeSection } from '../../helpers/walls-factories.ts'

/** START's local day in Denver, the seeded gym's zone (START is 08:04 there). */
export const TODAY = START.slice(0, 10)
export const daysAgo = (days: number) => addDays(TODAY, -days)

/** The instant a Denver day begins, in November (UTC-7): for moving the test clock to a new day. */
export const denverMidnight = (date: string) => `${date}T07:00:00.000Z`

export type Setter = StaffUser & { token: string }

/**
 * One gym's walls for the climbs' tests: boulder grades V2 and V4, a rope grade 5.10a, the boulder
 * section The Cave, the rope section The Tower and the mixed Kids Wall; two setters with
 * can_manage_climbs (Ana Lopez and Ben Ng); and another gym with a grade and a section of its own.
 */
export interface Wall {
  gym: Gym
  v2: Grade
  v4: Grade
  rope: Grade
  cave: Section
  tower: Section
  kids: Section
  ana: Setter
  ben: Setter
  otherGym: Gym
  otherGrade: Grade
  otherSection: Section
}

export async function makeSetter(
  t: SeededApp,
  fields: {
    first_name?: string
    last_name?: string
    email?: string
    can_manage_climbs?: 0 | 1
    is_active?: 0 | 1
  } = {},
): Promise<Setter> {
  const user = await makeUser(t.db, { can_manage_climbs: 1, ...fields })
  return { ...user, token: await makeToken(t.db, user) }
}

/** The wall, built before each test (after the app and its seed). Read it inside tests only. */
export function useWall(t: SeededApp): Wall {
  const wall = {} as Wall
  beforeEach(async () => {
    const gym = t.seed.gym
    const otherGym = await makeGym(t.db, { name: 'Boulder Barn Uptown' })
    Object.assign(wall, {
      gym,
      v2: await makeGrade(t.db, gym.id, { name: 'V2', rank: 2, target_count: 6 }),
      v4: await makeGrade(t.db, gym.id, { name: 'V4', rank: 4, target_count: 4 }),
      rope: await makeGrade(t.db, gym.id, { name: '5.10a', system: 'YDS', discipline: 'ROP', rank: 10 }),
      cave: await makeSection(t.db, gym.id, { name: 'The Cave', discipline: 'BOU', sort_order: 1 }),
      tower: await makeSection(t.db, gym.id, { name: 'The Tower', discipline: 'ROP', sort_order: 2 }),
      kids: await makeSection(t.db, gym.id, { name: 'Kids Wall', discipline: 'MIX', sort_order: 3 }),
      ana: await makeSetter(t, { first_name: 'Ana', last_name: 'Lopez' }),
      ben: await makeSetter(t, { first_name: 'Ben', last_name: 'Ng' }),
      otherGym,
      otherGrade: await makeGrade(t.db, otherGym.id, { name: 'V4' }),
      otherSection: await makeSection(t.db, otherGym.id, { name: 'Annex' }),
    } satisfies Wall)
  })
  return wall
}

export const climbsPath = (gymId: number) => `/api/gyms/${gymId}/climbs/`
export const climbPath = (gymId: number, id: number) => `/api/gyms/${gymId}/climbs/${id}/`

/**
 * The whole record the API answers for a climb of `wall`'s gym: by default a teal V4 boulder in
 * The Cave set today by nobody (as makeClimb makes it without setters), then `fields`.
 */
export function climbBody(wall: Wall, id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}${climbPath(wall.gym.id, id)}`,
    gym_id: wall.gym.id,
    section_id: wall.cave.id,
    section_name: 'The Cave',
    grade_id: wall.v4.id,
    grade_name: 'V4',
    discipline: 'BOU',
    name: '',
    hold_color: 'teal',
    color_hex: null,
    setter_ids: [],
    setter_names: [],
    set_date: TODAY,
    planned_strip_date: null,
    stripped_date: null,
    is_up: true,
    days_up: 0,
    description: '',
    created_at: START,
    updated_at: START,
    ...fields,
  }
}
