import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, START } from '../../helpers/app.ts'
import {
  blank,
  doesNotExist,
  forbidden,
  invalidChoice,
  invalidDate,
  invalidInteger,
  maxLength,
  notNull,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { countRows, makeUser } from '../../helpers/factories.ts'
import {
  expectEachForbidden,
  expectEachNotFound,
  testEachNeedsTokenApart,
  testEachRefusedPost,
  useSeededApp,
  type RefusedPost,
} from '../../helpers/seeded.ts'
import { makeClimb, makeGrade, makeSection } from '../../helpers/walls-factories.ts'
import { climbBody, climbPath, climbsPath, daysAgo, makeSetter, TODAY, useWall } from './wall.ts'

/**
 * /api/gyms/<id>/climbs/: list, read, create, replace, update, delete. Any staff user reads;
 * can_manage_climbs (or an admin) writes. Order: 401 -> 400 -> 403 -> 404 -> success.
 */

const t = useSeededApp()
const wall = useWall(t)

const path = () => climbsPath(wall.gym.id)
const recordPath = (id: number) => climbPath(wall.gym.id, id)
const climbCount = () => countRows(t.db, 'climbs')
const storedClimb = (id: number) =>
  t.db.selectFrom('climbs').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const storedSetters = (id: number) =>
  t.db
    .selectFrom('climb_setters')
    .select(['staff_user_id', 'position'])
    .where('climb_id', '=', id)
    .orderBy('position')
    .execute()

/** A valid POST: a teal V4 boulder in The Cave set by Ana. */
const valid = () => ({
  section_id: wall.cave.id,
  grade_id: wall.v4.id,
  discipline: 'BOU',
  hold_color: 'teal',
  setter_ids: [wall.ana.id],
})

const post = (body: unknown, token = wall.ana.token) => t.request('POST', path(), { token, body })
const read = (id: number) => t.request('GET', recordPath(id), { token: t.seed.staffToken })

const messages = {
  gradeBoulder: 'The grade is a boulder grade (BOU): the climb must be BOU.',
  gradeRope: 'The grade is a rope grade (ROP): the climb must be TR, LEA or AUT.',
  sectionBoulder: 'The section is for boulders (BOU): the climb must be BOU.',
  sectionRope: 'The section is for ropes (ROP): the climb must be TR, LEA or AUT.',
  gradeInactive: 'This grade is retired (inactive): choose an active one.',
  sectionInactive: 'This section is retired (inactive): choose an active one.',
  emptyList: 'This list may not be empty.',
  tooMany: 'Ensure this field has no more than 10 elements.',
  twice: (id: number) => `Staff user ${id} is listed more than once.`,
  inactive: (id: number) => `Staff user ${id} is inactive: only active staff can be named as setters.`,
  future: `Enter a date no later than today (${TODAY}).`,
  plannedBeforeSet: (date: string) => `The planned strip date cannot be before the set date (${date}).`,
  setAfterPlanned: (date: string) => `The set date cannot be after the planned strip date (${date}).`,
  stripped: 'This climb has been stripped: only its name and description can change.',
  colorHex: 'Enter a valid color: "#" and 6 hexadecimal digits, such as #1E90FF.',
}

describe('/api/gyms/<id>/climbs/ 401', () => {
  testEachNeedsTokenApart(
    t,
    [
      ['GET', '/api/gyms/1/climbs/'],
      ['GET', '/api/gyms/1/climbs/1/'],
      ['GET', '/api/gyms/1/climbs/stats/'],
      ['POST', '/api/gyms/1/climbs/'],
      ['PUT', '/api/gyms/1/climbs/1/'],
      ['PATCH', '/api/gyms/1/climbs/1/'],
      ['DELETE', '/api/gyms/1/climbs/1/'],
      ['POST', '/api/gyms/1/climbs/1/strip/'],
    ],
    { setUp: () => makeClimb(t.db, { section: wall.cave, grade: wall.v4 }) },
  )
})

describe('POST 400: every field rule, and nothing is created', () => {
  test('an empty body needs section, grade, discipline, hold colour and setters', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      section_id: required,
      grade_id: required,
      discipline: required,
      hold_color: required,
      setter_ids: required,
    })
    expect(await climbCount()).toBe(0)
  })

  const cases: RefusedPost[] = [
    ['an unknown section', { section_id: 999 }, { section_id: doesNotExist(999) }],
    [
      "another gym's section",
      () => ({ section_id: wall.otherSection.id }),
      () => ({ section_id: doesNotExist(wall.otherSection.id) }),
    ],
    ['a section id that is not a number', { section_id: 'cave' }, { section_id: invalidInteger }],
    ['an unknown grade', { grade_id: 999 }, { grade_id: doesNotExist(999) }],
    [
      "another gym's grade",
      () => ({ grade_id: wall.otherGrade.id }),
      () => ({ grade_id: doesNotExist(wall.otherGrade.id) }),
    ],
    ['a null grade', { grade_id: null }, { grade_id: notNull }],
    ['an unknown discipline', { discipline: 'XYZ' }, { discipline: invalidChoice('XYZ') }],
    ['a discipline in lower case', { discipline: 'bou' }, { discipline: invalidChoice('bou') }],
    [
      'a rope climb on a boulder grade in a boulder section',
      { discipline: 'TR' },
      { discipline: [messages.gradeBoulder, messages.sectionBoulder] },
    ],
    ['a boulder on a rope grade', () => ({ grade_id: wall.rope.id }), { discipline: [messages.gradeRope] }],
    [
      'a lead climb on a rope grade in a boulder section',
      () => ({ grade_id: wall.rope.id, discipline: 'LEA' }),
      { discipline: [messages.sectionBoulder] },
    ],
    [
      'a boulder in a rope section',
      () => ({ section_id: wall.tower.id }),
      { discipline: [messages.sectionRope] },
    ],
    ['no hold colour', { hold_color: undefined }, { hold_color: required }],
    ['a blank hold colour', { hold_color: '' }, { hold_color: blank }],
    ['a hold colour of spaces only', { hold_color: '   ' }, { hold_color: blank }],
    ['a null hold colour', { hold_color: null }, { hold_color: notNull }],
    ['a hold colour of 51 characters', { hold_color: 'x'.repeat(51) }, { hold_color: maxLength(50) }],
    ['a colour that is a word', { color_hex: 'teal' }, { color_hex: [messages.colorHex] }],
    ['a colour without #', { color_hex: '1E90FF' }, { color_hex: [messages.colorHex] }],
    ['a colour of 5 digits', { color_hex: '#1E90F' }, { color_hex: [messages.colorHex] }],
    ['a name of 101 characters', { name: 'x'.repeat(101) }, { name: maxLength(100) }],
    ['no setters', { setter_ids: [] }, { setter_ids: [messages.emptyList] }],
    [
      'setters that are not a list',
      { setter_ids: 7 },
      { setter_ids: ['Expected a list of items but got type "int".'] },
    ],
    ['a setter that is not a number', { setter_ids: ['ana'] }, { setter_ids: invalidInteger }],
    ['an unknown setter', { setter_ids: [999] }, { setter_ids: doesNotExist(999) }],
    [
      'a setter named twice',
      () => ({ setter_ids: [wall.ana.id, wall.ben.id, wall.ana.id] }),
      () => ({ setter_ids: [messages.twice(wall.ana.id)] }),
    ],
    [
      'eleven setters',
      () => ({ setter_ids: Array.from({ length: 11 }, () => wall.ana.id) }),
      { setter_ids: [messages.tooMany] },
    ],
    ['a set date tomorrow', { set_date: '2026-11-23' }, { set_date: [messages.future] }],
    ['a set date that is no date', { set_date: '2026-02-30' }, { set_date: invalidDate }],
    [
      'a planned strip date before the set date',
      { set_date: '2026-11-10', planned_strip_date: '2026-11-09' },
      { planned_strip_date: [messages.plannedBeforeSet('2026-11-10')] },
    ],
    [
      'a planned strip date before today, the default set date',
      { planned_strip_date: '2026-11-21' },
      { planned_strip_date: [messages.plannedBeforeSet(TODAY)] },
    ],
    [
      'several failing fields at once',
      { section_id: 999, grade_id: 998, setter_ids: [997], set_date: 'soon' },
      {
        section_id: doesNotExist(999),
        grade_id: doesNotExist(998),
        setter_ids: doesNotExist(997),
        set_date: invalidDate,
      },
    ],
  ]
  testEachRefusedPost(cases, { post: (body) => post(body), count: climbCount, base: valid })

  test('an inactive setter is refused with a clear message', async () => {
    const gone = await makeSetter(t, { first_name: 'Cy', is_active: 0 })
    const res = await post({ ...valid(), setter_ids: [wall.ana.id, gone.id] })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ setter_ids: [messages.inactive(gone.id)] })
    expect(await climbCount()).toBe(0)
  })

  test('a retired grade or section is refused for a new climb', async () => {
    const v9 = await makeGrade(t.db, wall.gym.id, { name: 'V9', rank: 9, is_active: 0 })
    const old = await makeSection(t.db, wall.gym.id, { name: 'Old Slab', is_active: 0 })
    const res = await post({ ...valid(), grade_id: v9.id, section_id: old.id })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ section_id: [messages.sectionInactive], grade_id: [messages.gradeInactive] })
    expect(await climbCount()).toBe(0)
  })
})

describe('403 and 404', () => {
  test('staff without can_manage_climbs read everything and get 403 on every write', async () => {
    const climb = await makeClimb(t.db, { section: wall.cave, grade: wall.v4, setterIds: [wall.ana.id] })
    const everyOtherFlag = await makeSetter(t, { can_manage_climbs: 0 })
    await t.db
      .updateTable('staff_users')
      .set({ can_manage_members: 1, can_manage_events: 1, can_access_reports: 1, can_export_customers: 1 })
      .where('id', '=', everyOtherFlag.id)
      .execute()
    for (const token of [t.seed.staffToken, everyOtherFlag.token]) {
      for (const readPath of [path(), recordPath(climb.id), `${path()}stats/?discipline=BOU`]) {
        const res = await t.request('GET', readPath, { token })
        expect({ readPath, status: res.status }).toEqual({ readPath, status: 200 })
      }
    }
    await expectEachForbidden(
      t,
      [t.seed.staffToken, everyOtherFlag.token],
      [
        ['POST', path(), valid()],
        ['PUT', recordPath(climb.id), valid()],
        ['PATCH', recordPath(climb.id), { name: 'Crimp City' }],
        ['DELETE', recordPath(climb.id)],
        ['POST', `${recordPath(climb.id)}strip/`, {}],
      ],
    )
    // Refused before the body is read: a bad body is 403 too.
    expect((await post({}, t.seed.staffToken)).body).toEqual(forbidden)
    expect(await climbCount()).toBe(1)
    expect((await read(climb.id)).body).toEqual(
      climbBody(wall, climb.id, { setter_ids: [wall.ana.id], setter_names: ['Ana Lopez'] }),
    )
  })

  test('can_manage_climbs writes, and so does an admin', async () => {
    const mine = await post(valid(), wall.ben.token)
    expect(mine.status).toBe(201)
    const admins = await post(valid(), t.seed.adminToken)
    expect(admins.status).toBe(201)
    expect(await climbCount()).toBe(2)
  })

  test("another gym's climb and unknown ids are 404 and change nothing", async () => {
    const elsewhere = await makeClimb(t.db, { section: wall.otherSection, grade: wall.otherGrade })
    const calls = (id: number) =>
      [
        ['GET', recordPath(id)],
        ['PUT', recordPath(id), valid()],
        ['PATCH', recordPath(id), { name: 'x' }],
        ['DELETE', recordPath(id)],
        ['POST', `${recordPath(id)}strip/`, {}],
      ] as const
    await expectEachNotFound(t, t.seed.adminToken, [...calls(elsewhere.id), ...calls(999)])
    expect(await storedClimb(elsewhere.id)).toEqual(elsewhere)
  })

  test('an unknown gym is 404 for its list, its creates and its stats', async () => {
    await expectEachNotFound(t, t.seed.adminToken, [
      ['GET', climbsPath(999)],
      ['POST', climbsPath(999), valid()],
      ['GET', `${climbsPath(999)}stats/?discipline=BOU`],
      ['GET', `${climbsPath(999)}stats/`],
      ['GET', climbPath(999, 1)],
    ])
    expect(await climbCount()).toBe(0)
  })
})

describe('POST', () => {
  test('the fewest fields: set today, up, by the setters in the order named', async () => {
    const res = await post({ ...valid(), setter_ids: [wall.ben.id, wall.ana.id] })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      climbBody(wall, res.body.id, {
        setter_ids: [wall.ben.id, wall.ana.id],
        setter_names: ['Ben Ng', 'Ana Lopez'],
      }),
    )
    expect(await storedSetters(res.body.id)).toEqual([
      { staff_user_id: wall.ben.id, position: 0 },
      { staff_user_id: wall.ana.id, position: 1 },
    ])
  })

  test('every field: the colour stored upper case, days up counted from the set date', async () => {
    const res = await post({
      section_id: wall.tower.id,
      grade_id: wall.rope.id,
      discipline: 'LEA',
      name: '  Crimp City ',
      hold_color: ' orange ',
      color_hex: '#ff8c00',
      setter_ids: [wall.ana.id],
      set_date: '2026-11-12',
      planned_strip_date: '2026-12-12',
      description: 'Steep start, slab finish',
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      climbBody(wall, res.body.id, {
        section_id: wall.tower.id,
        section_name: 'The Tower',
        grade_id: wall.rope.id,
        grade_name: '5.10a',
        discipline: 'LEA',
        name: 'Crimp City',
        hold_color: 'orange',
        color_hex: '#FF8C00',
        setter_ids: [wall.ana.id],
        setter_names: ['Ana Lopez'],
        set_date: '2026-11-12',
        planned_strip_date: '2026-12-12',
        days_up: 10,
        description: 'Steep start, slab finish',
      }),
    )
  })

  test('a mixed section takes any discipline; a planned strip on the set day is fine', async () => {
    for (const [grade, discipline] of [
      [wall.v4, 'BOU'],
      [wall.rope, 'TR'],
      [wall.rope, 'AUT'],
    ] as const) {
      const res = await post({
        ...valid(),
        section_id: wall.kids.id,
        grade_id: grade.id,
        discipline,
        planned_strip_date: TODAY,
      })
      expect({ discipline, status: res.status }).toEqual({ discipline, status: 201 })
    }
  })

  test('a setter with no name is named by their email', async () => {
    const nameless = await makeUser(t.db, { email: 'setter@gym.example' })
    const firstOnly = await makeUser(t.db, { first_name: 'Dee', email: 'dee@gym.example' })
    const res = await post({ ...valid(), setter_ids: [nameless.id, firstOnly.id] })
    expect(res.status).toBe(201)
    expect(res.body.setter_names).toEqual(['setter@gym.example', 'Dee'])
  })

  test("set_date defaults to today in the gym's zone, not UTC's", async () => {
    // 03:00 UTC on the 23rd is still the 22nd in Denver.
    t.clock.set('2026-11-23T03:00:00.000Z')
    const res = await post(valid())
    expect(res.body.set_date).toBe('2026-11-22')
    expect(res.body.created_at).toBe('2026-11-23T03:00:00.000Z')
  })
})

describe('days_up follows the test clock', () => {
  test("0 on the day set, 1 once the gym's day turns, frozen once stripped", async () => {
    const up = await makeClimb(t.db, { section: wall.cave, grade: wall.v4 })
    const down = await makeClimb(
      t.db,
      { section: wall.cave, grade: wall.v4 },
      { set_date: daysAgo(20), stripped_date: daysAgo(5) },
    )
    const daysUp = async () => [(await read(up.id)).body.days_up, (await read(down.id)).body.days_up]
    expect(await daysUp()).toEqual([0, 15])
    t.clock.set('2026-11-23T06:59:59.999Z') // 23:59 in Denver, still the 22nd
    expect(await daysUp()).toEqual([0, 15])
    t.clock.set('2026-11-23T07:00:00.000Z') // midnight in Denver
    expect(await daysUp()).toEqual([1, 15])
    t.clock.advance(40 * 86_400_000)
    expect(await daysUp()).toEqual([41, 15])
  })
})

describe('GET list: order and every filter', () => {
  /** Climbs of every kind, made in an order unlike the list's. */
  async function makeHistory() {
    const { cave, tower, kids, v2, v4, rope, ana, ben } = wall
    const c = {
      caveOld: await makeClimb(
        t.db,
        { section: cave, grade: v2, setterIds: [ana.id] },
        { set_date: daysAgo(30), name: 'Pinch', hold_color: 'red' },
      ),
      caveNew: await makeClimb(
        t.db,
        { section: cave, grade: v4, setterIds: [ben.id] },
        { set_date: daysAgo(2), hold_color: 'Teal' },
      ),
      towerLead: await makeClimb(
        t.db,
        { section: tower, grade: rope, setterIds: [ana.id, ben.id] },
        { discipline: 'LEA', set_date: daysAgo(10), name: 'Red Arete', hold_color: 'blue' },
      ),
      towerTop: await makeClimb(
        t.db,
        { section: tower, grade: rope, setterIds: [ben.id] },
        { discipline: 'TR', set_date: daysAgo(10), hold_color: 'green 50%' },
      ),
      stripped: await makeClimb(
        t.db,
        { section: kids, grade: v4, setterIds: [ana.id] },
        { set_date: daysAgo(60), stripped_date: daysAgo(20), hold_color: 'pink' },
      ),
      today: await makeClimb(t.db, { section: kids, grade: v2 }, { set_date: TODAY, hold_color: 'purple' }),
    }
    return c
  }
  const ids = async (query = '') => {
    const res = await t.request('GET', `${path()}?${query}`, { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    return res.body.results.map((r: { id: number }) => r.id)
  }

  test('newest set_date first, then newest id; whole bodies', async () => {
    const c = await makeHistory()
    const res = await t.request('GET', path(), { token: t.seed.staffToken })
    expect(res.body).toEqual(
      onePage([
        climbBody(wall, c.today.id, {
          section_id: wall.kids.id,
          section_name: 'Kids Wall',
          grade_id: wall.v2.id,
          grade_name: 'V2',
          hold_color: 'purple',
        }),
        climbBody(wall, c.caveNew.id, {
          hold_color: 'Teal',
          set_date: daysAgo(2),
          days_up: 2,
          setter_ids: [wall.ben.id],
          setter_names: ['Ben Ng'],
        }),
        climbBody(wall, c.towerTop.id, {
          section_id: wall.tower.id,
          section_name: 'The Tower',
          grade_id: wall.rope.id,
          grade_name: '5.10a',
          discipline: 'TR',
          hold_color: 'green 50%',
          set_date: daysAgo(10),
          days_up: 10,
          setter_ids: [wall.ben.id],
          setter_names: ['Ben Ng'],
        }),
        climbBody(wall, c.towerLead.id, {
          section_id: wall.tower.id,
          section_name: 'The Tower',
          grade_id: wall.rope.id,
          grade_name: '5.10a',
          discipline: 'LEA',
          name: 'Red Arete',
          hold_color: 'blue',
          set_date: daysAgo(10),
          days_up: 10,
          setter_ids: [wall.ana.id, wall.ben.id],
          setter_names: ['Ana Lopez', 'Ben Ng'],
        }),
        climbBody(wall, c.caveOld.id, {
          grade_id: wall.v2.id,
          grade_name: 'V2',
          name: 'Pinch',
          hold_color: 'red',
          set_date: daysAgo(30),
          days_up: 30,
          setter_ids: [wall.ana.id],
          setter_names: ['Ana Lopez'],
        }),
        climbBody(wall, c.stripped.id, {
          section_id: wall.kids.id,
          section_name: 'Kids Wall',
          hold_color: 'pink',
          set_date: daysAgo(60),
          stripped_date: daysAgo(20),
          is_up: false,
          days_up: 40,
          setter_ids: [wall.ana.id],
          setter_names: ['Ana Lopez'],
        }),
      ]),
    )
  })

  test('each filter, alone and together', async () => {
    const c = await makeHistory()
    const cases: Array<[string, number[]]> = [
      [`section_id=${wall.tower.id}`, [c.towerTop.id, c.towerLead.id]],
      [`grade_id=${wall.v2.id}`, [c.today.id, c.caveOld.id]],
      ['discipline=BOU', [c.today.id, c.caveNew.id, c.caveOld.id, c.stripped.id]],
      ['discipline=LEA', [c.towerLead.id]],
      ['discipline=AUT', []],
      [`setter_id=${wall.ana.id}`, [c.towerLead.id, c.caveOld.id, c.stripped.id]],
      [`setter_id=${wall.ben.id}`, [c.caveNew.id, c.towerTop.id, c.towerLead.id]],
      ['is_up=true', [c.today.id, c.caveNew.id, c.towerTop.id, c.towerLead.id, c.caveOld.id]],
      ['is_up=False', [c.stripped.id]],
      [`set_after=${daysAgo(10)}`, [c.today.id, c.caveNew.id, c.towerTop.id, c.towerLead.id]],
      [`set_before=${daysAgo(10)}`, [c.caveOld.id, c.stripped.id]],
      [`set_after=${daysAgo(30)}&set_before=${daysAgo(2)}`, [c.towerTop.id, c.towerLead.id, c.caveOld.id]],
      ['search=red', [c.towerLead.id, c.caveOld.id]],
      ['search=TEAL', [c.caveNew.id]],
      ['search=50%25', [c.towerTop.id]],
      ['search=red%20arete', [c.towerLead.id]],
      ['search=_', []],
      [`discipline=BOU&is_up=true&setter_id=${wall.ana.id}`, [c.caveOld.id]],
      ['unknown=1', [c.today.id, c.caveNew.id, c.towerTop.id, c.towerLead.id, c.caveOld.id, c.stripped.id]],
    ]
    for (const [query, expected] of cases)
      expect({ query, ids: await ids(query) }).toEqual({ query, ids: expected })
  })

  test("another gym's climbs are not listed", async () => {
    await makeClimb(t.db, { section: wall.otherSection, grade: wall.otherGrade })
    expect(await ids()).toEqual([])
  })

  test('a filter with a bad value is 400 on it', async () => {
    const res = await t.request(
      'GET',
      `${path()}?section_id=x&grade_id=1.5&discipline=ROP&setter_id=ana&is_up=maybe&set_after=2026-13-01&set_before=today`,
      { token: t.seed.staffToken },
    )
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      section_id: ['Enter a number.'],
      grade_id: ['Enter a number.'],
      discipline: ['Select a valid choice. ROP is not one of the available choices.'],
      setter_id: ['Enter a number.'],
      is_up: ['Must be a valid boolean.'],
      set_after: ['Enter a valid date.'],
      set_before: ['Enter a valid date.'],
    })
  })
})

describe('PUT and PATCH', () => {
  const patch = (id: number, body: unknown) =>
    t.request('PATCH', recordPath(id), { token: wall.ana.token, body })
  const put = (id: number, body: unknown) => t.request('PUT', recordPath(id), { token: wall.ana.token, body })

  test('PATCH changes the fields sent; setter_ids replaces the setters', async () => {
    const climb = await makeClimb(
      t.db,
      { section: wall.cave, grade: wall.v4, setterIds: [wall.ana.id] },
      { set_date: daysAgo(3) },
    )
    t.clock.advance(60_000)
    const res = await patch(climb.id, {
      grade_id: wall.v2.id,
      setter_ids: [wall.ben.id, wall.ana.id],
      color_hex: '#00aa00',
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      climbBody(wall, climb.id, {
        grade_id: wall.v2.id,
        grade_name: 'V2',
        color_hex: '#00AA00',
        setter_ids: [wall.ben.id, wall.ana.id],
        setter_names: ['Ben Ng', 'Ana Lopez'],
        set_date: daysAgo(3),
        days_up: 3,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
  })

  test('PUT needs the required fields and keeps the optional ones left out', async () => {
    const climb = await makeClimb(
      t.db,
      { section: wall.cave, grade: wall.v4, setterIds: [wall.ana.id] },
      { name: 'Pinch', planned_strip_date: '2026-12-20', description: 'Crimpy' },
    )
    expect((await put(climb.id, {})).body).toEqual({
      section_id: required,
      grade_id: required,
      discipline: required,
      hold_color: required,
      setter_ids: required,
    })
    const res = await put(climb.id, { ...valid(), section_id: wall.kids.id, hold_color: 'black' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      climbBody(wall, climb.id, {
        section_id: wall.kids.id,
        section_name: 'Kids Wall',
        name: 'Pinch',
        hold_color: 'black',
        setter_ids: [wall.ana.id],
        setter_names: ['Ana Lopez'],
        planned_strip_date: '2026-12-20',
        description: 'Crimpy',
      }),
    )
  })

  test('a discipline that no longer suits is refused on the field sent', async () => {
    const climb = await makeClimb(t.db, { section: wall.kids, grade: wall.v4, setterIds: [wall.ana.id] })
    const before = await storedClimb(climb.id)
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ discipline: 'TR' }, { discipline: [messages.gradeBoulder] }],
      [{ grade_id: wall.rope.id }, { grade_id: [messages.gradeRope] }],
      [{ section_id: wall.tower.id }, { section_id: [messages.sectionRope] }],
      [{ section_id: wall.tower.id, discipline: 'BOU' }, { discipline: [messages.sectionRope] }],
      [{ grade_id: wall.otherGrade.id }, { grade_id: doesNotExist(wall.otherGrade.id) }],
    ]
    for (const [body, errors] of cases) {
      const res = await patch(climb.id, body)
      expect({ body, status: res.status, errors: res.body }).toEqual({ body, status: 400, errors })
    }
    expect(await storedClimb(climb.id)).toEqual(before)
    // Both at once suit: the climb moves to the rope wall as a top-rope.
    const moved = await patch(climb.id, {
      section_id: wall.tower.id,
      grade_id: wall.rope.id,
      discipline: 'TR',
    })
    expect(moved.status).toBe(200)
  })

  test('dates: planned strip not before set, set not after planned, set not in the future', async () => {
    const climb = await makeClimb(
      t.db,
      { section: wall.cave, grade: wall.v4 },
      { set_date: daysAgo(10), planned_strip_date: daysAgo(2) },
    )
    const before = await storedClimb(climb.id)
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ planned_strip_date: daysAgo(11) }, { planned_strip_date: [messages.plannedBeforeSet(daysAgo(10))] }],
      [{ set_date: daysAgo(1) }, { set_date: [messages.setAfterPlanned(daysAgo(2))] }],
      [{ set_date: '2026-11-23', planned_strip_date: null }, { set_date: [messages.future] }],
      [
        { set_date: daysAgo(1), planned_strip_date: daysAgo(3) },
        { planned_strip_date: [messages.plannedBeforeSet(daysAgo(1))] },
      ],
    ]
    for (const [body, errors] of cases) {
      const res = await patch(climb.id, body)
      expect({ body, status: res.status, errors: res.body }).toEqual({ body, status: 400, errors })
    }
    expect(await storedClimb(climb.id)).toEqual(before)
    const res = await patch(climb.id, { set_date: daysAgo(1), planned_strip_date: null })
    expect(res.body).toMatchObject({ set_date: daysAgo(1), planned_strip_date: null, days_up: 1 })
  })

  test('a retired grade, section or setter the climb has stays; a new one is refused', async () => {
    const gone = await makeSetter(t, { first_name: 'Cy', last_name: 'Old' })
    const climb = await makeClimb(t.db, { section: wall.cave, grade: wall.v4, setterIds: [gone.id] })
    await t.db
      .updateTable('grades')
      .set({ is_active: 0 })
      .where('id', 'in', [wall.v4.id, wall.v2.id])
      .execute()
    await t.db.updateTable('sections').set({ is_active: 0 }).where('id', '=', wall.cave.id).execute()
    await t.db
      .updateTable('staff_users')
      .set({ is_active: 0 })
      .where('id', 'in', [gone.id, wall.ben.id])
      .execute()
    const asRead = (await read(climb.id)).body
    const again = await put(climb.id, asRead)
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ ...asRead, updated_at: again.body.updated_at })
    const before = await storedClimb(climb.id)
    const res = await patch(climb.id, {
      grade_id: wall.v2.id,
      section_id: wall.kids.id,
      setter_ids: [gone.id, wall.ben.id],
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      grade_id: [messages.gradeInactive],
      setter_ids: [messages.inactive(wall.ben.id)],
    })
    expect(await storedClimb(climb.id)).toEqual(before)
    expect(await storedSetters(climb.id)).toEqual([{ staff_user_id: gone.id, position: 0 }])
  })

  test('a stripped climb: only name and description change; the rest as read is fine', async () => {
    const climb = await makeClimb(
      t.db,
      { section: wall.cave, grade: wall.v4, setterIds: [wall.ana.id] },
      { set_date: daysAgo(20), stripped_date: daysAgo(5), color_hex: '#00AA00' },
    )
    const before = await storedClimb(climb.id)
    const res = await patch(climb.id, {
      section_id: wall.kids.id,
      grade_id: wall.v2.id,
      discipline: 'BOU',
      hold_color: 'red',
      color_hex: '#00aa00',
      setter_ids: [wall.ben.id],
      set_date: daysAgo(20),
      planned_strip_date: daysAgo(1),
      name: 'Renamed',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      section_id: [messages.stripped],
      grade_id: [messages.stripped],
      hold_color: [messages.stripped],
      setter_ids: [messages.stripped],
      planned_strip_date: [messages.stripped],
    })
    expect(await storedClimb(climb.id)).toEqual(before)

    const asRead = (await read(climb.id)).body
    const renamed = await put(climb.id, {
      ...asRead,
      name: 'The Classic',
      description: 'Stripped for the comp',
    })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toEqual({ ...asRead, name: 'The Classic', description: 'Stripped for the comp' })
  })

  test('a stripped climb keeps its set date', async () => {
    const climb = await makeClimb(
      t.db,
      { section: wall.cave, grade: wall.v4 },
      { set_date: daysAgo(20), stripped_date: daysAgo(5) },
    )
    // The same set date is no change, and is fine.
    expect((await patch(climb.id, { set_date: daysAgo(20) })).status).toBe(200)
    const res = await patch(climb.id, { set_date: daysAgo(4) })
    expect(res.body).toEqual({ set_date: [messages.stripped] })
  })
})

describe('DELETE', () => {
  test('removes a climb entered by mistake, its setters with it: 204', async () => {
    const climb = await makeClimb(t.db, {
      section: wall.cave,
      grade: wall.v4,
      setterIds: [wall.ana.id, wall.ben.id],
    })
    const kept = await makeClimb(t.db, { section: wall.cave, grade: wall.v4, setterIds: [wall.ana.id] })
    const res = await t.request('DELETE', recordPath(climb.id), { token: wall.ben.token })
    expect(res.status).toBe(204)
    expect(res.body).toBe('')
    expect((await read(climb.id)).status).toBe(404)
    expect(await climbCount()).toBe(1)
    expect(await countRows(t.db, 'climb_setters')).toBe(1)
    expect((await read(kept.id)).status).toBe(200)
  })

  test('a stripped climb can be deleted too', async () => {
    const climb = await makeClimb(
      t.db,
      { section: wall.cave, grade: wall.v4 },
      { set_date: daysAgo(3), stripped_date: TODAY },
    )
    expect((await t.request('DELETE', recordPath(climb.id), { token: t.seed.adminToken })).status).toBe(204)
    expect(await climbCount()).toBe(0)
  })
})
