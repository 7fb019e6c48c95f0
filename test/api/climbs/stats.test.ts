import { describe, expect, test } from 'bun:test'
import { addDays } from '../../../src/lib/local-time.ts'
import { methodNotAllowed, notFound, required } from '../../helpers/bodies.ts'
import { makeUser } from '../../helpers/factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'
import { makeClimb, makeGrade, makeSection } from '../../helpers/walls-factories.ts'
import { climbsPath, daysAgo, denverMidnight, makeSetter, TODAY, useWall } from './wall.ts'

/**
 * GET /api/gyms/<id>/climbs/stats/?discipline=BOU|ROP on a built history: exact bodies, the 30- and
 * 365-day windows moved by the test clock, and the same figures worked out from the climbs, grades
 * and sections lists.
 */

const t = useSeededApp()
const wall = useWall(t)

const statsPath = (query: string, gymId = wall.gym.id) => `${climbsPath(gymId)}stats/?${query}`
const stats = async (discipline: string) => {
  const res = await t.request('GET', statsPath(`discipline=${discipline}`), { token: t.seed.staffToken })
  expect(res.status).toBe(200)
  return res.body
}

/**
 * Two years of walls, in an order unlike any the stats use. The numbers name the climbs in the
 * expectations below.
 */
async function makeHistory() {
  const { gym, cave, tower, kids, v2, v4, rope, ana, ben } = wall
  const v0 = await makeGrade(t.db, gym.id, { name: 'V0', rank: 0, target_count: 8 })
  const v1 = await makeGrade(t.db, gym.id, { name: 'V1', rank: 1 })
  const v9 = await makeGrade(t.db, gym.id, { name: 'V9', rank: 9, is_active: 0 })
  const hard = await makeGrade(t.db, gym.id, {
    name: '5.11a',
    system: 'YDS',
    discipline: 'ROP',
    rank: 11,
    target_count: 3,
  })
  const slab = await makeSection(t.db, gym.id, { name: 'Slab', sort_order: 1, last_reset_date: '2026-10-12' })
  const arch = await makeSection(t.db, gym.id, { name: 'arch', sort_order: 1 })
  const annex = await makeSection(t.db, gym.id, { name: 'Old Annex', is_active: 0 })
  const nameless = await makeUser(t.db, { email: 'setter@gym.example', can_manage_climbs: 1 })
  const carl = await makeUser(t.db, { first_name: 'Carl', last_name: 'Old', is_active: 0 })
  const dee = await makeSetter(t, { first_name: 'Dee', last_name: 'Park' })
  const boulder = (section: typeof cave, grade: typeof v0, setterIds: number[], fields: object) =>
    makeClimb(t.db, { section, grade, setterIds }, fields)
  const c = {
    9: await boulder(annex, v4, [ben.id], { set_date: daysAgo(3) }),
    1: await boulder(cave, v2, [ana.id], { set_date: daysAgo(29), planned_strip_date: daysAgo(1) }),
    2: await boulder(cave, v2, [ana.id, ben.id], { set_date: daysAgo(30), planned_strip_date: TODAY }),
    3: await boulder(cave, v4, [ben.id], { set_date: TODAY }),
    4: await boulder(slab, v0, [nameless.id], { set_date: daysAgo(364), planned_strip_date: daysAgo(100) }),
    5: await boulder(slab, v4, [carl.id], { set_date: daysAgo(365), stripped_date: daysAgo(200) }),
    6: await boulder(kids, v0, [ana.id], { set_date: daysAgo(5), planned_strip_date: addDays(TODAY, 1) }),
    7: await boulder(kids, v2, [ben.id], {
      set_date: daysAgo(40),
      planned_strip_date: daysAgo(3),
      stripped_date: daysAgo(1),
    }),
    8: await boulder(cave, v9, [ana.id], { set_date: daysAgo(400), planned_strip_date: daysAgo(1) }),
    10: await boulder(tower, rope, [dee.id], {
      discipline: 'LEA',
      set_date: daysAgo(10),
      planned_strip_date: daysAgo(1),
    }),
    11: await boulder(tower, hard, [ana.id], { discipline: 'TR', set_date: daysAgo(50) }),
    12: await boulder(kids, rope, [dee.id], { discipline: 'AUT', set_date: daysAgo(2) }),
    13: await boulder(tower, rope, [dee.id], {
      discipline: 'TR',
      set_date: daysAgo(500),
      stripped_date: daysAgo(450),
    }),
    // Another gym's climb, set today by Ana, counts nowhere here.
    14: await boulder(wall.otherSection, wall.otherGrade, [ana.id], {
      set_date: TODAY,
      planned_strip_date: TODAY,
    }),
  }
  return { c, v0, v1, v9, hard, slab, arch, nameless, carl, dee }
}

/** A climb's body as the list shows it: due_to_strip holds exactly these. */
async function listed(id: number) {
  const res = await t.request('GET', `${climbsPath(wall.gym.id)}${id}/`, { token: t.seed.staffToken })
  expect(res.status).toBe(200)
  return res.body
}

describe('stats 400 and 404', () => {
  test('discipline is required, BOU or ROP', async () => {
    const cases: Array<[string, unknown]> = [
      ['', { discipline: required }],
      ['discipline=', { discipline: required }],
      ['discipline=TR', { discipline: ['Select a valid choice. TR is not one of the available choices.'] }],
      ['discipline=bou', { discipline: ['Select a valid choice. bou is not one of the available choices.'] }],
    ]
    for (const [query, body] of cases) {
      const res = await t.request('GET', statsPath(query), { token: t.seed.staffToken })
      expect({ query, status: res.status, body: res.body }).toEqual({ query, status: 400, body })
    }
  })

  test('an unknown gym is 404, before the query is read', async () => {
    for (const path of [
      statsPath('discipline=BOU', 999),
      statsPath('', 999),
      '/api/gyms/abc/climbs/stats/',
    ]) {
      const res = await t.request('GET', path, { token: t.seed.staffToken })
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: notFound })
    }
  })
})

describe('stats/ offers GET only', () => {
  test('another method is 405, not read as a climb id', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await t.request(method, `${climbsPath(wall.gym.id)}stats/`, {
        token: t.seed.adminToken,
        body: {},
      })
      expect([method, res.status, res.body]).toEqual([method, 405, methodNotAllowed(method)])
    }
  })

  test('without a token it is 401 first, as DRF authenticates before it looks at the method', async () => {
    const res = await t.request('PATCH', `${climbsPath(wall.gym.id)}stats/`, { body: {} })
    expect(res.status).toBe(401)
  })
})

describe('stats on a built history', () => {
  test('a gym with no climbs: its grades and sections at 0', async () => {
    expect(await stats('BOU')).toEqual({
      discipline: 'BOU',
      climbs_up: 0,
      by_grade: [
        { grade_id: wall.v2.id, grade_name: 'V2', rank: 2, up: 0, target_count: 6 },
        { grade_id: wall.v4.id, grade_name: 'V4', rank: 4, up: 0, target_count: 4 },
      ],
      by_section: [
        {
          section_id: wall.cave.id,
          section_name: 'The Cave',
          up: 0,
          oldest_set_date: null,
          last_reset_date: null,
        },
        {
          section_id: wall.kids.id,
          section_name: 'Kids Wall',
          up: 0,
          oldest_set_date: null,
          last_reset_date: null,
        },
      ],
      by_setter: [],
      due_to_strip: [],
    })
  })

  test('BOU: every figure, exactly', async () => {
    const h = await makeHistory()
    const { c } = h
    expect(await stats('BOU')).toEqual({
      discipline: 'BOU',
      // 1, 2, 3, 4, 6, 8 (a retired grade) and 9 (a retired section)
      climbs_up: 7,
      by_grade: [
        { grade_id: h.v0.id, grade_name: 'V0', rank: 0, up: 2, target_count: 8 },
        { grade_id: h.v1.id, grade_name: 'V1', rank: 1, up: 0, target_count: null },
        { grade_id: wall.v2.id, grade_name: 'V2', rank: 2, up: 2, target_count: 6 },
        { grade_id: wall.v4.id, grade_name: 'V4', rank: 4, up: 2, target_count: 4 },
      ],
      by_section: [
        { section_id: h.arch.id, section_name: 'arch', up: 0, oldest_set_date: null, last_reset_date: null },
        {
          section_id: h.slab.id,
          section_name: 'Slab',
          up: 1,
          oldest_set_date: daysAgo(364),
          last_reset_date: '2026-10-12',
        },
        {
          section_id: wall.cave.id,
          section_name: 'The Cave',
          up: 4,
          oldest_set_date: daysAgo(400),
          last_reset_date: null,
        },
        // The AUT climb 12 is up here too, but it is no boulder.
        {
          section_id: wall.kids.id,
          section_name: 'Kids Wall',
          up: 1,
          oldest_set_date: daysAgo(5),
          last_reset_date: null,
        },
      ],
      by_setter: [
        { setter_id: wall.ben.id, name: 'Ben Ng', set_last_30_days: 2, set_last_365_days: 4 },
        { setter_id: wall.ana.id, name: 'Ana Lopez', set_last_30_days: 2, set_last_365_days: 3 },
        { setter_id: h.nameless.id, name: 'setter@gym.example', set_last_30_days: 0, set_last_365_days: 1 },
        { setter_id: h.carl.id, name: 'Carl Old', set_last_30_days: 0, set_last_365_days: 0 },
      ],
      due_to_strip: [
        await listed(c[4].id),
        await listed(c[8].id),
        await listed(c[1].id),
        await listed(c[2].id),
      ],
    })
  })

  test('ROP: TR, LEA and AUT together', async () => {
    const h = await makeHistory()
    expect(await stats('ROP')).toEqual({
      discipline: 'ROP',
      climbs_up: 3,
      by_grade: [
        { grade_id: wall.rope.id, grade_name: '5.10a', rank: 10, up: 2, target_count: null },
        { grade_id: h.hard.id, grade_name: '5.11a', rank: 11, up: 1, target_count: 3 },
      ],
      by_section: [
        {
          section_id: wall.tower.id,
          section_name: 'The Tower',
          up: 2,
          oldest_set_date: daysAgo(50),
          last_reset_date: null,
        },
        {
          section_id: wall.kids.id,
          section_name: 'Kids Wall',
          up: 1,
          oldest_set_date: daysAgo(2),
          last_reset_date: null,
        },
      ],
      by_setter: [
        { setter_id: h.dee.id, name: 'Dee Park', set_last_30_days: 2, set_last_365_days: 2 },
        { setter_id: wall.ana.id, name: 'Ana Lopez', set_last_30_days: 0, set_last_365_days: 1 },
      ],
      due_to_strip: [await listed(h.c[10].id)],
    })
  })

  test("the windows and what is due move with the gym's day", async () => {
    const h = await makeHistory()
    // 23:59 in Denver: still the same day.
    t.clock.set('2026-11-23T06:59:59.000Z')
    const late = await stats('BOU')
    expect(late.by_setter.map((s: { set_last_30_days: number }) => s.set_last_30_days)).toEqual([2, 2, 0, 0])
    t.clock.set(denverMidnight('2026-11-23'))
    const next = await stats('BOU')
    // A day on, climb 1 (set 29 days before) leaves Ana's 30 days and climb 4 (364 days before)
    // the email setter's year; climb 6 comes due.
    expect(next.by_setter).toEqual([
      { setter_id: wall.ben.id, name: 'Ben Ng', set_last_30_days: 2, set_last_365_days: 4 },
      { setter_id: wall.ana.id, name: 'Ana Lopez', set_last_30_days: 1, set_last_365_days: 3 },
      { setter_id: h.carl.id, name: 'Carl Old', set_last_30_days: 0, set_last_365_days: 0 },
      { setter_id: h.nameless.id, name: 'setter@gym.example', set_last_30_days: 0, set_last_365_days: 0 },
    ])
    expect(next.due_to_strip.map((climb: { id: number }) => climb.id)).toEqual([
      h.c[4].id,
      h.c[8].id,
      h.c[1].id,
      h.c[2].id,
      h.c[6].id,
    ])
    expect(next.due_to_strip[0].days_up).toBe(365)
  })

  test('a strip takes a climb out of what is up and due, not out of who set it', async () => {
    const h = await makeHistory()
    const res = await t.request('POST', `${climbsPath(wall.gym.id)}${h.c[1].id}/strip/`, {
      token: wall.ana.token,
    })
    expect(res.status).toBe(200)
    const after = await stats('BOU')
    expect(after.climbs_up).toBe(6)
    expect(after.by_grade[2]).toEqual({
      grade_id: wall.v2.id,
      grade_name: 'V2',
      rank: 2,
      up: 1,
      target_count: 6,
    })
    expect(after.due_to_strip.map((climb: { id: number }) => climb.id)).toEqual([
      h.c[4].id,
      h.c[8].id,
      h.c[2].id,
    ])
    expect(after.by_setter[1]).toEqual({
      setter_id: wall.ana.id,
      name: 'Ana Lopez',
      set_last_30_days: 2,
      set_last_365_days: 3,
    })
  })
})

describe('stats agree with the list endpoints', () => {
  /** Every record a list of the gym gives (`climbs`, `grades`, `sections`) for `query`, page after page. */
  async function listAll(collection: string, query: string): Promise<any[]> {
    const all: any[] = []
    for (let page = 1; ; page += 1) {
      const path = `/api/gyms/${wall.gym.id}/${collection}/?${query}&page_size=5&page=${page}`
      const res = await t.request('GET', path, { token: t.seed.staffToken })
      expect(res.status).toBe(200)
      all.push(...res.body.results)
      if (res.body.next === null) return all
    }
  }

  /** The stats worked out from the lists of climbs, grades and sections, each in its own order. */
  async function expectedStats(discipline: 'BOU' | 'ROP', today: string) {
    const codes = discipline === 'BOU' ? ['BOU'] : ['TR', 'LEA', 'AUT']
    const up = (
      await Promise.all(codes.map((code) => listAll('climbs', `is_up=true&discipline=${code}`)))
    ).flat()
    const ever = (await Promise.all(codes.map((code) => listAll('climbs', `discipline=${code}`)))).flat()
    // The grades list is in rank order, the sections list by sort_order then name: as the stats.
    const grades = await listAll('grades', `discipline=${discipline}&is_active=true`)
    const sections = (await listAll('sections', 'is_active=true')).filter((section) =>
      [discipline, 'MIX'].includes(section.discipline),
    )
    const setters = new Map<
      number,
      { setter_id: number; name: string; set_last_30_days: number; set_last_365_days: number }
    >()
    for (const climb of ever) {
      climb.setter_ids.forEach((id: number, i: number) => {
        const setter = setters.get(id) ?? {
          setter_id: id,
          name: climb.setter_names[i],
          set_last_30_days: 0,
          set_last_365_days: 0,
        }
        if (climb.set_date > addDays(today, -30)) setter.set_last_30_days += 1
        if (climb.set_date > addDays(today, -365)) setter.set_last_365_days += 1
        setters.set(id, setter)
      })
    }
    const byName = (a: string, b: string) =>
      a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0
    return {
      discipline,
      climbs_up: up.length,
      by_grade: grades.map((g) => ({
        grade_id: g.id,
        grade_name: g.name,
        rank: g.rank,
        up: up.filter((climb) => climb.grade_id === g.id).length,
        target_count: g.target_count,
      })),
      by_section: sections.map((s) => {
        const dates = up.filter((climb) => climb.section_id === s.id).map((climb) => climb.set_date as string)
        return {
          section_id: s.id,
          section_name: s.name,
          up: dates.length,
          oldest_set_date: dates.length === 0 ? null : dates.sort()[0],
          last_reset_date: s.last_reset_date,
        }
      }),
      by_setter: [...setters.values()].sort(
        (a, b) =>
          b.set_last_30_days - a.set_last_30_days ||
          b.set_last_365_days - a.set_last_365_days ||
          byName(a.name, b.name) ||
          a.setter_id - b.setter_id,
      ),
      due_to_strip: up
        .filter((climb) => climb.planned_strip_date !== null && climb.planned_strip_date <= today)
        .sort(
          (a, b) =>
            a.planned_strip_date.localeCompare(b.planned_strip_date) ||
            a.set_date.localeCompare(b.set_date) ||
            a.id - b.id,
        ),
    }
  }

  test('for both disciplines, today and on later days', async () => {
    await makeHistory()
    for (const [instant, today] of [
      [null, TODAY],
      [denverMidnight('2026-11-23'), '2026-11-23'],
      [denverMidnight('2026-12-22'), '2026-12-22'],
      [denverMidnight('2027-11-22'), '2027-11-22'],
    ] as const) {
      if (instant) t.clock.set(instant)
      for (const discipline of ['BOU', 'ROP'] as const) {
        const expected = await expectedStats(discipline, today)
        expect({ today, body: await stats(discipline) }).toEqual({ today, body: expected })
      }
    }
  })
})
