import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, START } from '../../helpers/app.ts'
import {
  invalidToken,
  forbidden,
  methodNotAllowed,
  required,
  blank,
  invalidBoolean,
  invalidTimeZone,
  minValue,
} from '../../helpers/bodies.ts'
import { everyCanFlag, makeToken, makeUser } from '../../helpers/factories.ts'
import { expectUnauthenticated, useSeededApp } from '../../helpers/seeded.ts'

const PATH = '/api/organization/'

/** The organization as seeded by the factory, with the migration's defaults. */
const SEEDED = {
  name: 'Boulder Barn',
  time_zone: 'America/Denver',
  currency: 'USD',
  waiver_required: true,
  milestones: [1, 10, 25, 50, 100, 250, 500, 1000],
  created_at: START,
  updated_at: START,
}

const t = useSeededApp()

const read = async () => (await t.request('GET', PATH, { token: t.seed.staffToken })).body

describe('/api/organization/ 401', () => {
  for (const method of ['GET', 'PUT', 'PATCH']) {
    test(`${method} without a token is 401`, async () => {
      const res = await t.request(method, PATH, method === 'GET' ? {} : { body: { name: '' } })
      expectUnauthenticated(res)
    })

    test(`${method} with an unknown token is 401 Invalid token`, async () => {
      const res = await t.request(method, PATH, {
        token: 'a'.repeat(40),
        ...(method === 'GET' ? {} : { body: { name: '' } }),
      })
      expectUnauthenticated(res, invalidToken)
    })
  }
})

describe('/api/organization/ 400', () => {
  const patch = (body: unknown) => t.request('PATCH', PATH, { token: t.seed.adminToken, body })

  const cases: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
    ['a blank name', { name: '' }, { name: blank }],
    ['time_zone Mars/Base', { time_zone: 'Mars/Base' }, { time_zone: invalidTimeZone }],
    ['time_zone UTC+2', { time_zone: 'UTC+2' }, { time_zone: invalidTimeZone }],
    ['currency usd', { currency: 'usd' }, { currency: ['Enter a three-letter ISO 4217 currency code.'] }],
    ['currency USDX', { currency: 'USDX' }, { currency: ['Enter a three-letter ISO 4217 currency code.'] }],
    ['waiver_required "x"', { waiver_required: 'x' }, { waiver_required: invalidBoolean }],
    [
      'milestones not a list',
      { milestones: 5 },
      { milestones: ['Expected a list of items but got type "int".'] },
    ],
    [
      'milestones a string',
      { milestones: '10' },
      { milestones: ['Expected a list of items but got type "str".'] },
    ],
    ['a milestone below 1', { milestones: [10, 0] }, { milestones: minValue(1) }],
  ]

  for (const [name, body, errors] of cases) {
    test(`PATCH with ${name} is 400 and changes nothing`, async () => {
      t.clock.advance(60000)
      const res = await patch(body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errors)
      expect(await read()).toEqual(SEEDED)
    })
  }

  test('several failing fields are reported in one body', async () => {
    const res = await patch({ name: '', time_zone: 'Mars/Base', currency: 'usd' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      name: blank,
      time_zone: invalidTimeZone,
      currency: ['Enter a three-letter ISO 4217 currency code.'],
    })
  })

  test('PUT needs name and time_zone', async () => {
    const res = await t.request('PUT', PATH, { token: t.seed.adminToken, body: { currency: 'EUR' } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: required, time_zone: required })
    expect(await read()).toEqual(SEEDED)
  })
})

describe('/api/organization/ 403', () => {
  test('a non-admin, even with every can_* flag, cannot PUT or PATCH', async () => {
    const flagged = await makeToken(t.db, await makeUser(t.db, everyCanFlag))
    for (const token of [t.seed.staffToken, flagged]) {
      for (const method of ['PUT', 'PATCH']) {
        for (const body of [{ name: 'Crag', time_zone: 'UTC' }, { name: '' }]) {
          const res = await t.request(method, PATH, { token, body })
          expect(res.status).toBe(403)
          expect(res.body).toEqual(forbidden)
        }
      }
    }
    expect(await read()).toEqual(SEEDED)
  })
})

describe('/api/organization/ 405', () => {
  test('POST and DELETE are 405', async () => {
    for (const method of ['POST', 'DELETE']) {
      const res = await t.request(method, PATH, { token: t.seed.adminToken })
      expect(res.status).toBe(405)
      expect(res.body).toEqual(methodNotAllowed(method))
    }
  })
})

describe('/api/organization/ success', () => {
  test('any active staff user reads the whole record, with or without the final slash', async () => {
    for (const path of [PATH, '/api/organization']) {
      const res = await t.request('GET', path, { token: t.seed.staffToken })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(SEEDED)
    }
  })

  test('PATCH waiver_required and milestones: stored sorted and unique; updated_at moves', async () => {
    t.clock.advance(60000)
    const res = await t.request('PATCH', PATH, {
      token: t.seed.adminToken,
      body: { waiver_required: false, milestones: [50, 10, 10] },
    })
    expect(res.status).toBe(200)
    const expected = { ...SEEDED, waiver_required: false, milestones: [10, 50], updated_at: ONE_MINUTE_LATER }
    expect(res.body).toEqual(expected)
    expect(await read()).toEqual(expected)
  })

  test('PATCH an empty milestones list', async () => {
    const res = await t.request('PATCH', PATH, { token: t.seed.adminToken, body: { milestones: [] } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...SEEDED, milestones: [] })
  })

  test('PATCH currency and a lower-case zone (stored canonical)', async () => {
    const res = await t.request('PATCH', PATH, {
      token: t.seed.adminToken,
      body: { currency: 'EUR', time_zone: 'europe/berlin' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...SEEDED, currency: 'EUR', time_zone: 'Europe/Berlin' })
  })

  test('PUT with name and time_zone replaces them and keeps the rest', async () => {
    t.clock.advance(60000)
    const res = await t.request('PUT', PATH, {
      token: t.seed.adminToken,
      body: { name: 'Crag Co', time_zone: 'America/New_York' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      ...SEEDED,
      name: 'Crag Co',
      time_zone: 'America/New_York',
      updated_at: ONE_MINUTE_LATER,
    })
  })
})
