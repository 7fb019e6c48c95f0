import { beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import type { Grade, Gym, Section } from '../../../src/db/schema.ts'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  blank,
  emptyPage,
  invalidBoolean,
  invalidChoice,
  invalidDate,
  invalidInteger,
  maxLength,
  maxValue,
  notNull,
  onePage,
  required,
  serverError,
} from '../../helpers/bodies.ts'
import { countRows, everyCanFlag, makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import {
  expectEachAnswer,
  expectEachForbidden,
  expectEachNotFound,
  listIds,
  testEachNeedsTokenApart,
  testEachRefusedPost,
  useSeededApp,
  type RefusedPost,
} from '../../helpers/seeded.ts'
import { makeClimb, makeGrade, makeSection } from '../../helpers/walls-factories.ts'

/*
 * /api/gyms/<id>/sections/ and its reset/ action (walls.md): every field rule with its exact body
 * and nothing written, climbs_up, the order and filters, who may write, another gym's sections,
 * DELETE of a section that held climbs, a discipline that would not suit the climbs up, and resets:
 * what comes down, on which date, refusals that change nothing, and two at once. The seeded gym is
 * in America/Denver; the clock stands at 2026-11-22 08:04 there.
 */

const t = useSeededApp()

const TODAY = '2026-11-22'

let setterToken: string
let otherFlagsToken: string
let uptown: Gym
let boulder: Grade
let rope: Grade

beforeEach(async () => {
  setterToken = await makeToken(t.db, await makeUser(t.db, { can_manage_climbs: 1 }))
  otherFlagsToken = await makeToken(t.db, await makeUser(t.db, { ...everyCanFlag, can_manage_climbs: 0 }))
  uptown = await makeGym(t.db, { name: 'Uptown' })
  boulder = await makeGrade(t.db, t.seed.gym.id)
  rope = await makeGrade(t.db, t.seed.gym.id, { name: '5.10a', system: 'YDS', discipline: 'ROP', rank: 4 })
})

const nameTaken = ['section with this name already exists.']
const hasClimbs = {
  non_field_errors: [
    'This section has climbs on record (up or stripped), so it cannot be deleted. Set is_active to false to retire it.',
  ],
}
const wouldNotSuit = (count: number, discipline: string) => [
  `This section has ${count} climb${count === 1 ? '' : 's'} up that a ${discipline} section cannot hold: ` +
    `strip ${count === 1 ? 'it' : 'them'} or reset the section first.`,
]
const inTheFuture = { date: [`Enter a date no later than today (${TODAY}).`] }

const sectionsPath = (gymId = t.seed.gym.id) => `/api/gyms/${gymId}/sections/`
const sectionPath = (id: number, gymId = t.seed.gym.id) => `/api/gyms/${gymId}/sections/${id}/`
const resetPath = (id: number, gymId = t.seed.gym.id) => `/api/gyms/${gymId}/sections/${id}/reset/`
const sectionCount = () => countRows(t.db, 'sections')
const storedSection = (id: number) =>
  t.db.selectFrom('sections').selectAll().where('id', '=', id).executeTakeFirst()
const storedClimbs = () => t.db.selectFrom('climbs').selectAll().orderBy('id').execute()

/** The whole record the API answers for a section with the factory's defaults (The Cave, BOU). */
function sectionBody(id: number, fields: Record<string, unknown> = {}) {
  const gymId = (fields.gym_id as number | undefined) ?? t.seed.gym.id
  return {
    id,
    url: `${ORIGIN}/api/gyms/${gymId}/sections/${id}/`,
    gym_id: gymId,
    name: 'The Cave',
    discipline: 'BOU',
    sort_order: 0,
    description: '',
    is_active: true,
    climbs_up: 0,
    last_reset_date: null,
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const post = (body: unknown, token = setterToken) => t.request('POST', sectionsPath(), { token, body })
const reset = (section: Section, body?: unknown, token = setterToken) =>
  t.request('POST', resetPath(section.id), { token, body })

/** A climb in `section`, of the grade that suits it, set on `set_date` and up unless stripped. */
const climbIn = (section: Section, set_date: string, fields: Record<string, unknown> = {}) =>
  makeClimb(t.db, { section, grade: section.discipline === 'ROP' ? rope : boulder }, { set_date, ...fields })

describe('/api/gyms/<id>/sections/ 401', () => {
  testEachNeedsTokenApart(
    t,
    [
      ['GET', '/api/gyms/1/sections/'],
      ['POST', '/api/gyms/1/sections/'],
      ['GET', '/api/gyms/1/sections/1/'],
      ['PUT', '/api/gyms/1/sections/1/'],
      ['PATCH', '/api/gyms/1/sections/1/'],
      ['DELETE', '/api/gyms/1/sections/1/'],
      ['POST', '/api/gyms/1/sections/1/reset/'],
    ],
    { body: { name: 'x' }, setUp: () => makeSection(t.db, t.seed.gym.id) },
  )
})

describe('/api/gyms/<id>/sections/ 400', () => {
  test('POST with an empty body needs name and discipline', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: required, discipline: required })
    expect(await sectionCount()).toBe(0)
  })

  const cases: RefusedPost[] = [
    ['a blank name', { name: '' }, { name: blank }],
    ['a name of spaces only', { name: '  ' }, { name: blank }],
    ['a null name', { name: null }, { name: notNull }],
    ['a name of 101 characters', { name: 'x'.repeat(101) }, { name: maxLength(100) }],
    ['a climb discipline (LEA)', { discipline: 'LEA' }, { discipline: invalidChoice('LEA') }],
    ['a discipline in lower case', { discipline: 'mix' }, { discipline: invalidChoice('mix') }],
    ['sort_order 1.5', { sort_order: 1.5 }, { sort_order: invalidInteger }],
    ['sort_order 2147483648', { sort_order: 2147483648 }, { sort_order: maxValue(2147483647) }],
    ['a description of 1001 characters', { description: 'x'.repeat(1001) }, { description: maxLength(1000) }],
    ['a null description', { description: null }, { description: notNull }],
    ['is_active "x"', { is_active: 'x' }, { is_active: invalidBoolean }],
  ]
  testEachRefusedPost(cases, {
    post: (body) => post(body),
    count: sectionCount,
    base: () => ({ name: 'The Slab', discipline: 'ROP' }),
  })

  test('a name the gym has, whatever its case, is refused with the other fields', async () => {
    const cave = await makeSection(t.db, t.seed.gym.id)
    for (const name of ['The Cave', 'the cave', ' THE CAVE ']) {
      const res = await post({ name, discipline: 'ROP' })
      expect({ name, status: res.status, body: res.body }).toEqual({
        name,
        status: 400,
        body: { name: nameTaken },
      })
    }
    const res = await post({ name: 'the cave', discipline: 'X', sort_order: 'first' })
    expect(res.body).toEqual({ name: nameTaken, discipline: invalidChoice('X'), sort_order: invalidInteger })
    expect(await sectionCount()).toBe(1)
    expect(await storedSection(cave.id)).toEqual(cave)
  })

  test('PUT needs name and discipline; a refused PUT or PATCH changes nothing', async () => {
    const cave = await makeSection(t.db, t.seed.gym.id)
    await makeSection(t.db, t.seed.gym.id, { name: 'The Slab', discipline: 'ROP' })
    const answers = [
      ['PUT', {}, { name: required, discipline: required }],
      ['PUT', { name: 'The Cave' }, { discipline: required }],
      ['PATCH', { name: 'the slab' }, { name: nameTaken }],
      ['PATCH', { name: '' }, { name: blank }],
      ['PATCH', { discipline: 'AUT' }, { discipline: invalidChoice('AUT') }],
      [
        'PATCH',
        { climbs_up: 5, last_reset_date: '2026-01-01', sort_order: 'x' },
        { sort_order: invalidInteger },
      ],
    ] as const
    for (const [method, body, errors] of answers) {
      const res = await t.request(method, sectionPath(cave.id), { token: setterToken, body })
      expect({ method, body, status: res.status, errors: res.body }).toEqual({
        method,
        body,
        status: 400,
        errors,
      })
    }
    expect(await storedSection(cave.id)).toEqual(cave)
  })

  test('a discipline that the climbs up would not suit is refused; stripped climbs do not count', async () => {
    const cave = await makeSection(t.db, t.seed.gym.id)
    await climbIn(cave, '2026-11-01')
    await climbIn(cave, '2026-11-02', { stripped_date: '2026-11-10' })
    const slab = await makeSection(t.db, t.seed.gym.id, { name: 'The Slab', discipline: 'ROP' })
    await climbIn(slab, '2026-11-01', { discipline: 'TR' })
    await climbIn(slab, '2026-11-01', { discipline: 'AUT' })
    const mixed = await makeSection(t.db, t.seed.gym.id, { name: 'The Barn', discipline: 'MIX' })
    await makeClimb(t.db, { section: mixed, grade: boulder }, { set_date: '2026-11-01' })
    await makeClimb(t.db, { section: mixed, grade: rope }, { set_date: '2026-11-01', discipline: 'LEA' })
    const climbs = await storedClimbs()
    for (const [section, body, errors] of [
      [cave, { discipline: 'ROP' }, { discipline: wouldNotSuit(1, 'ROP') }],
      [slab, { discipline: 'BOU' }, { discipline: wouldNotSuit(2, 'BOU') }],
      [mixed, { discipline: 'BOU' }, { discipline: wouldNotSuit(1, 'BOU') }],
      [
        mixed,
        { discipline: 'ROP', name: 'the cave' },
        { name: nameTaken, discipline: wouldNotSuit(1, 'ROP') },
      ],
    ] as const) {
      const res = await t.request('PATCH', sectionPath(section.id), { token: setterToken, body })
      expect({ body, status: res.status, errors: res.body }).toEqual({ body, status: 400, errors })
      expect(await storedSection(section.id)).toEqual(section)
    }
    expect(await storedClimbs()).toEqual(climbs)
  })
})

describe('/api/gyms/<id>/sections/ 403', () => {
  test('a staff user without can_manage_climbs, even with every other flag, reads but cannot write', async () => {
    const cave = await makeSection(t.db, t.seed.gym.id)
    await climbIn(cave, '2026-11-01')
    for (const token of [t.seed.staffToken, otherFlagsToken]) {
      const list = await t.request('GET', sectionsPath(), { token })
      expect(list.status).toBe(200)
      expect(list.body).toEqual(onePage([sectionBody(cave.id, { climbs_up: 1 })]))
      const read = await t.request('GET', sectionPath(cave.id), { token })
      expect(read.body).toEqual(sectionBody(cave.id, { climbs_up: 1 }))
    }
    const climbs = await storedClimbs()
    for (const body of [{ name: 'The Slab', discipline: 'ROP' }, { name: '' }]) {
      await expectEachForbidden(
        t,
        [t.seed.staffToken, otherFlagsToken],
        [
          ['POST', sectionsPath(), body],
          ['PUT', sectionPath(cave.id), body],
          ['PATCH', sectionPath(cave.id), body],
          ['DELETE', sectionPath(cave.id)],
          ['POST', resetPath(cave.id), {}],
          ['POST', resetPath(cave.id), { date: 'soon' }],
        ],
      )
    }
    expect(await storedSection(cave.id)).toEqual(cave)
    expect(await storedClimbs()).toEqual(climbs)
    expect(await sectionCount()).toBe(1)
  })

  test('a user with can_manage_climbs and an admin write', async () => {
    for (const [token, name] of [
      [setterToken, 'The Slab'],
      [t.seed.adminToken, 'The Arch'],
    ] as const) {
      const created = await post({ name, discipline: 'ROP' }, token)
      expect(created.status).toBe(201)
      const section = (await storedSection(created.body.id))!
      const patched = await t.request('PATCH', sectionPath(section.id), { token, body: { sort_order: 3 } })
      expect(patched.status).toBe(200)
      const resetAnswer = await reset(section, {}, token)
      expect(resetAnswer.status).toBe(200)
      const removed = await t.request('DELETE', sectionPath(section.id), { token })
      expect(removed.status).toBe(204)
    }
    expect(await sectionCount()).toBe(0)
  })
})

describe('/api/gyms/<id>/sections/ 404', () => {
  test('an unknown gym is 404 for every operation, and nothing is written', async () => {
    const cave = await makeSection(t.db, t.seed.gym.id)
    const body = { name: 'The Slab', discipline: 'ROP' }
    await expectEachNotFound(t, setterToken, [
      ['GET', sectionsPath(999)],
      ['POST', sectionsPath(999), body],
      ['GET', sectionPath(cave.id, 999)],
      ['PUT', sectionPath(cave.id, 999), body],
      ['PATCH', sectionPath(cave.id, 999), body],
      ['DELETE', sectionPath(cave.id, 999)],
      ['POST', resetPath(cave.id, 999), {}],
    ])
    expect(await sectionCount()).toBe(1)
    expect(await storedSection(cave.id)).toEqual(cave)
  })

  test("another gym's section is 404 here, and is not changed or reset", async () => {
    const theirs = await makeSection(t.db, uptown.id)
    const theirGrade = await makeGrade(t.db, uptown.id)
    await makeClimb(t.db, { section: theirs, grade: theirGrade }, { set_date: '2026-11-01' })
    const climbs = await storedClimbs()
    await expectEachNotFound(t, t.seed.adminToken, [
      ['GET', sectionPath(theirs.id)],
      ['PUT', sectionPath(theirs.id), { name: 'Mine', discipline: 'BOU' }],
      ['PATCH', sectionPath(theirs.id), { name: 'Mine' }],
      ['DELETE', sectionPath(theirs.id)],
      ['POST', resetPath(theirs.id), {}],
    ])
    expect(await storedSection(theirs.id)).toEqual(theirs)
    expect(await storedClimbs()).toEqual(climbs)
  })

  test('an unknown section is 404', async () => {
    await expectEachNotFound(t, setterToken, [
      ['GET', sectionPath(999)],
      ['PATCH', sectionPath(999), { name: 'x' }],
      ['DELETE', sectionPath(999)],
      ['POST', resetPath(999), {}],
    ])
  })
})

describe('/api/gyms/<id>/sections/ list', () => {
  test("by sort_order, then name whatever its case, then id; another gym's are not listed", async () => {
    const bay = await makeSection(t.db, t.seed.gym.id, { name: 'Bay', sort_order: 0 })
    const arch = await makeSection(t.db, t.seed.gym.id, { name: 'arch', discipline: 'ROP', sort_order: 0 })
    const top = await makeSection(t.db, t.seed.gym.id, {
      name: 'Mezzanine',
      discipline: 'MIX',
      sort_order: -1,
    })
    const last = await makeSection(t.db, t.seed.gym.id, { name: 'Alcove', sort_order: 5, is_active: 0 })
    const barn = await makeSection(t.db, t.seed.gym.id, { name: 'Barn', discipline: 'MIX', sort_order: 2 })
    await makeSection(t.db, uptown.id, { name: 'Another', sort_order: -9 })
    const ids = listIds(t, sectionsPath())
    expect(await ids()).toEqual([top.id, arch.id, bay.id, barn.id, last.id])
    expect(await ids('discipline=MIX')).toEqual([top.id, barn.id])
    expect(await ids('discipline=BOU&is_active=true')).toEqual([bay.id])
    expect(await ids('is_active=false')).toEqual([last.id])
    expect(await ids('discipline=ROP')).toEqual([arch.id])
  })

  test('climbs_up counts the climbs up, not the stripped ones nor other sections', async () => {
    const cave = await makeSection(t.db, t.seed.gym.id, {
      description: 'Overhang',
      sort_order: 1,
      is_active: 0,
      last_reset_date: '2026-10-01',
    })
    const slab = await makeSection(t.db, t.seed.gym.id, {
      name: 'The Slab',
      discipline: 'ROP',
      sort_order: 2,
    })
    await climbIn(cave, '2026-11-01')
    await climbIn(cave, '2026-11-02')
    await climbIn(cave, '2026-10-02', { stripped_date: '2026-11-01' })
    await climbIn(slab, '2026-11-03')
    const res = await t.request('GET', sectionsPath(), { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      onePage([
        sectionBody(cave.id, {
          description: 'Overhang',
          sort_order: 1,
          is_active: false,
          last_reset_date: '2026-10-01',
          climbs_up: 2,
        }),
        sectionBody(slab.id, { name: 'The Slab', discipline: 'ROP', sort_order: 2, climbs_up: 1 }),
      ]),
    )
    const empty = await t.request('GET', sectionsPath(uptown.id), { token: t.seed.staffToken })
    expect(empty.body).toEqual(emptyPage)
  })

  test('a filter with a bad value is 400', async () => {
    for (const [query, errors] of [
      ['discipline=TR', { discipline: ['Select a valid choice. TR is not one of the available choices.'] }],
      ['is_active=perhaps', { is_active: invalidBoolean }],
    ] as const) {
      await expectEachAnswer(t, t.seed.staffToken, [['GET', `${sectionsPath()}?${query}`]], 400, errors)
    }
  })
})

describe('/api/gyms/<id>/sections/ success', () => {
  test('POST with name and discipline: sorted at 0, no description, active, never reset', async () => {
    t.clock.advance(60_000)
    const res = await post({ name: '  The Cave ', discipline: 'BOU' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      sectionBody(res.body.id, { created_at: ONE_MINUTE_LATER, updated_at: ONE_MINUTE_LATER }),
    )
    const read = await t.request('GET', sectionPath(res.body.id), { token: t.seed.staffToken })
    expect(read.body).toEqual(res.body)
  })

  test("every field given; read-only ones are ignored; another gym's name is free", async () => {
    await makeSection(t.db, uptown.id)
    const res = await post({
      name: 'The Cave',
      discipline: 'MIX',
      sort_order: -4,
      description: 'Steep',
      is_active: false,
      climbs_up: 9,
      last_reset_date: '2026-01-01',
      gym_id: uptown.id,
      id: 70,
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      sectionBody(res.body.id, { discipline: 'MIX', sort_order: -4, description: 'Steep', is_active: false }),
    )
    expect(res.body.id).not.toBe(70)
  })

  test('PUT replaces the fields sent and keeps the others; PATCH changes one; its own name in another case passes', async () => {
    const cave = await makeSection(t.db, t.seed.gym.id, { description: 'Steep', sort_order: 3 })
    t.clock.advance(60_000)
    const put = await t.request('PUT', sectionPath(cave.id), {
      token: setterToken,
      body: { name: 'THE CAVE', discipline: 'MIX' },
    })
    expect(put.status).toBe(200)
    expect(put.body).toEqual(
      sectionBody(cave.id, {
        name: 'THE CAVE',
        discipline: 'MIX',
        description: 'Steep',
        sort_order: 3,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    const patch = await t.request('PATCH', sectionPath(cave.id), {
      token: setterToken,
      body: { description: '', is_active: false },
    })
    expect(patch.body).toEqual(
      sectionBody(cave.id, {
        name: 'THE CAVE',
        discipline: 'MIX',
        sort_order: 3,
        is_active: false,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
  })

  test('a discipline that suits every climb up is taken', async () => {
    const cave = await makeSection(t.db, t.seed.gym.id)
    await climbIn(cave, '2026-11-01')
    await climbIn(cave, '2026-11-01', { stripped_date: '2026-11-05' })
    const toMix = await t.request('PATCH', sectionPath(cave.id), {
      token: setterToken,
      body: { discipline: 'MIX' },
    })
    expect(toMix.body).toEqual(sectionBody(cave.id, { discipline: 'MIX', climbs_up: 1 }))
    const back = await t.request('PATCH', sectionPath(cave.id), {
      token: setterToken,
      body: { discipline: 'BOU' },
    })
    expect(back.body).toEqual(sectionBody(cave.id, { climbs_up: 1 }))
    // Stripped, the boulders are history: the wall can become a rope wall.
    const slab = await makeSection(t.db, t.seed.gym.id, { name: 'The Slab' })
    await climbIn(slab, '2026-11-01', { stripped_date: '2026-11-05' })
    const toRope = await t.request('PATCH', sectionPath(slab.id), {
      token: setterToken,
      body: { discipline: 'ROP' },
    })
    expect(toRope.body).toEqual(sectionBody(slab.id, { name: 'The Slab', discipline: 'ROP' }))
  })
})

describe('/api/gyms/<id>/sections/<section_id>/ DELETE', () => {
  test('a section that never held a climb is deleted: 204 with no body', async () => {
    const cave = await makeSection(t.db, t.seed.gym.id)
    const res = await t.request('DELETE', sectionPath(cave.id), { token: setterToken })
    expect(res.status).toBe(204)
    expect(res.body).toBe('')
    expect(await sectionCount()).toBe(0)
  })

  test('a section with a climb up, or with stripped ones only, is refused and kept', async () => {
    const cave = await makeSection(t.db, t.seed.gym.id)
    await climbIn(cave, '2026-11-01')
    const slab = await makeSection(t.db, t.seed.gym.id, { name: 'The Slab', discipline: 'ROP' })
    await climbIn(slab, '2026-11-01', { stripped_date: '2026-11-02' })
    for (const section of [cave, slab]) {
      const res = await t.request('DELETE', sectionPath(section.id), { token: t.seed.adminToken })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(hasClimbs)
      expect(await storedSection(section.id)).toEqual(section)
    }
  })
})

describe('/api/gyms/<id>/sections/<section_id>/reset/', () => {
  let cave: Section
  let slab: Section

  beforeEach(async () => {
    cave = await makeSection(t.db, t.seed.gym.id)
    slab = await makeSection(t.db, t.seed.gym.id, { name: 'The Slab', discipline: 'ROP' })
  })

  const strippedDates = async () => (await storedClimbs()).map((climb) => climb.stripped_date)

  test("without a date: today in the gym's zone; every climb up in the section comes down, no other", async () => {
    await climbIn(cave, '2026-11-01')
    await climbIn(cave, TODAY)
    await climbIn(cave, '2026-10-01', { stripped_date: '2026-10-20' })
    await climbIn(slab, '2026-11-01')
    t.clock.advance(60_000)
    const res = await reset(cave)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(sectionBody(cave.id, { last_reset_date: TODAY, updated_at: ONE_MINUTE_LATER }))
    expect(await strippedDates()).toEqual([TODAY, TODAY, '2026-10-20', null])
    const stripped = (await storedClimbs()).slice(0, 2).map((climb) => climb.updated_at)
    expect(stripped).toEqual([ONE_MINUTE_LATER, ONE_MINUTE_LATER])
    const other = await t.request('GET', sectionPath(slab.id), { token: t.seed.staffToken })
    expect(other.body).toEqual(sectionBody(slab.id, { name: 'The Slab', discipline: 'ROP', climbs_up: 1 }))
  })

  test("today is the gym's: at 22:00 in Denver, already the next day in UTC, it is still the 22nd", async () => {
    t.clock.set('2026-11-23T05:00:00.000Z')
    await climbIn(cave, '2026-11-01')
    const refused = await reset(cave, { date: '2026-11-23' })
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual(inTheFuture)
    const res = await reset(cave, {})
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      sectionBody(cave.id, { last_reset_date: TODAY, updated_at: '2026-11-23T05:00:00.000Z' }),
    )
  })

  test('with a date: the climbs set by that day come down with it; those set later stay up', async () => {
    await climbIn(cave, '2026-11-01')
    await climbIn(cave, '2026-11-15')
    await climbIn(cave, '2026-11-16')
    await climbIn(cave, '2026-11-20')
    await climbIn(slab, '2026-11-01')
    const res = await reset(cave, { date: '2026-11-15' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(sectionBody(cave.id, { last_reset_date: '2026-11-15', climbs_up: 2 }))
    expect(await strippedDates()).toEqual(['2026-11-15', '2026-11-15', null, null, null])
  })

  test('a reset dated before the last one strips as dated and leaves the later date on record', async () => {
    await climbIn(cave, '2026-11-01')
    expect((await reset(cave, { date: '2026-11-20' })).body.last_reset_date).toBe('2026-11-20')
    await climbIn(cave, '2026-11-02')
    const res = await reset(cave, { date: '2026-11-10' })
    expect(res.body).toEqual(sectionBody(cave.id, { last_reset_date: '2026-11-20' }))
    expect(await strippedDates()).toEqual(['2026-11-20', '2026-11-10'])
  })

  test('a section with nothing up is reset all the same', async () => {
    const res = await reset(slab, { date: '2026-11-21' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      sectionBody(slab.id, { name: 'The Slab', discipline: 'ROP', last_reset_date: '2026-11-21' }),
    )
  })

  test('a date after today, or not a date, is refused and changes nothing', async () => {
    await climbIn(cave, '2026-11-01')
    await climbIn(cave, '2026-11-05', { stripped_date: '2026-11-06' })
    const climbs = await storedClimbs()
    for (const [body, errors] of [
      [{ date: '2026-11-23' }, inTheFuture],
      [{ date: '2027-01-01' }, inTheFuture],
      [{ date: '2026-02-30' }, { date: invalidDate }],
      [{ date: '22/11/2026' }, { date: invalidDate }],
      [{ date: null }, { date: notNull }],
    ] as const) {
      const res = await reset(cave, body)
      expect({ body, status: res.status, errors: res.body }).toEqual({ body, status: 400, errors })
    }
    expect(await storedClimbs()).toEqual(climbs)
    expect(await storedSection(cave.id)).toEqual(cave)
  })

  test('all or nothing: when the reset cannot be recorded, no climb comes down', async () => {
    await climbIn(cave, '2026-11-01')
    await climbIn(cave, '2026-11-02')
    const climbs = await storedClimbs()
    await sql`CREATE TRIGGER refuse_reset BEFORE UPDATE OF last_reset_date ON sections
      BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`.execute(t.db)
    const res = await reset(cave, { date: '2026-11-20' })
    expect(res.status).toBe(500)
    expect(res.body).toEqual(serverError)
    expect(await storedClimbs()).toEqual(climbs)
    expect(await storedSection(cave.id)).toEqual(cave)
  })

  test('two resets of one section at once: one strips every climb, on its date; the other finds none', async () => {
    for (const day of ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04']) await climbIn(cave, day)
    const answers = await Promise.all([
      reset(cave, { date: '2026-11-20' }),
      reset(cave, { date: '2026-11-21' }),
    ])
    expect(answers.map((res) => res.status)).toEqual([200, 200])
    const dates = await strippedDates()
    // Whichever ran first took all four down on its own date; the second had nothing left.
    expect(dates.length).toBe(4)
    expect(new Set(dates).size).toBe(1)
    expect(['2026-11-20', '2026-11-21']).toContain(dates[0]!)
    const section = await t.request('GET', sectionPath(cave.id), { token: t.seed.staffToken })
    expect(section.body).toEqual(sectionBody(cave.id, { last_reset_date: '2026-11-21' }))
  })
})
