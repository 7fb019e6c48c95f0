import { describe, expect, test } from 'bun:test'
import { MAX_JSON_DEPTH } from '../../src/http/body.ts'
import { ORIGIN } from '../helpers/app.ts'
import { useSeededApp } from '../helpers/seeded.ts'

/*
 * Input a client should never send, and what the API answers instead of a 500 or a silent change:
 * deep JSON, NUL bytes, invalid UTF-8, and the boolean spellings DRF accepts.
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

describe('invalid UTF-8', () => {
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
})
