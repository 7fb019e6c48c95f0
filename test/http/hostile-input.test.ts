import { describe, expect, test } from 'bun:test'
import { MAX_JSON_DEPTH } from '../../src/http/body.ts'
import { MAX_HEADER_BYTES, MAX_URL_BYTES } from '../../src/http/request-limits.ts'
import { makeCustomer } from '../helpers/customer-factories.ts'
import { makeUser } from '../helpers/factories.ts'
import { ORIGIN } from '../helpers/app.ts'
import { expectAnswer, useSeededApp } from '../helpers/seeded.ts'

/*
 * Input a client should never send, and what the API answers instead of a 500 or a silent change:
 * deep JSON, NUL bytes, invalid UTF-8, the boolean spellings DRF accepts, over-long URLs and headers.
 */

const t = useSeededApp()

const nested = (depth: number, inner = '"x"') => '['.repeat(depth) + inner + ']'.repeat(depth)
const tooDeep = {
  detail: `JSON parse error - Objects and lists nest deeper than ${MAX_JSON_DEPTH} levels.`,
}

describe('JSON nesting', () => {
  test('an enum field nested 4,500 deep is a parse error, not a 500', async () => {
    const res = await t.request('POST', '/api/memberships/', {
      token: t.seed.adminToken,
      body: `{"name": "Monthly", "status": ${nested(4500)}}`,
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual(tooDeep)
    const withinLimit = await t.request('POST', '/api/memberships/', {
      token: t.seed.adminToken,
      body: `{"name": "Monthly", "status": ${nested(MAX_JSON_DEPTH - 1)}}`,
    })
    expect(withinLimit.status).toBe(400)
    expect(withinLimit.body.status).toEqual(['"x" is not a valid choice.'])
  })

  test('50,000 deep on the unauthenticated get-token is a parse error', async () => {
    const res = await t.request('POST', '/api/get-token/', {
      body: `{"username": ${nested(50_000, '{}')}, "password": "x"}`,
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual(tooDeep)
  })

  test('brackets inside strings do not count, and the limit itself is accepted', async () => {
    const res = await t.request('POST', '/api/gyms/', {
      token: t.seed.adminToken,
      body: `{"name": "${'[{'.repeat(100)}", "time_zone": "UTC", "x": ${nested(MAX_JSON_DEPTH - 1)}}`,
    })
    expect(res.status).toBe(201)
    expect(res.body.name).toBe('[{'.repeat(100))
    const over = await t.request('POST', '/api/gyms/', {
      token: t.seed.adminToken,
      body: `{"name": "Deep", "time_zone": "UTC", "x": ${nested(MAX_JSON_DEPTH)}}`,
    })
    expect(over.status).toBe(400)
    expect(over.body).toEqual(tooDeep)
  })
})

describe('NUL bytes and invalid UTF-8', () => {
  test('a NUL in a text field is 400 on that field', async () => {
    const res = await t.request('POST', '/api/gyms/', {
      token: t.seed.adminToken,
      body: { name: 'Crag\u0000Annex', time_zone: 'UTC', scheduler_url_path: 'ok' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: ['Null characters are not allowed.'] })
  })

  test('a NUL in a text filter is 400 on that parameter, not a match of everything', async () => {
    await makeCustomer(t.db, { first_name: 'Alex' })
    const res = await t.request('GET', '/api/customers/?search=%00zzzz', { token: t.seed.adminToken })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ search: ['Null characters are not allowed.'] })
  })

  test('a body that is not UTF-8 is a parse error, not U+FFFD stored with 201', async () => {
    const bytes = new TextEncoder().encode('{"name": "Caf?", "time_zone": "UTC"}')
    bytes[12] = 0xe9 // Latin-1 "é", not UTF-8
    const response = await t.app.handle(
      new Request(`${ORIGIN}/api/gyms/`, {
        method: 'POST',
        headers: { authorization: `Token ${t.seed.adminToken}`, 'content-type': 'application/json' },
        body: bytes,
      }),
    )
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ detail: 'JSON parse error - The body is not valid UTF-8.' })
  })

  const formLogIn = (body: string | Uint8Array) =>
    t.app.handle(
      new Request(`${ORIGIN}/api/get-token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      }),
    )

  test('a form-encoded login whose escapes are not UTF-8 is a form parse error, not U+FFFD', async () => {
    for (const body of ['username=a%ffb%40gym.example&password=x', 'username=x&p%e9=y']) {
      const response = await formLogIn(body)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ detail: 'Form parse error - The body is not valid UTF-8.' })
    }
    const raw = new TextEncoder().encode('username=caf?&password=x')
    raw[12] = 0xe9
    const response = await formLogIn(raw)
    expect(await response.json()).toEqual({ detail: 'Form parse error - The body is not valid UTF-8.' })
  })

  test('a form-encoded login reads +, %2B, a bare % and UTF-8 escapes as Django does', async () => {
    await makeUser(t.db, { email: 'rope+gear@gym.example', password: 'p%ss wörd 100%' })
    const response = await formLogIn('username=rope%2Bgear%40gym.example&password=p%ss+w%C3%B6rd+100%')
    expect(response.status).toBe(200)
  })
})

describe('booleans as DRF reads them', () => {
  const alerts = async () => `/api/customers/${(await makeCustomer(t.db)).id}/alerts/`

  test.each([
    ['off', false],
    ['No', false],
    ['n', false],
    ['0', false],
    [0, false],
    ['on', true],
    ['YES', true],
    ['t', true],
    ['1', true],
    [1, true],
  ])('body field %p is %p', async (sent, read) => {
    const res = await t.request('POST', await alerts(), {
      token: t.seed.adminToken,
      body: { alert_text: 'Check belay card', prevents_check_in: sent },
    })
    expect(res.status).toBe(201)
    expect(res.body.prevents_check_in).toBe(read)
  })

  test.each([['oFF'], ['maybe'], [2], ['']])('body field %p is refused', async (sent) => {
    const res = await t.request('POST', await alerts(), {
      token: t.seed.adminToken,
      body: { alert_text: 'Check belay card', prevents_check_in: sent },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ prevents_check_in: ['Must be a valid boolean.'] })
  })

  test('filters take true/false in any case and 1/0, and refuse yes', async () => {
    const customer = await makeCustomer(t.db, { is_active: 0 })
    const list = (q: string) => t.request('GET', `/api/customers/?${q}`, { token: t.seed.adminToken })
    for (const q of ['is_active=0', 'is_active=FALSE', 'is_active=false']) {
      const res = await list(q)
      expect(res.status).toBe(200)
      expect(res.body.results.map((c: { id: number }) => c.id)).toEqual([customer.id])
    }
    expect((await list('is_active=1')).body.results).toEqual([])
    const refused = await list('is_active=yes')
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({ is_active: ['Must be a valid boolean.'] })
  })
})

describe('over-long URLs and headers', () => {
  test('a URL over the limit is 414 with a JSON body, before authentication', async () => {
    const res = await t.request('GET', `/api/customers/?search=${'a'.repeat(MAX_URL_BYTES)}`)
    expect(res.status).toBe(414)
    expect(res.body).toEqual({ detail: 'Request URL is too long.' })
    const atLimit = `/api/customers/?search=`
    const ok = await t.request('GET', atLimit + 'a'.repeat(MAX_URL_BYTES - atLimit.length), {
      token: t.seed.adminToken,
    })
    expect(ok.status).toBe(200)
  })

  test('a path or method the API lacks is 414 too when its URL is over the limit', async () => {
    const query = `?search=${'a'.repeat(MAX_URL_BYTES)}`
    for (const [method, path] of [
      ['GET', '/api/no-such-thing/'],
      ['DELETE', '/api/customers/'],
    ] as const) {
      expectAnswer({ method, path }, await t.request(method, `${path}${query}`), 414, {
        detail: 'Request URL is too long.',
      })
    }
  })

  test('header fields over the limit are 431 with a JSON body', async () => {
    const res = await t.request('GET', '/api/gyms/', {
      token: t.seed.adminToken,
      headers: { 'x-padding': 'a'.repeat(MAX_HEADER_BYTES) },
    })
    expect(res.status).toBe(431)
    expect(res.body).toEqual({ detail: 'Request header fields are too large.' })
  })
})

describe('query values that are not UTF-8', () => {
  test('search=%ff is 400 on that parameter, unlike a percent sign escaped as %25', async () => {
    await makeCustomer(t.db, { first_name: 'A%ffB' })
    const res = await t.request('GET', '/api/customers/?search=%ff', { token: t.seed.adminToken })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ search: ['Enter a valid value.'] })
    const escaped = await t.request('GET', '/api/customers/?search=%25ff', { token: t.seed.adminToken })
    expect(escaped.status).toBe(200)
    expect(escaped.body.count).toBe(1)
  })

  test('a bare percent sign and unknown parameters are left alone', async () => {
    const res = await t.request('GET', '/api/customers/?search=100%&other=%ff', { token: t.seed.adminToken })
    expect(res.status).toBe(200)
    const members = await t.request('GET', '/api/members/?status_in=%c3%28', { token: t.seed.adminToken })
    expect(members.status).toBe(400)
    expect(members.body).toEqual({ status_in: ['Enter a valid value.'] })
  })
})
