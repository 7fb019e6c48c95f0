/**
 * The demo's route setting: each gym's grade scales and sections, and two years of climbs that
 * are consistent as the API would have kept them (every climb's grade and section its gym's, of a
 * discipline that suits both, stripped no earlier than it was set and only by its section's next
 * reset, set by the gym's setters), with the climbs up following the targets and some due to strip,
 * and the climbs API reading them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { createApp } from '../../src/app.ts'
import { DEMO_ADMIN_EMAIL, seedDemoData, type DemoSummary } from '../../src/demo/index.ts'
import { WALL_HISTORY_DAYS } from '../../src/demo/walls-catalog.ts'
import { openDatabase, type Connection, type Db } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { localDate } from '../../src/lib/local-time.ts'
import { checkedApp, depsFor, START } from '../helpers/app.ts'
import { makeToken } from '../helpers/factories.ts'

const NOW = new Date(START)
const ZONE = 'America/Denver'
/** START (15:04Z) is 08:04 in Denver on the same day. */
const TODAY = '2026-11-22'

const open: Connection[] = []
afterAll(async () => {
  for (const c of open) await c.close()
})

/** The rows a query finds: each consistency query names what breaks the rule, so the answer is none. */
const rowsOf = async <R>(db: Db, query: ReturnType<typeof sql<R>>): Promise<R[]> =>
  (await query.execute(db)).rows

describe("the small demo's walls", () => {
  let db: Db
  let connection: Connection
  let summary: DemoSummary
  beforeAll(async () => {
    connection = openDatabase(':memory:')
    open.push(connection)
    await migrateToLatest(connection.db)
    db = connection.db
    summary = await seedDemoData(db, { size: 'small', seed: 1, now: NOW })
  })

  test('the same seed gives these counts, the summary says them, and every reference names a row', async () => {
    const byGym = await rowsOf<{ gym_id: number; climbs: number; up: number }>(
      db,
      sql`select gym_id, count(*) as climbs, sum(stripped_date is null) as up
          from climbs group by gym_id order by gym_id`,
    )
    expect({
      grades: summary.counts.grades,
      sections: summary.counts.sections,
      climbs: summary.counts.climbs,
      climb_setters: summary.counts.climb_setters,
      climbsUp: summary.climbsUp,
      byGym,
    }).toEqual({
      grades: 62,
      sections: 21,
      climbs: 13766,
      climb_setters: 17634,
      climbsUp: 458,
      byGym: [
        { gym_id: 1, climbs: 7424, up: 300 },
        { gym_id: 2, climbs: 6342, up: 158 },
      ],
    })
    const counted = await rowsOf<{ grades: number; sections: number; setters: number }>(
      db,
      sql`select (select count(*) from grades) as grades, (select count(*) from sections) as sections,
                 (select count(*) from climb_setters) as setters`,
    )
    expect(counted).toEqual([
      {
        grades: summary.counts.grades,
        sections: summary.counts.sections,
        setters: summary.counts.climb_setters,
      },
    ])
    for (const table of ['grades', 'sections', 'climbs', 'climb_setters'])
      expect(await rowsOf(db, sql`pragma foreign_key_check(${sql.raw(table)})`)).toEqual([])
  })

  test('each gym has a V scale for bouldering and a YDS scale for ropes, with a curve of targets', async () => {
    const grades = await db
      .selectFrom('grades')
      .select(['gym_id', 'name', 'system', 'discipline', 'rank', 'target_count', 'is_active'])
      .orderBy('gym_id')
      .orderBy('discipline')
      .orderBy('rank')
      .execute()
    for (const gymId of [1, 2]) {
      const own = grades.filter((g) => g.gym_id === gymId)
      const bou = own.filter((g) => g.discipline === 'BOU')
      const rop = own.filter((g) => g.discipline === 'ROP')
      expect(bou.map((g) => g.name)).toEqual([
        'V0',
        'V1',
        'V2',
        'V3',
        'V4',
        'V5',
        'V6',
        'V7',
        'V8',
        'V9',
        'V10',
      ])
      expect(rop.map((g) => g.name)).toEqual([
        '5.6',
        '5.7',
        '5.8',
        '5.9',
        '5.10a',
        '5.10b',
        '5.10c',
        '5.10d',
        '5.11a',
        '5.11b',
        '5.11c',
        '5.11d',
        '5.12a',
        '5.12b',
        '5.12c',
        '5.12d',
        '5.13a',
        '5.13b',
        '5.13c',
        '5.13d',
      ])
      expect(bou.every((g) => g.system === 'V') && rop.every((g) => g.system === 'YDS')).toBe(true)
      for (const scale of [bou, rop]) {
        expect(scale.map((g) => g.rank)).toEqual(scale.map((_, i) => i))
        expect(scale.every((g) => g.is_active === 1 && g.target_count! > 0)).toBe(true)
        // More of the easy-middle grades than of the hardest: the curve peaks in its first half
        // and falls from there to the top grade.
        const targets = scale.map((g) => g.target_count!)
        const peak = targets.indexOf(Math.max(...targets))
        expect(peak).toBeGreaterThan(0)
        expect(peak).toBeLessThan(scale.length / 2)
        expect(targets.slice(peak).every((t, i, rest) => i === 0 || t <= rest[i - 1]!)).toBe(true)
        expect(targets.at(-1)! * 3).toBeLessThanOrEqual(targets[peak]!)
      }
    }
  })

  test('the targets add up to the climbs up, and the climbs up follow them', async () => {
    const curve = await rowsOf<{ gym_id: number; discipline: string; target: number; up: number }>(
      db,
      sql`select g.gym_id, g.discipline, g.target_count as target,
                 (select count(*) from climbs c where c.grade_id = g.id and c.stripped_date is null) as up
          from grades g order by g.gym_id, g.discipline, g.rank`,
    )
    for (const gymId of [1, 2])
      for (const discipline of ['BOU', 'ROP']) {
        const scale = curve.filter((g) => g.gym_id === gymId && g.discipline === discipline)
        const targets = scale.reduce((sum, g) => sum + g.target, 0)
        const up = scale.reduce((sum, g) => sum + g.up, 0)
        expect(Math.abs(targets - up)).toBeLessThanOrEqual(scale.length / 2)
        // Each grade within a few climbs of its target.
        for (const g of scale) expect(Math.abs(g.up - g.target)).toBeLessThanOrEqual(3)
      }
  })

  test('each gym has bouldering and rope sections, and the first a mixed one', async () => {
    const sections = await db
      .selectFrom('sections')
      .select(['gym_id', 'name', 'discipline', 'sort_order', 'is_active'])
      .orderBy('gym_id')
      .orderBy('sort_order')
      .execute()
    expect(sections.filter((s) => s.gym_id === 1).map((s) => [s.name, s.discipline])).toEqual([
      ['The Cave', 'BOU'],
      ['Slab Wall', 'BOU'],
      ['The Prow', 'BOU'],
      ['Competition Wall', 'BOU'],
      ['Overhang', 'BOU'],
      ['The Arch', 'BOU'],
      ["Kids' Corner", 'BOU'],
      ['The Annex', 'MIX'],
      ['Lead Cave', 'ROP'],
      ['Auto-belay Alley', 'ROP'],
      ['Top-rope Slab', 'ROP'],
      ['The Tower', 'ROP'],
      ['North Face', 'ROP'],
    ])
    const second = sections.filter((s) => s.gym_id === 2)
    expect(new Set(second.map((s) => s.discipline))).toEqual(new Set(['BOU', 'ROP']))
    expect(sections.every((s) => s.is_active === 1)).toBe(true)
  })

  test("every climb's grade and section are its gym's, of a discipline that suits both", async () => {
    const wrong = await rowsOf(
      db,
      sql`select c.id from climbs c
          join grades g on g.id = c.grade_id join sections s on s.id = c.section_id
          where g.gym_id <> c.gym_id or s.gym_id <> c.gym_id
            or (g.discipline = 'BOU') <> (c.discipline = 'BOU')
            or (s.discipline = 'BOU' and c.discipline <> 'BOU')
            or (s.discipline = 'ROP' and c.discipline = 'BOU')`,
    )
    expect(wrong).toEqual([])
    const kinds = await rowsOf<{ discipline: string }>(
      db,
      sql`select distinct discipline from climbs order by discipline`,
    )
    expect(kinds.map((k) => k.discipline)).toEqual(['AUT', 'BOU', 'LEA', 'TR'])
    // The kids' wall goes no harder than V3, auto-belay lines no harder than 5.10d.
    const tooHard = await rowsOf(
      db,
      sql`select c.id from climbs c join grades g on g.id = c.grade_id join sections s on s.id = c.section_id
          where (s.name = 'Kids'' Corner' and g.rank > 3) or (c.discipline = 'AUT' and g.rank > 7)`,
    )
    expect(tooHard).toEqual([])
  })

  test('dates: two years of climbs, none set today or later, stripped and planned no earlier than set', async () => {
    const wrong = await rowsOf(
      db,
      sql`select id from climbs
          where set_date >= ${TODAY} or stripped_date >= ${TODAY}
             or stripped_date < set_date or planned_strip_date < set_date
             or created_at > ${NOW.toISOString()} or updated_at < created_at`,
    )
    expect(wrong).toEqual([])
    const span = await rowsOf<{ first: string; last: string }>(
      db,
      sql`select min(set_date) as first, max(set_date) as last from climbs`,
    )
    const daysBefore = (date: string) =>
      (Date.parse(`${TODAY}T00:00:00Z`) - Date.parse(`${date}T00:00:00Z`)) / 86_400_000
    expect(daysBefore(span[0]!.first)).toBeGreaterThanOrEqual(WALL_HISTORY_DAYS)
    expect(daysBefore(span[0]!.first)).toBeLessThanOrEqual(WALL_HISTORY_DAYS + 6 * 7)
    expect(daysBefore(span[0]!.last)).toBeLessThanOrEqual(7)
    // Entered on the day they were set, in the gym's zone.
    const entered = await db.selectFrom('climbs').select(['set_date', 'created_at']).execute()
    expect(entered.filter((c) => localDate(new Date(c.created_at), ZONE) !== c.set_date)).toEqual([])
  })

  test("a section's climbs up were all set at its last reset; each stripped climb came down at its section's next reset", async () => {
    const up = await rowsOf(
      db,
      sql`select c.id from climbs c join sections s on s.id = c.section_id
          where c.stripped_date is null and (s.last_reset_date is null or c.set_date <> s.last_reset_date)`,
    )
    expect(up).toEqual([])
    const climbs = await db
      .selectFrom('climbs')
      .select(['id', 'section_id', 'set_date', 'stripped_date'])
      .orderBy('id')
      .execute()
    /** Each section's reset days: the days its climbs were set, in order. */
    const resets = new Map<number, string[]>()
    for (const c of climbs) resets.set(c.section_id, [...(resets.get(c.section_id) ?? []), c.set_date])
    for (const [section, days] of resets) resets.set(section, [...new Set(days)].sort())
    // A stripped climb came down on the first reset after the one that set it.
    const wrong = climbs.filter((c) => {
      const days = resets.get(c.section_id)!
      const next = days[days.indexOf(c.set_date) + 1] ?? null
      return c.stripped_date !== next
    })
    expect(wrong).toEqual([])
    const sections = await db.selectFrom('sections').select(['id', 'last_reset_date']).execute()
    expect(sections.filter((s) => resets.get(s.id)?.at(-1) !== s.last_reset_date)).toEqual([])
  })

  test('each gym has climbs due to strip in both disciplines, and some not yet due', async () => {
    const due = await rowsOf<{ gym_id: number; discipline: string; due: number; later: number }>(
      db,
      sql`select gym_id, case discipline when 'BOU' then 'BOU' else 'ROP' end as discipline,
                 sum(planned_strip_date <= ${TODAY}) as due, sum(planned_strip_date > ${TODAY}) as later
          from climbs where stripped_date is null group by 1, 2 order by 1, 2`,
    )
    expect(due.map((d) => [d.gym_id, d.discipline])).toEqual([
      [1, 'BOU'],
      [1, 'ROP'],
      [2, 'BOU'],
      [2, 'ROP'],
    ])
    for (const d of due) {
      expect(d.due).toBeGreaterThan(0)
      expect(d.later).toBeGreaterThan(d.due)
    }
  })

  test("one or two setters each, from the climb's gym's route setters, none before they joined", async () => {
    const counts = await rowsOf<{ n: number; climbs: number }>(
      db,
      sql`select n, count(*) as climbs from
            (select c.id, (select count(*) from climb_setters cs where cs.climb_id = c.id) as n from climbs c)
          group by n order by n`,
    )
    expect(counts.map((c) => c.n)).toEqual([1, 2])
    expect(counts[0]!.climbs).toBeGreaterThan(counts[1]!.climbs)
    const wrong = await rowsOf(
      db,
      sql`select cs.climb_id from climb_setters cs join climbs c on c.id = cs.climb_id
          join staff_users u on u.id = cs.staff_user_id
          where u.can_manage_climbs <> 1 or u.is_active <> 1 or u.default_gym_id <> c.gym_id
             or cs.position not in (0, 1)
             or (cs.position = 1 and not exists
                 (select 1 from climb_setters f where f.climb_id = cs.climb_id and f.position = 0))`,
    )
    expect(wrong).toEqual([])
    const joined = await rowsOf<{ date_joined: string; first: string }>(
      db,
      sql`select u.date_joined, min(c.set_date) as first from climb_setters cs
          join climbs c on c.id = cs.climb_id join staff_users u on u.id = cs.staff_user_id group by u.id`,
    )
    expect(joined.filter((u) => localDate(new Date(u.date_joined), ZONE) > u.first)).toEqual([])
    const setters = await rowsOf<{ gym_id: number; setters: number }>(
      db,
      sql`select default_gym_id as gym_id, count(*) as setters from staff_users
          where can_manage_climbs = 1 and is_organization_admin = 0 group by 1 order by 1`,
    )
    expect(setters).toEqual([
      { gym_id: 1, setters: 3 },
      { gym_id: 2, setters: 3 },
    ])
    // Every setter has set climbs in the last month.
    const recent = await rowsOf<{ id: number }>(
      db,
      sql`select distinct cs.staff_user_id as id from climb_setters cs join climbs c on c.id = cs.climb_id
          where c.set_date >= date(${TODAY}, '-30 days')`,
    )
    expect(recent).toHaveLength(6)
  })

  test("the API reads them: each gym's stats have climbs up, due to strip and its setters; the list counts every climb", async () => {
    const app = checkedApp(createApp(depsFor(connection, fixedClock(START))))
    const admin = await db
      .selectFrom('staff_users')
      .selectAll()
      .where('email', '=', DEMO_ADMIN_EMAIL)
      .executeTakeFirstOrThrow()
    const token = await makeToken(db, admin)
    const get = async (path: string) => {
      const response = await app.handle(
        new Request(`http://localhost${path}`, { headers: { authorization: `Token ${token}` } }),
      )
      expect(response.status).toBe(200)
      return response.json() as Promise<any>
    }
    const setters = await db
      .selectFrom('staff_users')
      .select(['id', 'default_gym_id'])
      .where('can_manage_climbs', '=', 1)
      .where('is_organization_admin', '=', 0)
      .orderBy('id')
      .execute()
    for (const gymId of [1, 2]) {
      const up = { BOU: 0, ROP: 0 }
      for (const discipline of ['BOU', 'ROP'] as const) {
        const stats = await get(`/api/gyms/${gymId}/climbs/stats/?discipline=${discipline}`)
        expect(stats.climbs_up).toBeGreaterThan(0)
        expect(stats.by_grade.reduce((sum: number, g: { up: number }) => sum + g.up, 0)).toBe(stats.climbs_up)
        expect(stats.due_to_strip.length).toBeGreaterThan(0)
        const setterIds: number[] = stats.by_setter.map((s: { setter_id: number }) => s.setter_id)
        expect(setterIds.toSorted((a, b) => a - b)).toEqual(
          setters.filter((s) => s.default_gym_id === gymId).map((s) => s.id),
        )
        up[discipline] = stats.climbs_up
      }
      const all = await get(`/api/gyms/${gymId}/climbs/`)
      const listedUp = await get(`/api/gyms/${gymId}/climbs/?is_up=true`)
      const expected = await db
        .selectFrom('climbs')
        .select([(eb) => eb.fn.countAll<number>().as('n'), sql<number>`sum(stripped_date is null)`.as('up')])
        .where('gym_id', '=', gymId)
        .executeTakeFirstOrThrow()
      expect([all.count, listedUp.count]).toEqual([expected.n, expected.up])
      expect(up.BOU + up.ROP).toBe(expected.up)
    }
  })
})
