import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  invalidToken,
  forbidden,
  notFound,
  methodNotAllowed,
  required,
  blank,
  invalidBoolean,
  invalidChoice,
  invalidTimeZone,
  minValue,
  emptyPage,
  onePage,
} from '../../helpers/bodies.ts'
import { countRows, everyCanFlag, makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import { expectUnauthenticated, useSeededApp } from '../../helpers/seeded.ts'

const t = useSeededApp()

/** The whole record the API should answer for a gym with these stored values. */
function gymBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/gyms/${id}/`,
    name: 'Boulder Barn Downtown',
    hide_setter: false,
    time_zone: 'America/Denver',
    scheduler_url_path: '',
    scheduler_landing_page_text: '',
    scheduler_first_day_of_week: 'SUN',
    capacity: null,
    combine_same_day_check_ins: false,
    created_at: START,
    updated_at: START,
    climbs_url: `${ORIGIN}/api/gyms/${id}/climbs/`,
    grades_url: `${ORIGIN}/api/gyms/${id}/grades/`,
    sections_url: `${ORIGIN}/api/gyms/${id}/sections/`,
    ...fields,
  }
}

const gymCount = () => countRows(t.db, 'gyms')

/** A user with every can_* flag but not an organization admin. */
const allFlagsNonAdmin = async () =>
  makeToken(t.db, await makeUser(t.db, { ...everyCanFlag, pin_mode_required: 0 }))

describe('/api/gyms/ 401', () => {
  const routes: Array<[string, string]> = [
    ['GET', '/api/gyms/'],
    ['GET', '/api/gyms/1/'],
    ['POST', '/api/gyms/'],
    ['PUT', '/api/gyms/1/'],
    ['PATCH', '/api/gyms/1/'],
    ['GET', '/api/gyms/1/climbs/'],
    ['GET', '/api/gyms/1/grades/'],
    ['GET', '/api/gyms/1/sections/'],
  ]

  for (const [method, path] of routes) {
    test(`${method} ${path} without a token is 401 with WWW-Authenticate: Token`, async () => {
      const res = await t.request(method, path, method === 'GET' ? {} : { body: { name: 'x' } })
      expectUnauthenticated(res)
    })

    test(`${method} ${path} with an unknown token is 401 Invalid token`, async () => {
      const res = await t.request(method, path, {
        token: 'f'.repeat(40),
        ...(method === 'GET' ? {} : { body: { name: 'x' } }),
      })
      expectUnauthenticated(res, invalidToken)
    })
  }

  test('a malformed Authorization header is treated as no credentials', async () => {
    const res = await t.request('GET', '/api/gyms/', { headers: { authorization: 'Bearer abc' } })
    expectUnauthenticated(res)
  })

  test('an inactive user gets 401 Invalid token', async () => {
    const inactive = await makeUser(t.db, { is_active: 0, is_organization_admin: 1 })
    const res = await t.request('GET', '/api/gyms/', { token: await makeToken(t.db, inactive) })
    expect(res.status).toBe(401)
    expect(res.body).toEqual(invalidToken)
  })
})

describe('/api/gyms/ 400', () => {
  const post = (body: unknown) => t.request('POST', '/api/gyms/', { token: t.seed.adminToken, body })

  const cases: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
    ['name missing', { time_zone: 'America/Denver' }, { name: required }],
    ['name blank', { name: '', time_zone: 'America/Denver' }, { name: blank }],
    ['time_zone missing', { name: 'North' }, { time_zone: required }],
    ['time_zone Mars/Base', { name: 'North', time_zone: 'Mars/Base' }, { time_zone: invalidTimeZone }],
    ['time_zone UTC+2', { name: 'North', time_zone: 'UTC+2' }, { time_zone: invalidTimeZone }],
    [
      'scheduler_url_path with a space',
      { name: 'North', time_zone: 'America/Denver', scheduler_url_path: 'a b' },
      { scheduler_url_path: ['Enter a valid value consisting only of letters, numbers or hyphens.'] },
    ],
    [
      'scheduler_url_path with an underscore',
      { name: 'North', time_zone: 'America/Denver', scheduler_url_path: 'a_b' },
      { scheduler_url_path: ['Enter a valid value consisting only of letters, numbers or hyphens.'] },
    ],
    [
      'scheduler_first_day_of_week TUE',
      { name: 'North', time_zone: 'America/Denver', scheduler_first_day_of_week: 'TUE' },
      { scheduler_first_day_of_week: invalidChoice('TUE') },
    ],
    ['capacity 0', { name: 'North', time_zone: 'America/Denver', capacity: 0 }, { capacity: minValue(1) }],
    [
      'hide_setter "x"',
      { name: 'North', time_zone: 'America/Denver', hide_setter: 'x' },
      { hide_setter: invalidBoolean },
    ],
  ]

  for (const [name, body, errors] of cases) {
    test(`POST with ${name} is 400 and creates nothing`, async () => {
      const res = await post(body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errors)
      expect(await gymCount()).toBe(1)
    })
  }

  test('POST with an empty body reports name and time_zone at once', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: required, time_zone: required })
  })

  test('several failing fields are reported in one body', async () => {
    const res = await post({
      name: '',
      time_zone: 'Mars/Base',
      scheduler_url_path: 'a b',
      scheduler_first_day_of_week: 'TUE',
      capacity: 0,
      hide_setter: 'x',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      name: blank,
      time_zone: invalidTimeZone,
      scheduler_url_path: ['Enter a valid value consisting only of letters, numbers or hyphens.'],
      scheduler_first_day_of_week: invalidChoice('TUE'),
      capacity: minValue(1),
      hide_setter: invalidBoolean,
    })
    expect(await gymCount()).toBe(1)
  })

  test('PUT needs name and time_zone', async () => {
    const res = await t.request('PUT', `/api/gyms/${t.seed.gym.id}/`, {
      token: t.seed.adminToken,
      body: { hide_setter: true },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: required, time_zone: required })
  })

  test('a failing PATCH changes nothing', async () => {
    t.clock.advance(60000)
    const res = await t.request('PATCH', `/api/gyms/${t.seed.gym.id}/`, {
      token: t.seed.adminToken,
      body: { name: 'Renamed', capacity: 0 },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ capacity: minValue(1) })
    const read = await t.request('GET', `/api/gyms/${t.seed.gym.id}/`, { token: t.seed.adminToken })
    expect(read.body).toEqual(gymBody(t.seed.gym.id))
  })

  test('PATCH with a blank name or a bad time_zone is 400 on each', async () => {
    const res = await t.request('PATCH', `/api/gyms/${t.seed.gym.id}/`, {
      token: t.seed.adminToken,
      body: { name: '', time_zone: 'UTC+2' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: blank, time_zone: invalidTimeZone })
  })
})

describe('/api/gyms/ 403', () => {
  const writes = () =>
    [
      ['POST', '/api/gyms/'],
      ['PUT', `/api/gyms/${t.seed.gym.id}/`],
      ['PATCH', `/api/gyms/${t.seed.gym.id}/`],
    ] as const

  test('a staff user without flags cannot create, replace or update', async () => {
    for (const [method, path] of writes()) {
      const res = await t.request(method, path, {
        token: t.seed.staffToken,
        body: { name: 'North', time_zone: 'America/Denver' },
      })
      expect(res.status).toBe(403)
      expect(res.body).toEqual(forbidden)
    }
    expect(await gymCount()).toBe(1)
  })

  test('a user with every can_* flag but not admin gets 403, even with an invalid body', async () => {
    const token = await allFlagsNonAdmin()
    for (const [method, path] of writes()) {
      for (const body of [{ name: 'North', time_zone: 'America/Denver' }, { name: '' }]) {
        const res = await t.request(method, path, { token, body })
        expect(res.status).toBe(403)
        expect(res.body).toEqual(forbidden)
      }
    }
    const read = await t.request('GET', `/api/gyms/${t.seed.gym.id}/`, { token })
    expect(read.body).toEqual(gymBody(t.seed.gym.id))
  })
})

describe('/api/gyms/ 404 and 405', () => {
  test('GET, PUT and PATCH of an unknown id are 404', async () => {
    for (const method of ['GET', 'PUT', 'PATCH']) {
      const res = await t.request(method, '/api/gyms/999/', {
        token: t.seed.adminToken,
        ...(method === 'GET' ? {} : { body: { name: 'North', time_zone: 'America/Denver' } }),
      })
      expect(res.status).toBe(404)
      expect(res.body).toEqual(notFound)
    }
  })

  test('a non-numeric id is 404', async () => {
    const res = await t.request('GET', '/api/gyms/abc/', { token: t.seed.adminToken })
    expect(res.status).toBe(404)
    expect(res.body).toEqual(notFound)
  })

  test('sub-collections of an unknown gym are 404', async () => {
    for (const name of ['climbs', 'grades', 'sections']) {
      const res = await t.request('GET', `/api/gyms/999/${name}/`, { token: t.seed.staffToken })
      expect(res.status).toBe(404)
      expect(res.body).toEqual(notFound)
    }
  })

  test('DELETE is 405', async () => {
    const res = await t.request('DELETE', `/api/gyms/${t.seed.gym.id}/`, { token: t.seed.adminToken })
    expect(res.status).toBe(405)
    expect(res.body).toEqual(methodNotAllowed('DELETE'))
    expect(await gymCount()).toBe(1)
  })
})

describe('/api/gyms/ success', () => {
  test('any active staff user lists gyms in id order', async () => {
    const second = await makeGym(t.db, { name: 'Uptown', capacity: 80, hide_setter: 1 })
    const res = await t.request('GET', '/api/gyms/', { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      onePage([
        gymBody(t.seed.gym.id),
        gymBody(second.id, { name: 'Uptown', capacity: 80, hide_setter: true }),
      ]),
    )
  })

  test('the list paginates', async () => {
    await makeGym(t.db, { name: 'Second' })
    const gym3 = await makeGym(t.db, { name: 'Third' })
    const res = await t.request('GET', '/api/gyms/?page_size=2&page=2', { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      count: 3,
      next: null,
      previous: `${ORIGIN}/api/gyms/?page_size=2`,
      results: [gymBody(gym3.id, { name: 'Third' })],
    })
  })

  test('any active staff user reads a gym, with or without the final slash', async () => {
    for (const path of [`/api/gyms/${t.seed.gym.id}/`, `/api/gyms/${t.seed.gym.id}`]) {
      const res = await t.request('GET', path, { token: t.seed.staffToken })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(gymBody(t.seed.gym.id))
    }
  })

  test('POST with only name and time_zone creates a gym with defaults', async () => {
    const res = await t.request('POST', '/api/gyms/', {
      token: t.seed.adminToken,
      body: { name: 'North', time_zone: 'america/denver' },
    })
    expect(res.status).toBe(201)
    const id = res.body.id
    expect(typeof id).toBe('number')
    expect(res.body).toEqual(gymBody(id, { name: 'North', time_zone: 'America/Denver' }))
    const stored = await t.db.selectFrom('gyms').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    expect(stored.time_zone).toBe('America/Denver')
    const read = await t.request('GET', `/api/gyms/${id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(res.body)
  })

  test('POST with every field stores and returns them', async () => {
    const res = await t.request('POST', '/api/gyms/', {
      token: t.seed.adminToken,
      body: {
        name: 'Coast',
        time_zone: 'Europe/Berlin',
        hide_setter: true,
        scheduler_url_path: 'coast-2',
        scheduler_landing_page_text: '# Welcome',
        scheduler_first_day_of_week: 'MON',
        capacity: 120,
        combine_same_day_check_ins: true,
      },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      gymBody(res.body.id, {
        name: 'Coast',
        time_zone: 'Europe/Berlin',
        hide_setter: true,
        scheduler_url_path: 'coast-2',
        scheduler_landing_page_text: '# Welcome',
        scheduler_first_day_of_week: 'MON',
        capacity: 120,
        combine_same_day_check_ins: true,
      }),
    )
    expect(await gymCount()).toBe(2)
  })

  test('read-only fields sent on create are ignored', async () => {
    const res = await t.request('POST', '/api/gyms/', {
      token: t.seed.adminToken,
      body: { name: 'North', time_zone: 'UTC', id: 77, created_at: '2000-01-01T00:00:00.000Z' },
    })
    expect(res.status).toBe(201)
    expect(res.body.id).not.toBe(77)
    expect(res.body).toEqual(gymBody(res.body.id, { name: 'North', time_zone: 'UTC' }))
  })

  test('PATCH changes only the sent fields and moves updated_at, not created_at', async () => {
    t.clock.advance(60000)
    const res = await t.request('PATCH', `/api/gyms/${t.seed.gym.id}/`, {
      token: t.seed.adminToken,
      body: { capacity: 40, combine_same_day_check_ins: true },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      gymBody(t.seed.gym.id, {
        capacity: 40,
        combine_same_day_check_ins: true,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
  })

  test('PATCH capacity null clears it', async () => {
    await t.db.updateTable('gyms').set({ capacity: 50 }).where('id', '=', t.seed.gym.id).execute()
    const res = await t.request('PATCH', `/api/gyms/${t.seed.gym.id}/`, {
      token: t.seed.adminToken,
      body: { capacity: null },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(gymBody(t.seed.gym.id))
  })

  test('PUT replaces the writable fields', async () => {
    t.clock.advance(60000)
    const res = await t.request('PUT', `/api/gyms/${t.seed.gym.id}/`, {
      token: t.seed.adminToken,
      body: { name: 'Downtown', time_zone: 'europe/london', scheduler_first_day_of_week: 'MON' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      gymBody(t.seed.gym.id, {
        name: 'Downtown',
        time_zone: 'Europe/London',
        scheduler_first_day_of_week: 'MON',
        updated_at: ONE_MINUTE_LATER,
      }),
    )
  })

  test('PUT leaves optional fields that were not sent as they were', async () => {
    await t.db
      .updateTable('gyms')
      .set({ capacity: 50, hide_setter: 1 })
      .where('id', '=', t.seed.gym.id)
      .execute()
    const res = await t.request('PUT', `/api/gyms/${t.seed.gym.id}/`, {
      token: t.seed.adminToken,
      body: { name: 'Downtown', time_zone: 'America/Denver' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(gymBody(t.seed.gym.id, { name: 'Downtown', capacity: 50, hide_setter: true }))
  })

  test('the climbs, grades and sections URLs answer empty envelopes', async () => {
    const gym = (await t.request('GET', `/api/gyms/${t.seed.gym.id}/`, { token: t.seed.staffToken })).body
    for (const key of ['climbs_url', 'grades_url', 'sections_url']) {
      const url: string = gym[key]
      expect(url.startsWith(`${ORIGIN}/api/gyms/${t.seed.gym.id}/`)).toBe(true)
      const res = await t.request('GET', url.slice(ORIGIN.length), { token: t.seed.staffToken })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(emptyPage)
    }
  })
})
