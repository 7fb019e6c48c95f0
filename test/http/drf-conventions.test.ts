import { beforeAll, describe, expect, test } from 'bun:test'
import type { Db } from '../../src/db/connection.ts'
import type { Logger } from '../../src/lib/log.ts'
import { makeTestApp, START } from '../helpers/app.ts'
import {
  forbidden,
  notFound,
  methodNotAllowed,
  invalidPage,
  unsupportedMediaType,
  serverError,
  required,
  blank,
  invalidInteger,
  invalidChoice,
  notANumber,
  emptyPage,
} from '../helpers/bodies.ts'
import { countRows, makeEventType, makeGym, makeUser, makeToken, seedBasics } from '../helpers/factories.ts'
import { diskFull, fillDiskOnInsertInto } from '../helpers/disk-full.ts'
import { expectUnauthenticated, logIn, useSeededApp } from '../helpers/seeded.ts'

/**
 * The resource-agnostic DRF layer, seen through /api/gyms/ and /api/event-types/: paths, methods,
 * request bodies, the order of 401/403/400, pagination, filters, absolute URLs and the 500 body.
 */

const VALID_GYM = { name: 'Crag Annex', time_zone: 'America/Denver' }

/** Gyms named so that ordering by name would reverse the id order. */
async function makeGyms(db: Db, n: number) {
  for (let i = n; i > 0; i--) await makeGym(db, { name: `Gym ${String(i).padStart(3, '0')}` })
}

const countGyms = (db: Db) => countRows(db, 'gyms')

/** A `next`/`previous` link split into where it points and its query parameters (order aside). */
function link(url: string | null) {
  if (url === null) return null
  const u = new URL(url)
  return { at: `${u.origin}${u.pathname}`, params: Object.fromEntries(u.searchParams) }
}

describe('paths', () => {
  const t = useSeededApp({ once: true })

  test('the final slash is optional: same status and body, no redirect', async () => {
    for (const [withSlash, without] of [
      ['/api/gyms/', '/api/gyms'],
      ['/api/gyms/1/', '/api/gyms/1'],
      ['/api/event-types/', '/api/event-types'],
      ['/api/gyms/1/climbs/', '/api/gyms/1/climbs'],
    ] as const) {
      const a = await t.request('GET', withSlash, { token: t.seed.staffToken })
      const b = await t.request('GET', without, { token: t.seed.staffToken })
      expect(a.status).toBe(200)
      expect(b.status).toBe(200)
      expect(b.headers.get('location')).toBeNull()
      expect(b.body).toEqual(a.body)
    }
  })

  test('an unknown path is 404 Not found, with or without a token', async () => {
    for (const path of ['/api/nope/', '/api/gyms/1/nope/', '/nope']) {
      for (const opts of [{ token: t.seed.staffToken }, {}]) {
        const res = await t.request('GET', path, opts)
        expect(res.status).toBe(404)
        expect(res.body).toEqual(notFound)
      }
    }
  })

  test('a record that does not exist is 404 Not found', async () => {
    const res = await t.request('GET', '/api/gyms/999/', { token: t.seed.staffToken })
    expect(res.status).toBe(404)
    expect(res.body).toEqual(notFound)
  })

  for (const id of ['abc', '1.5', '0', '-1']) {
    test(`an id that is not a positive integer ("${id}") is 404 Not found`, async () => {
      const res = await t.request('GET', `/api/gyms/${id}/`, { token: t.seed.staffToken })
      expect(res.status).toBe(404)
      expect(res.body).toEqual(notFound)
    })
  }

  for (const id of ['abc', '0', '999']) {
    test(`a sub-collection of gym "${id}" is 404 Not found`, async () => {
      const res = await t.request('GET', `/api/gyms/${id}/climbs/`, { token: t.seed.staffToken })
      expect(res.status).toBe(404)
      expect(res.body).toEqual(notFound)
    })
  }
})

describe('methods', () => {
  const t = useSeededApp({ once: true })

  test('DELETE on a gym is 405 and the gym stays', async () => {
    const res = await t.request('DELETE', '/api/gyms/1/', { token: t.seed.adminToken })
    expect(res.status).toBe(405)
    expect(res.body).toEqual(methodNotAllowed('DELETE'))
    // As DRF's: the methods the path is served with.
    expect(res.headers.get('allow')).toBe('GET, PUT, PATCH, HEAD, OPTIONS')
    expect((await t.request('GET', '/api/gyms/1/', { token: t.seed.adminToken })).status).toBe(200)
  })

  test('PUT and DELETE on a collection are 405, with or without the final slash', async () => {
    for (const path of ['/api/gyms/', '/api/gyms', '/api/event-types/']) {
      for (const method of ['PUT', 'DELETE', 'PATCH']) {
        const res = await t.request(method, path, { token: t.seed.adminToken, body: VALID_GYM })
        expect(res.status).toBe(405)
        expect(res.body).toEqual(methodNotAllowed(method))
        expect(res.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS')
      }
    }
  })

  test('POST on a record is 405', async () => {
    const res = await t.request('POST', '/api/gyms/1/', { token: t.seed.adminToken, body: VALID_GYM })
    expect(res.status).toBe(405)
    expect(res.body).toEqual(methodNotAllowed('POST'))
  })

  test('a method a public path does not offer is 405 without a token; elsewhere 401 comes first', async () => {
    for (const [method, path] of [
      ['GET', '/api/get-token/'],
      ['DELETE', '/healthz'],
      ['POST', '/swagger/json'],
    ] as const) {
      const res = await t.request(method, path)
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 405,
        body: methodNotAllowed(method),
      })
    }
    const res = await t.request('DELETE', '/api/gyms/1/')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' })
  })
})

describe('request bodies', () => {
  const t = useSeededApp()

  const postGym = (body: unknown, headers: Record<string, string> = {}) =>
    t.request('POST', '/api/gyms/', { token: t.seed.adminToken, body, headers })

  test('malformed JSON is 400 "JSON parse error - <reason>" and nothing is written', async () => {
    const res = await postGym('{"name": "Crag Annex", ')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ detail: expect.stringMatching(/^JSON parse error - \S/) })
    expect(await countGyms(t.db)).toBe(1)
  })

  const notADictionary: Array<[string, string, string]> = [
    ['a JSON array', '[{"name": "Crag Annex"}]', 'list'],
    ['a JSON string', '"Crag Annex"', 'str'],
    ['a JSON number', '42', 'int'],
    ['a JSON boolean', 'true', 'bool'],
    ['JSON null', 'null', 'NoneType'],
  ]
  for (const [name, raw, got] of notADictionary) {
    test(`${name} as the body is 400 "Expected a dictionary, but got ${got}."`, async () => {
      const res = await postGym(raw)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${got}.`] })
      expect(await countGyms(t.db)).toBe(1)
    })
  }

  test('a text/plain body on a write is 415', async () => {
    const res = await postGym('name=Crag Annex', { 'content-type': 'text/plain' })
    expect(res.status).toBe(415)
    expect(res.body).toEqual(unsupportedMediaType('text/plain'))
    expect(await countGyms(t.db)).toBe(1)
  })

  test('a form-encoded body is 415 outside get-token', async () => {
    const res = await postGym('name=Crag+Annex&time_zone=America%2FDenver', {
      'content-type': 'application/x-www-form-urlencoded',
    })
    expect(res.status).toBe(415)
    expect(res.body).toEqual(unsupportedMediaType('application/x-www-form-urlencoded'))
    expect(await countGyms(t.db)).toBe(1)
  })

  test('a JSON content type with a charset parameter is accepted', async () => {
    const res = await postGym(JSON.stringify(VALID_GYM), {
      'content-type': 'application/json; charset=utf-8',
    })
    expect(res.status).toBe(201)
  })

  test('a body over 1 MiB is 413 and nothing is written', async () => {
    const res = await postGym({ ...VALID_GYM, scheduler_landing_page_text: 'x'.repeat(1024 * 1024) })
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ detail: 'Request body is too large.' })
    expect(await countGyms(t.db)).toBe(1)
  })

  test('a body of exactly 1 MiB is read', async () => {
    const padding = 1024 * 1024 - JSON.stringify({ ...VALID_GYM, scheduler_landing_page_text: '' }).length
    const res = await postGym({ ...VALID_GYM, scheduler_landing_page_text: 'x'.repeat(padding) })
    expect(res.status).toBe(201)
  })

  test('a write without a body reports every required field', async () => {
    const res = await t.request('POST', '/api/gyms/', { token: t.seed.adminToken })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: required, time_zone: required })
  })

  test('read-only fields sent on create are ignored', async () => {
    t.clock.advance(60 * 60 * 1000)
    const res = await postGym({
      ...VALID_GYM,
      id: 99,
      url: 'http://elsewhere.example/api/gyms/99/',
      created_at: '2000-01-01T00:00:00.000Z',
      updated_at: '2000-01-01T00:00:00.000Z',
      climbs_url: 'http://elsewhere.example/',
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: 2,
      url: 'http://localhost/api/gyms/2/',
      name: 'Crag Annex',
      hide_setter: false,
      time_zone: 'America/Denver',
      scheduler_url_path: '',
      scheduler_landing_page_text: '',
      scheduler_first_day_of_week: 'SUN',
      capacity: null,
      combine_same_day_check_ins: false,
      created_at: '2026-11-22T16:04:05.123Z',
      updated_at: '2026-11-22T16:04:05.123Z',
      climbs_url: 'http://localhost/api/gyms/2/climbs/',
      grades_url: 'http://localhost/api/gyms/2/grades/',
      sections_url: 'http://localhost/api/gyms/2/sections/',
    })
    expect((await t.request('GET', '/api/gyms/99/', { token: t.seed.adminToken })).status).toBe(404)
  })

  test('read-only fields sent on update are ignored', async () => {
    const res = await t.request('PATCH', '/api/gyms/1/', {
      token: t.seed.adminToken,
      body: { id: 7, created_at: '2000-01-01T00:00:00.000Z', name: 'Renamed' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: 1, name: 'Renamed', created_at: START })
    expect((await t.request('GET', '/api/gyms/7/', { token: t.seed.adminToken })).status).toBe(404)
  })
})

describe('which check answers first', () => {
  const t = useSeededApp({ once: true })

  const badBodies: Array<[string, { body: unknown; headers?: Record<string, string> }]> = [
    ['invalid fields', { body: { name: '', time_zone: 'Mars/Olympus' } }],
    ['malformed JSON', { body: '{"name": ' }],
    ['a JSON array', { body: '[]' }],
    ['a text/plain body', { body: 'hello', headers: { 'content-type': 'text/plain' } }],
  ]

  for (const [name, opts] of badBodies) {
    test(`no token with ${name} is 401 before the body is looked at`, async () => {
      const res = await t.request('POST', '/api/gyms/', opts)
      expectUnauthenticated(res)
    })

    test(`a user without the permission sending ${name} gets 403 before the body is looked at`, async () => {
      const res = await t.request('POST', '/api/gyms/', { ...opts, token: t.seed.staffToken })
      expect(res.status).toBe(403)
      expect(res.body).toEqual(forbidden)
    })
  }

  test('a user without can_manage_events gets 403 on an event-type update with a bad body', async () => {
    const res = await t.request('PATCH', '/api/event-types/1/', {
      token: t.seed.staffToken,
      body: { status: 'NOPE' },
    })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(forbidden)
  })

  test('with the permission, the bad body is then reported field by field', async () => {
    const user = await makeUser(t.db, { can_manage_events: 1 })
    const token = await makeToken(t.db, user)
    const res = await t.request('POST', '/api/event-types/', {
      token,
      body: { name: '', gym_id: 'x', status: 'NOPE' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      name: blank,
      gym_id: invalidInteger,
      status: invalidChoice('NOPE'),
    })
  })
})

describe('pagination', () => {
  const t = useSeededApp({ once: true })

  beforeAll(async () => {
    await makeGyms(t.db, 104) // 105 gyms in all
  })

  const list = (query: string) => t.request('GET', `/api/gyms/${query}`, { token: t.seed.staffToken })
  const ids = (body: { results: Array<{ id: number }> }) => body.results.map((r) => r.id)
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)

  test('the first page has ten results in id order, an absolute next and no previous', async () => {
    const res = await list('')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      count: 105,
      next: 'http://localhost/api/gyms/?page=2',
      previous: null,
      results: expect.any(Array),
    })
    expect(ids(res.body)).toEqual(range(1, 10))
  })

  test('a middle page links both ways; the link back to page 1 has no page parameter', async () => {
    const res = await list('?page=2')
    expect(res.body.next).toBe('http://localhost/api/gyms/?page=3')
    expect(res.body.previous).toBe('http://localhost/api/gyms/')
    expect(ids(res.body)).toEqual(range(11, 20))
  })

  test('the last page holds the remainder and has no next', async () => {
    const res = await list('?page=11')
    expect(res.status).toBe(200)
    expect(res.body.next).toBeNull()
    expect(res.body.previous).toBe('http://localhost/api/gyms/?page=10')
    expect(ids(res.body)).toEqual(range(101, 105))
  })

  test('page=last is the last page, as in DRF', async () => {
    const res = await list('?page=last')
    expect(res.status).toBe(200)
    expect(ids(res.body)).toEqual(range(101, 105))
  })

  const pageSizes: Array<[string, number]> = [
    ['25', 25],
    ['100', 100],
    ['101', 100],
    ['1000', 100],
    ['0', 10],
    ['-1', 10],
    ['abc', 10],
    ['2.5', 10],
    ['', 10],
  ]
  for (const [raw, size] of pageSizes) {
    test(`page_size=${raw} gives ${size} results`, async () => {
      const res = await list(`?page_size=${raw}`)
      expect(res.status).toBe(200)
      expect(res.body.count).toBe(105)
      expect(ids(res.body)).toEqual(range(1, size))
    })
  }

  test('a clamped page_size still pages by 100 and keeps the parameter as sent', async () => {
    const res = await list('?page_size=1000&page=2')
    expect(ids(res.body)).toEqual(range(101, 105))
    expect(link(res.body.previous)).toEqual({
      at: 'http://localhost/api/gyms/',
      params: { page_size: '1000' },
    })
  })

  for (const page of ['12', 'abc', '0', '-1', '1.5']) {
    test(`page=${page} is 404 Invalid page`, async () => {
      const res = await list(`?page=${page}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual(invalidPage)
    })
  }
})

describe('filters and list order', () => {
  const t = useSeededApp({ once: true })
  let eventTypeIds: Record<string, number>

  beforeAll(async () => {
    const second = await makeGym(t.db, { name: 'Crag Annex' })
    // Interleaved across gyms and statuses, names in reverse, so only id order gives ids ascending.
    const plan: Array<[string, number, 'DRA' | 'ACT' | 'RET']> = [
      ['Z active', 1, 'ACT'],
      ['Y draft', 1, 'DRA'],
      ['X active annex', second.id, 'ACT'],
      ['W active', 1, 'ACT'],
      ['V retired', 1, 'RET'],
      ['U active annex', second.id, 'ACT'],
      ['T active', 1, 'ACT'],
    ]
    eventTypeIds = {}
    for (const [name, gym_id, status] of plan) {
      eventTypeIds[name] = (await makeEventType(t.db, { name, gym_id, status })).id
    }
  })

  const list = (query: string) => t.request('GET', `/api/event-types/${query}`, { token: t.seed.staffToken })
  const names = (body: { results: Array<{ name: string }> }) => body.results.map((r) => r.name)

  test('lists are in id order', async () => {
    const res = await list('')
    expect(res.body.results.map((r: { id: number }) => r.id)).toEqual(Object.values(eventTypeIds))
  })

  test('status is a case-insensitive substring filter', async () => {
    for (const status of ['act', 'ACT', 'Ac']) {
      const res = await list(`?status=${status}`)
      expect(names(res.body)).toEqual([
        'Z active',
        'X active annex',
        'W active',
        'U active annex',
        'T active',
      ])
    }
  })

  test('gym_id is an exact filter', async () => {
    const res = await list('?gym_id=2')
    expect(names(res.body)).toEqual(['X active annex', 'U active annex'])
  })

  test('filters combine', async () => {
    const res = await list('?gym_id=1&status=act')
    expect(names(res.body)).toEqual(['Z active', 'W active', 'T active'])
  })

  for (const bad of ['abc', '1.5', '2x']) {
    test(`gym_id=${bad} is 400 on that parameter`, async () => {
      const res = await list(`?gym_id=${bad}`)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ gym_id: notANumber })
    })
  }

  test('unknown query parameters are ignored', async () => {
    const plain = await list('?status=act')
    const res = await list('?status=act&colour=blue&ordering=-name&search=zzz')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(plain.body)
  })

  test('an empty filter value is ignored', async () => {
    const res = await list('?gym_id=&status=')
    expect(res.body.count).toBe(7)
  })

  test('page 1 of an empty filtered list is 200 with count 0; page 2 of it is Invalid page', async () => {
    const res = await list('?gym_id=999')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(emptyPage)
    const second = await list('?gym_id=999&page=2')
    expect(second.status).toBe(404)
    expect(second.body).toEqual(invalidPage)
  })

  test('next and previous keep the filters and page_size', async () => {
    const res = await list('?status=act&page_size=2&page=2')
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(5)
    expect(names(res.body)).toEqual(['W active', 'U active annex'])
    expect(link(res.body.next)).toEqual({
      at: 'http://localhost/api/event-types/',
      params: { status: 'act', page_size: '2', page: '3' },
    })
    expect(link(res.body.previous)).toEqual({
      at: 'http://localhost/api/event-types/',
      params: { status: 'act', page_size: '2' },
    })
  })
})

describe('absolute URLs with a configured public URL', () => {
  const t = useSeededApp({ publicUrl: 'https://desk.gym.example', once: true })

  beforeAll(async () => {
    await makeGyms(t.db, 11)
    await makeEventType(t.db, { name: 'Intro to ACT', gym_id: 1, status: 'ACT' })
  })

  test('url fields and next links use the public origin', async () => {
    const res = await t.request('GET', '/api/gyms/', { token: t.seed.staffToken })
    expect(res.body.next).toBe('https://desk.gym.example/api/gyms/?page=2')
    expect(res.body.results[0]).toMatchObject({
      url: 'https://desk.gym.example/api/gyms/1/',
      climbs_url: 'https://desk.gym.example/api/gyms/1/climbs/',
      grades_url: 'https://desk.gym.example/api/gyms/1/grades/',
      sections_url: 'https://desk.gym.example/api/gyms/1/sections/',
    })
    const second = await t.request('GET', '/api/gyms/?page=2', { token: t.seed.staffToken })
    expect(second.body.previous).toBe('https://desk.gym.example/api/gyms/')
  })

  test('related-record urls use it too', async () => {
    const res = await t.request('GET', '/api/event-types/1/', { token: t.seed.staffToken })
    expect(res.body).toMatchObject({
      url: 'https://desk.gym.example/api/event-types/1/',
      gym_url: 'https://desk.gym.example/api/gyms/1/',
    })
  })
})

describe('unexpected errors', () => {
  test('are 500 "A server error occurred." with the cause in the log only', async () => {
    const logged: Array<{ msg: string; fields?: Record<string, unknown> }> = []
    const log: Logger = {
      info() {},
      warn() {},
      error: (msg, fields) => logged.push({ msg, fields }),
    }
    const t = await makeTestApp({ log })
    const { staffToken } = await seedBasics(t.db)
    await t.close()

    const res = await t.request('GET', '/api/gyms/', { token: staffToken })
    expect(res.status).toBe(500)
    expect(res.body).toEqual(serverError)
    expect(logged).toHaveLength(1)
    const cause = String(logged[0]!.fields?.error)
    expect(cause.length).toBeGreaterThan(0)
    expect(JSON.stringify(res.body)).not.toContain(cause.split('\n')[0]!)
  })
})

describe('a full disk', () => {
  const t = useSeededApp()

  test('a write is 503 with Retry-After and nothing is saved; once space is freed the same write succeeds', async () => {
    const freeSpace = fillDiskOnInsertInto(t.deps.sqlite, 'gyms')
    const res = await t.request('POST', '/api/gyms/', { token: t.seed.adminToken, body: VALID_GYM })
    expect([res.status, res.body, res.headers.get('retry-after')]).toEqual([503, diskFull, '60'])
    expect(await countGyms(t.db)).toBe(1)
    // Reads are not writes.
    expect((await t.request('GET', '/api/gyms/', { token: t.seed.staffToken })).status).toBe(200)

    freeSpace()
    const again = await t.request('POST', '/api/gyms/', { token: t.seed.adminToken, body: VALID_GYM })
    expect(again.status).toBe(201)
    expect(await countGyms(t.db)).toBe(2)
  })

  test('a login is 503: its token could not be saved', async () => {
    await makeUser(t.db, { email: 'login@gym.example', password: 'correct horse' })
    const freeSpace = fillDiskOnInsertInto(t.deps.sqlite, 'auth_tokens')
    const res = await logIn(t, 'login@gym.example', 'correct horse')
    expect([res.status, res.body]).toEqual([503, diskFull])
    expect(await countRows(t.db, 'auth_tokens')).toBe(2)
    freeSpace()
    expect((await logIn(t, 'login@gym.example', 'correct horse')).status).toBe(200)
  })
})
