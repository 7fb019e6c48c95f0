import { beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import type { Gym, Section } from '../../../src/db/schema.ts'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  blank,
  emptyPage,
  invalidBoolean,
  invalidChoice,
  invalidInteger,
  maxLength,
  maxValue,
  methodNotAllowed,
  minValue,
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
 * /api/gyms/<id>/grades/ and its load-scale/ action (walls.md): every field rule with its exact
 * body and nothing written, the order and filters, who may write, another gym's grades, DELETE of
 * a grade in use, each standard scale name by name, and two writes at once.
 */

const t = useSeededApp()

/** A staff user with can_manage_climbs only, and one with every other flag but not it. */
let setterToken: string
let otherFlagsToken: string
/** A second gym of the organization. */
let uptown: Gym

beforeEach(async () => {
  setterToken = await makeToken(t.db, await makeUser(t.db, { can_manage_climbs: 1 }))
  otherFlagsToken = await makeToken(t.db, await makeUser(t.db, { ...everyCanFlag, can_manage_climbs: 0 }))
  uptown = await makeGym(t.db, { name: 'Uptown' })
})

const nameTaken = ['grade with this name already exists.']
const colorRefused = ['Enter a valid color: "#" and 6 hexadecimal digits, such as #1E90FF.']
const disciplineInUse = ['This grade is used by climbs (up or stripped), so its discipline cannot change.']
const inUse = {
  non_field_errors: [
    'This grade is used by climbs (up or stripped), so it cannot be deleted. Set is_active to false to retire it.',
  ],
}

const gradesPath = (gymId = t.seed.gym.id) => `/api/gyms/${gymId}/grades/`
const gradePath = (id: number, gymId = t.seed.gym.id) => `/api/gyms/${gymId}/grades/${id}/`
const loadScalePath = (gymId = t.seed.gym.id) => `/api/gyms/${gymId}/grades/load-scale/`
const gradeCount = () => countRows(t.db, 'grades')
const storedGrade = (id: number) =>
  t.db.selectFrom('grades').selectAll().where('id', '=', id).executeTakeFirst()

/** The whole record the API answers for a grade with the factory's defaults (V4, BOU, rank 4). */
function gradeBody(id: number, fields: Record<string, unknown> = {}) {
  const gymId = (fields.gym_id as number | undefined) ?? t.seed.gym.id
  return {
    id,
    url: `${ORIGIN}/api/gyms/${gymId}/grades/${id}/`,
    gym_id: gymId,
    name: 'V4',
    system: 'V',
    discipline: 'BOU',
    rank: 4,
    color_hex: null,
    target_count: null,
    is_active: true,
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const post = (body: unknown, token = setterToken) => t.request('POST', gradesPath(), { token, body })
const loadScale = (body: unknown, token = setterToken) => t.request('POST', loadScalePath(), { token, body })

/** A section of the seeded gym and a climb of `grade` in it, up unless `stripped_date` is given. */
async function climbAt(grade: Awaited<ReturnType<typeof makeGrade>>, stripped_date: string | null = null) {
  const section: Section = await makeSection(t.db, t.seed.gym.id, { name: `Wall ${grade.id}` })
  return makeClimb(t.db, { section, grade }, { set_date: '2026-11-01', stripped_date })
}

describe('/api/gyms/<id>/grades/ 401', () => {
  testEachNeedsTokenApart(
    t,
    [
      ['GET', '/api/gyms/1/grades/'],
      ['POST', '/api/gyms/1/grades/'],
      ['GET', '/api/gyms/1/grades/1/'],
      ['PUT', '/api/gyms/1/grades/1/'],
      ['PATCH', '/api/gyms/1/grades/1/'],
      ['DELETE', '/api/gyms/1/grades/1/'],
      ['POST', '/api/gyms/1/grades/load-scale/'],
    ],
    { body: { name: 'V5' }, setUp: () => makeGrade(t.db, t.seed.gym.id) },
  )
})

describe('/api/gyms/<id>/grades/ 400', () => {
  test('POST with an empty body needs name, system and discipline', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: required, system: required, discipline: required })
    expect(await gradeCount()).toBe(0)
  })

  const cases: RefusedPost[] = [
    ['a blank name', { name: '' }, { name: blank }],
    ['a name of spaces only', { name: '   ' }, { name: blank }],
    ['a null name', { name: null }, { name: notNull }],
    ['a name of 51 characters', { name: 'x'.repeat(51) }, { name: maxLength(50) }],
    ['an unknown system', { system: 'HUECO' }, { system: invalidChoice('HUECO') }],
    ['a system in lower case', { system: 'v' }, { system: invalidChoice('v') }],
    ['a climb discipline (TR)', { discipline: 'TR' }, { discipline: invalidChoice('TR') }],
    ['a section discipline (MIX)', { discipline: 'MIX' }, { discipline: invalidChoice('MIX') }],
    ['a null discipline', { discipline: null }, { discipline: notNull }],
    ['rank 1.5', { rank: 1.5 }, { rank: invalidInteger }],
    ['rank "hard"', { rank: 'hard' }, { rank: invalidInteger }],
    ['rank null', { rank: null }, { rank: notNull }],
    ['rank 2147483648', { rank: 2147483648 }, { rank: maxValue(2147483647) }],
    ['rank -2147483649', { rank: -2147483649 }, { rank: minValue(-2147483648) }],
    ['color_hex "red"', { color_hex: 'red' }, { color_hex: colorRefused }],
    ['color_hex without "#"', { color_hex: '1E90FF' }, { color_hex: colorRefused }],
    ['color_hex of 5 digits', { color_hex: '#1E90F' }, { color_hex: colorRefused }],
    ['color_hex of 7 digits', { color_hex: '#1E90FF0' }, { color_hex: colorRefused }],
    ['color_hex with a letter past F', { color_hex: '#1E90FG' }, { color_hex: colorRefused }],
    ['color_hex ""', { color_hex: '' }, { color_hex: colorRefused }],
    ['target_count -1', { target_count: -1 }, { target_count: minValue(0) }],
    ['target_count 2.5', { target_count: 2.5 }, { target_count: invalidInteger }],
    ['is_active "maybe"', { is_active: 'maybe' }, { is_active: invalidBoolean }],
  ]
  testEachRefusedPost(cases, {
    post: (body) => post(body),
    count: gradeCount,
    base: () => ({ name: 'V5', system: 'V', discipline: 'BOU' }),
  })

  test('every failing field at once', async () => {
    const res = await post({
      name: '',
      system: 'X',
      discipline: 'Y',
      rank: 'a',
      color_hex: 'red',
      target_count: -1,
      is_active: 'm',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      name: blank,
      system: invalidChoice('X'),
      discipline: invalidChoice('Y'),
      rank: invalidInteger,
      color_hex: colorRefused,
      target_count: minValue(0),
      is_active: invalidBoolean,
    })
    expect(await gradeCount()).toBe(0)
  })

  test('a name the gym has in that discipline, whatever its case, is refused with the other fields', async () => {
    const v4 = await makeGrade(t.db, t.seed.gym.id)
    for (const name of ['V4', 'v4', '  v4 ']) {
      const res = await post({ name, system: 'V', discipline: 'BOU' })
      expect({ name, status: res.status, body: res.body }).toEqual({
        name,
        status: 400,
        body: { name: nameTaken },
      })
    }
    const res = await post({ name: 'v4', system: 'V', discipline: 'BOU', color_hex: 'red' })
    expect(res.body).toEqual({ name: nameTaken, color_hex: colorRefused })
    expect(await gradeCount()).toBe(1)
    expect(await storedGrade(v4.id)).toEqual(v4)
  })

  test('PUT needs name, system and discipline; a refused PUT or PATCH changes nothing', async () => {
    const v4 = await makeGrade(t.db, t.seed.gym.id)
    await makeGrade(t.db, t.seed.gym.id, { name: 'V5', rank: 5 })
    await makeGrade(t.db, t.seed.gym.id, { name: 'Red', system: 'CIRCUIT', discipline: 'ROP', rank: 1 })
    const answers = [
      ['PUT', {}, { name: required, system: required, discipline: required }],
      ['PUT', { name: 'V4', system: 'V' }, { discipline: required }],
      ['PATCH', { name: 'v5' }, { name: nameTaken }],
      ['PATCH', { name: '' }, { name: blank }],
      ['PATCH', { discipline: 'ROP', name: 'RED' }, { name: nameTaken }],
      ['PATCH', { color_hex: '#12' }, { color_hex: colorRefused }],
      ['PATCH', { target_count: -3 }, { target_count: minValue(0) }],
      ['PATCH', { system: 'B' }, { system: invalidChoice('B') }],
    ] as const
    for (const [method, body, errors] of answers) {
      const res = await t.request(method, gradePath(v4.id), { token: setterToken, body })
      expect({ method, body, status: res.status, errors: res.body }).toEqual({
        method,
        body,
        status: 400,
        errors,
      })
    }
    expect(await storedGrade(v4.id)).toEqual(v4)
  })

  test("moving a grade to the other discipline meets that discipline's names", async () => {
    const v4 = await makeGrade(t.db, t.seed.gym.id)
    await makeGrade(t.db, t.seed.gym.id, { name: 'v4', system: 'OTHER', discipline: 'ROP', rank: 0 })
    const res = await t.request('PATCH', gradePath(v4.id), {
      token: setterToken,
      body: { discipline: 'ROP' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: nameTaken })
    expect(await storedGrade(v4.id)).toEqual(v4)
  })

  test('a grade used by a climb, up or stripped, keeps its discipline', async () => {
    const up = await makeGrade(t.db, t.seed.gym.id)
    const gone = await makeGrade(t.db, t.seed.gym.id, { name: 'V5', rank: 5 })
    await climbAt(up)
    await climbAt(gone, '2026-11-20')
    for (const grade of [up, gone]) {
      for (const method of ['PUT', 'PATCH']) {
        const res = await t.request(method, gradePath(grade.id), {
          token: setterToken,
          body: { name: grade.name, system: 'V', discipline: 'ROP', rank: 40 },
        })
        expect({ method, status: res.status, body: res.body }).toEqual({
          method,
          status: 400,
          body: { discipline: disciplineInUse },
        })
      }
      expect(await storedGrade(grade.id)).toEqual(grade)
    }
    // Sending the discipline it has is no change, and passes.
    const same = await t.request('PATCH', gradePath(up.id), {
      token: setterToken,
      body: { discipline: 'BOU', target_count: 3 },
    })
    expect(same.status).toBe(200)
    expect(same.body).toEqual(gradeBody(up.id, { target_count: 3 }))
  })
})

describe('/api/gyms/<id>/grades/ 403', () => {
  test('a staff user without can_manage_climbs, even with every other flag, reads but cannot write', async () => {
    const v4 = await makeGrade(t.db, t.seed.gym.id)
    for (const token of [t.seed.staffToken, otherFlagsToken]) {
      const list = await t.request('GET', gradesPath(), { token })
      expect(list.status).toBe(200)
      expect(list.body).toEqual(onePage([gradeBody(v4.id)]))
      const read = await t.request('GET', gradePath(v4.id), { token })
      expect(read.status).toBe(200)
      expect(read.body).toEqual(gradeBody(v4.id))
    }
    const valid = { name: 'V5', system: 'V', discipline: 'BOU' }
    for (const body of [valid, { name: '' }]) {
      await expectEachForbidden(
        t,
        [t.seed.staffToken, otherFlagsToken],
        [
          ['POST', gradesPath(), body],
          ['PUT', gradePath(v4.id), body],
          ['PATCH', gradePath(v4.id), body],
          ['DELETE', gradePath(v4.id)],
          ['POST', loadScalePath(), { system: 'V', discipline: 'BOU' }],
        ],
      )
    }
    expect(await storedGrade(v4.id)).toEqual(v4)
    expect(await gradeCount()).toBe(1)
  })

  test('a user with can_manage_climbs and an admin write', async () => {
    for (const [token, name] of [
      [setterToken, 'V5'],
      [t.seed.adminToken, 'V6'],
    ] as const) {
      const created = await post({ name, system: 'V', discipline: 'BOU' }, token)
      expect(created.status).toBe(201)
      const patched = await t.request('PATCH', gradePath(created.body.id), {
        token,
        body: { target_count: 2 },
      })
      expect(patched.status).toBe(200)
      const removed = await t.request('DELETE', gradePath(created.body.id), { token })
      expect(removed.status).toBe(204)
    }
    const loaded = await loadScale({ system: 'FONT', discipline: 'BOU' }, t.seed.adminToken)
    expect(loaded.status).toBe(201)
    expect((await loadScale({ system: 'YDS', discipline: 'ROP' })).status).toBe(201)
  })
})

describe('/api/gyms/<id>/grades/ 404', () => {
  test('an unknown gym is 404 for every operation, and nothing is written', async () => {
    const v4 = await makeGrade(t.db, t.seed.gym.id)
    const body = { name: 'V5', system: 'V', discipline: 'BOU' }
    await expectEachNotFound(t, setterToken, [
      ['GET', gradesPath(999)],
      ['POST', gradesPath(999), body],
      ['POST', gradesPath(999), {}],
      ['GET', gradePath(v4.id, 999)],
      ['PUT', gradePath(v4.id, 999), body],
      ['PATCH', gradePath(v4.id, 999), body],
      ['DELETE', gradePath(v4.id, 999)],
      ['POST', loadScalePath(999), { system: 'V', discipline: 'BOU' }],
    ])
    expect(await gradeCount()).toBe(1)
    expect(await storedGrade(v4.id)).toEqual(v4)
  })

  test("another gym's grade is 404 here, and is not changed", async () => {
    const theirs = await makeGrade(t.db, uptown.id)
    await expectEachNotFound(t, t.seed.adminToken, [
      ['GET', gradePath(theirs.id)],
      ['PUT', gradePath(theirs.id), { name: 'V9', system: 'V', discipline: 'BOU' }],
      ['PATCH', gradePath(theirs.id), { name: 'V9' }],
      ['DELETE', gradePath(theirs.id)],
    ])
    expect(await storedGrade(theirs.id)).toEqual(theirs)
    const there = await t.request('GET', gradePath(theirs.id, uptown.id), { token: t.seed.staffToken })
    expect(there.body).toEqual(gradeBody(theirs.id, { gym_id: uptown.id }))
  })

  test('an unknown grade, or an id that is not a number, is 404', async () => {
    await expectEachNotFound(t, setterToken, [
      ['GET', gradePath(999)],
      ['PATCH', gradePath(999), { name: 'x' }],
      ['DELETE', gradePath(999)],
      ['GET', `${gradesPath()}abc/`],
    ])
  })
})

describe('/api/gyms/<id>/grades/ list', () => {
  test("by discipline, then rank, then id; another gym's grades are not listed", async () => {
    const rope = await makeGrade(t.db, t.seed.gym.id, {
      name: '5.10a',
      system: 'YDS',
      discipline: 'ROP',
      rank: 0,
    })
    const v1 = await makeGrade(t.db, t.seed.gym.id, { name: 'V1', rank: 1 })
    const v0 = await makeGrade(t.db, t.seed.gym.id, { name: 'V0', rank: 0 })
    const vb = await makeGrade(t.db, t.seed.gym.id, { name: 'VB', rank: -1, is_active: 0 })
    const blue = await makeGrade(t.db, t.seed.gym.id, { name: 'Blue', system: 'CIRCUIT', rank: 1 })
    const easyRope = await makeGrade(t.db, t.seed.gym.id, {
      name: '5.6',
      system: 'YDS',
      discipline: 'ROP',
      rank: -5,
      is_active: 0,
    })
    await makeGrade(t.db, uptown.id, { name: 'V0', rank: 0 })
    const ids = listIds(t, gradesPath())
    expect(await ids()).toEqual([vb.id, v0.id, v1.id, blue.id, easyRope.id, rope.id])
    expect(await ids('discipline=ROP')).toEqual([easyRope.id, rope.id])
    expect(await ids('discipline=BOU&is_active=true')).toEqual([v0.id, v1.id, blue.id])
    expect(await ids('is_active=false')).toEqual([vb.id, easyRope.id])
    expect(await ids('is_active=0&discipline=BOU')).toEqual([vb.id])
  })

  test('the list shows every field', async () => {
    const blue = await makeGrade(t.db, t.seed.gym.id, {
      name: 'Blue',
      system: 'CIRCUIT',
      rank: 2,
      color_hex: '#1E90FF',
      target_count: 12,
      is_active: 0,
    })
    const res = await t.request('GET', gradesPath(), { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      onePage([
        gradeBody(blue.id, {
          name: 'Blue',
          system: 'CIRCUIT',
          rank: 2,
          color_hex: '#1E90FF',
          target_count: 12,
          is_active: false,
        }),
      ]),
    )
    const empty = await t.request('GET', gradesPath(uptown.id), { token: t.seed.staffToken })
    expect(empty.body).toEqual(emptyPage)
  })

  test('a filter with a bad value is 400', async () => {
    for (const [query, errors] of [
      ['discipline=TR', { discipline: ['Select a valid choice. TR is not one of the available choices.'] }],
      ['discipline=bou', { discipline: ['Select a valid choice. bou is not one of the available choices.'] }],
      ['is_active=maybe', { is_active: invalidBoolean }],
    ] as const) {
      await expectEachAnswer(t, t.seed.staffToken, [['GET', `${gradesPath()}?${query}`]], 400, errors)
    }
  })
})

describe('/api/gyms/<id>/grades/ success', () => {
  test('POST with name, system and discipline: ranked after the discipline, active, no colour', async () => {
    await makeGrade(t.db, t.seed.gym.id, { name: 'V3', rank: 3 })
    await makeGrade(t.db, t.seed.gym.id, { name: 'V9', rank: 9, is_active: 0 })
    await makeGrade(t.db, t.seed.gym.id, { name: '5.12a', system: 'YDS', discipline: 'ROP', rank: 50 })
    await makeGrade(t.db, uptown.id, { name: 'V12', rank: 99 })
    t.clock.advance(60_000)
    const res = await post({ name: '  V10 ', system: 'V', discipline: 'BOU' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      gradeBody(res.body.id, {
        name: 'V10',
        rank: 10,
        created_at: ONE_MINUTE_LATER,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    const read = await t.request('GET', gradePath(res.body.id), { token: t.seed.staffToken })
    expect(read.body).toEqual(res.body)
  })

  test("a discipline's first grade is ranked 0", async () => {
    await makeGrade(t.db, t.seed.gym.id, { name: 'V3', rank: 3 })
    const res = await post({ name: '5.9', system: 'YDS', discipline: 'ROP' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      gradeBody(res.body.id, { name: '5.9', system: 'YDS', discipline: 'ROP', rank: 0 }),
    )
  })

  test('every field given: the colour is stored upper case; the same name is free in the other discipline', async () => {
    await makeGrade(t.db, t.seed.gym.id, { name: 'Blue', system: 'CIRCUIT', rank: 0 })
    await makeGrade(t.db, uptown.id, { name: 'BLUE', system: 'CIRCUIT', discipline: 'ROP', rank: 0 })
    const res = await post({
      name: 'blue',
      system: 'CIRCUIT',
      discipline: 'ROP',
      rank: -3,
      color_hex: '#1e90ff',
      target_count: 0,
      is_active: false,
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      gradeBody(res.body.id, {
        name: 'blue',
        system: 'CIRCUIT',
        discipline: 'ROP',
        rank: -3,
        color_hex: '#1E90FF',
        target_count: 0,
        is_active: false,
      }),
    )
    expect((await storedGrade(res.body.id))?.color_hex).toBe('#1E90FF')
  })

  test('read-only fields sent are ignored: the grade belongs to the gym in the path', async () => {
    const res = await post({
      name: 'V0',
      system: 'V',
      discipline: 'BOU',
      id: 50,
      gym_id: uptown.id,
      url: 'http://elsewhere.example/',
      created_at: '2000-01-01T00:00:00.000Z',
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(gradeBody(1, { name: 'V0', rank: 0 }))
  })

  test('PUT replaces the fields sent and keeps the rank; PATCH changes one; a case change of its own name passes', async () => {
    const v4 = await makeGrade(t.db, t.seed.gym.id, { target_count: 6, color_hex: '#00FF00' })
    t.clock.advance(60_000)
    const put = await t.request('PUT', gradePath(v4.id), {
      token: setterToken,
      body: { name: 'v4', system: 'OTHER', discipline: 'BOU', color_hex: null },
    })
    expect(put.status).toBe(200)
    expect(put.body).toEqual(
      gradeBody(v4.id, { name: 'v4', system: 'OTHER', target_count: 6, updated_at: ONE_MINUTE_LATER }),
    )
    const patch = await t.request('PATCH', gradePath(v4.id), {
      token: setterToken,
      body: { target_count: null, rank: 7, is_active: false },
    })
    expect(patch.status).toBe(200)
    expect(patch.body).toEqual(
      gradeBody(v4.id, {
        name: 'v4',
        system: 'OTHER',
        rank: 7,
        is_active: false,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
  })

  test('an unused grade may change discipline', async () => {
    const v4 = await makeGrade(t.db, t.seed.gym.id)
    const res = await t.request('PATCH', gradePath(v4.id), {
      token: setterToken,
      body: { discipline: 'ROP', system: 'OTHER' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(gradeBody(v4.id, { discipline: 'ROP', system: 'OTHER' }))
  })
})

describe('/api/gyms/<id>/grades/<grade_id>/ DELETE', () => {
  test('an unused grade is deleted: 204 with no body', async () => {
    const v4 = await makeGrade(t.db, t.seed.gym.id)
    const other = await makeGrade(t.db, t.seed.gym.id, { name: 'V5', rank: 5 })
    await climbAt(other)
    const res = await t.request('DELETE', gradePath(v4.id), { token: setterToken })
    expect(res.status).toBe(204)
    expect(res.body).toBe('')
    expect(await storedGrade(v4.id)).toBeUndefined()
    expect(await gradeCount()).toBe(1)
    const again = await t.request('GET', gradePath(v4.id), { token: setterToken })
    expect(again.status).toBe(404)
  })

  test('a grade used by a climb up, or by a stripped one, is refused and kept', async () => {
    const up = await makeGrade(t.db, t.seed.gym.id)
    const gone = await makeGrade(t.db, t.seed.gym.id, { name: 'V5', rank: 5 })
    await climbAt(up)
    await climbAt(gone, '2026-11-21')
    for (const grade of [up, gone]) {
      const res = await t.request('DELETE', gradePath(grade.id), { token: t.seed.adminToken })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(inUse)
      expect(await storedGrade(grade.id)).toEqual(grade)
    }
    const retired = await t.request('PATCH', gradePath(up.id), {
      token: setterToken,
      body: { is_active: false },
    })
    expect(retired.body).toEqual(gradeBody(up.id, { is_active: false }))
  })
})

/** What load-scale answers for `names` added in order from `firstRank`, from the answer's ids. */
function loaded(
  body: Array<{ id: number }>,
  names: string[],
  fields: { system: string; discipline: string },
  firstRank = 0,
) {
  return names.map((name, i) => gradeBody(body[i]!.id, { name, rank: firstRank + i, ...fields }))
}

const V_NAMES = ['V0', 'V1', 'V2', 'V3', 'V4', 'V5', 'V6', 'V7', 'V8', 'V9', 'V10']
const YDS_NAMES = [
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
]
const FONT_NAMES = [
  '4',
  '5',
  '5+',
  '6A',
  '6A+',
  '6B',
  '6B+',
  '6C',
  '6C+',
  '7A',
  '7A+',
  '7B',
  '7B+',
  '7C',
  '7C+',
  '8A',
]
const FRENCH_NAMES = [
  '4a',
  '4b',
  '4c',
  '5a',
  '5b',
  '5c',
  '6a',
  '6a+',
  '6b',
  '6b+',
  '6c',
  '6c+',
  '7a',
  '7a+',
  '7b',
  '7b+',
  '7c',
  '7c+',
  '8a',
]

describe('/api/gyms/<id>/grades/load-scale/', () => {
  test('it offers POST only: GET or PATCH is 405, not read as a grade id', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await t.request(method, loadScalePath(), { token: t.seed.adminToken })
      expect([method, res.status, res.body]).toEqual([method, 405, methodNotAllowed(method)])
    }
  })

  for (const [system, discipline, names] of [
    ['V', 'BOU', V_NAMES],
    ['YDS', 'ROP', YDS_NAMES],
    ['FONT', 'BOU', FONT_NAMES],
    ['FRENCH', 'ROP', FRENCH_NAMES],
  ] as const) {
    test(`${system} into ${discipline} on an empty gym: ${names[0]} to ${names.at(-1)}, ranked from 0`, async () => {
      const res = await loadScale({ system, discipline })
      expect(res.status).toBe(201)
      expect(res.body).toEqual(loaded(res.body, [...names], { system, discipline }))
      const list = await t.request('GET', `${gradesPath()}?page_size=100`, { token: t.seed.staffToken })
      expect(list.body.results).toEqual(res.body)
    })
  }

  test("ranks go on after the discipline's highest; names it has, in any case, are skipped", async () => {
    await makeGrade(t.db, t.seed.gym.id, { name: 'v3', system: 'OTHER', rank: 7 })
    await makeGrade(t.db, t.seed.gym.id, { name: 'Blue', system: 'CIRCUIT', rank: 20, is_active: 0 })
    await makeGrade(t.db, t.seed.gym.id, { name: 'V6', system: 'OTHER', discipline: 'ROP', rank: 100 })
    await makeGrade(t.db, uptown.id, { name: 'V5', rank: 5 })
    t.clock.advance(60_000)
    const res = await loadScale({ system: 'V', discipline: 'BOU' })
    expect(res.status).toBe(201)
    const added = V_NAMES.filter((name) => name !== 'V3')
    expect(res.body).toEqual(
      added.map((name, i) =>
        gradeBody(res.body[i].id, {
          name,
          rank: 21 + i,
          created_at: ONE_MINUTE_LATER,
          updated_at: ONE_MINUTE_LATER,
        }),
      ),
    )
    expect(await gradeCount()).toBe(4 + added.length)
  })

  test('loading a scale twice adds nothing the second time: 201 with []', async () => {
    const first = await loadScale({ system: 'FRENCH', discipline: 'ROP' })
    expect(first.status).toBe(201)
    expect(first.body.length).toBe(19)
    const second = await loadScale({ system: 'FRENCH', discipline: 'ROP' })
    expect(second.status).toBe(201)
    expect(second.body).toEqual([])
    expect(await gradeCount()).toBe(19)
  })

  test('a scale whose names the gym has partly: only the missing ones, ranked on', async () => {
    await makeGrade(t.db, t.seed.gym.id, { name: '6A+', system: 'FONT', rank: 0 })
    await makeGrade(t.db, t.seed.gym.id, { name: '8a', system: 'FONT', rank: 1 })
    const res = await loadScale({ system: 'FONT', discipline: 'BOU' })
    const added = FONT_NAMES.filter((name) => name !== '6A+' && name !== '8A')
    expect(res.body).toEqual(loaded(res.body, added, { system: 'FONT', discipline: 'BOU' }, 2))
  })

  const refusals: Array<[string, Record<string, unknown>, unknown]> = [
    ['an empty body', {}, { system: required, discipline: required }],
    ['V into ROP', { system: 'V', discipline: 'ROP' }, { discipline: ['The V scale is for BOU grades.'] }],
    [
      'FONT into ROP',
      { system: 'FONT', discipline: 'ROP' },
      { discipline: ['The FONT scale is for BOU grades.'] },
    ],
    [
      'YDS into BOU',
      { system: 'YDS', discipline: 'BOU' },
      { discipline: ['The YDS scale is for ROP grades.'] },
    ],
    [
      'FRENCH into BOU',
      { system: 'FRENCH', discipline: 'BOU' },
      { discipline: ['The FRENCH scale is for ROP grades.'] },
    ],
    [
      'CIRCUIT',
      { system: 'CIRCUIT', discipline: 'BOU' },
      { system: ['CIRCUIT has no standard scale: add its grades one by one.'] },
    ],
    [
      'OTHER',
      { system: 'OTHER', discipline: 'ROP' },
      { system: ['OTHER has no standard scale: add its grades one by one.'] },
    ],
    ['an unknown system', { system: 'UIAA', discipline: 'ROP' }, { system: invalidChoice('UIAA') }],
    ['an unknown discipline', { system: 'V', discipline: 'MIX' }, { discipline: invalidChoice('MIX') }],
    ['a null system', { system: null, discipline: 'BOU' }, { system: notNull }],
  ]
  for (const [name, body, errors] of refusals) {
    test(`${name} is 400 and adds nothing`, async () => {
      const res = await loadScale(body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errors)
      expect(await gradeCount()).toBe(0)
    })
  }

  test('all or nothing: a grade that cannot be written leaves none of the scale', async () => {
    await sql`CREATE TRIGGER refuse_v5 BEFORE INSERT ON grades WHEN NEW.name = 'V5'
      BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`.execute(t.db)
    const res = await loadScale({ system: 'V', discipline: 'BOU' })
    expect(res.status).toBe(500)
    expect(res.body).toEqual(serverError)
    expect(await gradeCount()).toBe(0)
  })
})

describe('simultaneous writes', () => {
  test('two creates of one name at once: one is created, the other told the name is taken', async () => {
    const answers = await Promise.all(
      ['V5', 'v5'].map((name) => post({ name, system: 'V', discipline: 'BOU' })),
    )
    const statuses = answers.map((res) => res.status).sort()
    expect(statuses).toEqual([201, 400])
    expect(answers.find((res) => res.status === 400)!.body).toEqual({ name: nameTaken })
    expect(await gradeCount()).toBe(1)
  })

  test('five creates at once without a rank: ranks 0 to 4, each once', async () => {
    const answers = await Promise.all(
      ['V0', 'V1', 'V2', 'V3', 'V4'].map((name) => post({ name, system: 'V', discipline: 'BOU' })),
    )
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201, 201, 201])
    expect(answers.map((res) => res.body.rank).sort()).toEqual([0, 1, 2, 3, 4])
  })

  test('two loads of one scale at once: one adds it, the other adds nothing', async () => {
    const answers = await Promise.all([1, 2].map(() => loadScale({ system: 'V', discipline: 'BOU' })))
    expect(answers.map((res) => res.status)).toEqual([201, 201])
    expect(answers.map((res) => res.body.length).sort((a, b) => a - b)).toEqual([0, 11])
    expect(await gradeCount()).toBe(11)
  })
})
