import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { makeTestApp, START, type TestApp } from '../helpers/app.ts'
import { makeToken, makeUser, seedBasics } from '../helpers/factories.ts'

const FORBIDDEN = { detail: 'You do not have permission to perform this action.' }
const NO_CREDENTIALS = { detail: 'Authentication credentials were not provided.' }
const INVALID_TOKEN = { detail: 'Invalid token.' }
const LATER = '2026-11-22T15:05:05.123Z'
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

let t: TestApp
let seed: Awaited<ReturnType<typeof seedBasics>>

beforeEach(async () => {
  t = await makeTestApp()
  seed = await seedBasics(t.db)
})
afterEach(() => t.close())

const read = async () => (await t.request('GET', PATH, { token: seed.staffToken })).body

describe('/api/organization/ 401', () => {
  for (const method of ['GET', 'PUT', 'PATCH']) {
    test(`${method} without a token is 401`, async () => {
      const res = await t.request(method, PATH, method === 'GET' ? {} : { body: { name: '' } })
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toBe('Token')
      expect(res.body).toEqual(NO_CREDENTIALS)
    })

    test(`${method} with an unknown token is 401 Invalid token`, async () => {
      const res = await t.request(method, PATH, {
        token: 'a'.repeat(40),
        ...(method === 'GET' ? {} : { body: { name: '' } }),
      })
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toBe('Token')
      expect(res.body).toEqual(INVALID_TOKEN)
    })
  }
})

describe('/api/organization/ 400', () => {
  const patch = (body: unknown) => t.request('PATCH', PATH, { token: seed.adminToken, body })

  const cases: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
    ['a blank name', { name: '' }, { name: ['This field may not be blank.'] }],
    ['time_zone Mars/Base', { time_zone: 'Mars/Base' }, { time_zone: ['A valid timezone is required.'] }],
    ['time_zone UTC+2', { time_zone: 'UTC+2' }, { time_zone: ['A valid timezone is required.'] }],
    ['currency usd', { currency: 'usd' }, { currency: ['Enter a three-letter ISO 4217 currency code.'] }],
    ['currency USDX', { currency: 'USDX' }, { currency: ['Enter a three-letter ISO 4217 currency code.'] }],
    ['waiver_required "x"', { waiver_required: 'x' }, { waiver_required: ['Must be a valid boolean.'] }],
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
    [
      'a milestone below 1',
      { milestones: [10, 0] },
      { milestones: ['Ensure this value is greater than or equal to 1.'] },
    ],
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
      name: ['This field may not be blank.'],
      time_zone: ['A valid timezone is required.'],
      currency: ['Enter a three-letter ISO 4217 currency code.'],
    })
  })

  test('PUT needs name and time_zone', async () => {
    const res = await t.request('PUT', PATH, { token: seed.adminToken, body: { currency: 'EUR' } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: ['This field is required.'], time_zone: ['This field is required.'] })
    expect(await read()).toEqual(SEEDED)
  })
})

describe('/api/organization/ 403', () => {
  test('a non-admin, even with every can_* flag, cannot PUT or PATCH', async () => {
    const flagged = await makeToken(
      t.db,
      await makeUser(t.db, {
        can_manage_events: 1,
        can_manage_members: 1,
        can_manage_customer_proficiencies: 1,
        can_export_customers: 1,
        can_access_reports: 1,
      }),
    )
    for (const token of [seed.staffToken, flagged]) {
      for (const method of ['PUT', 'PATCH']) {
        for (const body of [{ name: 'Crag', time_zone: 'UTC' }, { name: '' }]) {
          const res = await t.request(method, PATH, { token, body })
          expect(res.status).toBe(403)
          expect(res.body).toEqual(FORBIDDEN)
        }
      }
    }
    expect(await read()).toEqual(SEEDED)
  })
})

describe('/api/organization/ 405', () => {
  test('POST and DELETE are 405', async () => {
    for (const method of ['POST', 'DELETE']) {
      const res = await t.request(method, PATH, { token: seed.adminToken })
      expect(res.status).toBe(405)
      expect(res.body).toEqual({ detail: `Method "${method}" not allowed.` })
    }
  })
})

describe('/api/organization/ success', () => {
  test('any active staff user reads the whole record, with or without the final slash', async () => {
    for (const path of [PATH, '/api/organization']) {
      const res = await t.request('GET', path, { token: seed.staffToken })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(SEEDED)
    }
  })

  test('PATCH waiver_required and milestones: stored sorted and unique; updated_at moves', async () => {
    t.clock.advance(60000)
    const res = await t.request('PATCH', PATH, {
      token: seed.adminToken,
      body: { waiver_required: false, milestones: [50, 10, 10] },
    })
    expect(res.status).toBe(200)
    const expected = { ...SEEDED, waiver_required: false, milestones: [10, 50], updated_at: LATER }
    expect(res.body).toEqual(expected)
    expect(await read()).toEqual(expected)
  })

  test('PATCH an empty milestones list', async () => {
    const res = await t.request('PATCH', PATH, { token: seed.adminToken, body: { milestones: [] } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...SEEDED, milestones: [] })
  })

  test('PATCH currency and a lower-case zone (stored canonical)', async () => {
    const res = await t.request('PATCH', PATH, {
      token: seed.adminToken,
      body: { currency: 'EUR', time_zone: 'europe/berlin' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...SEEDED, currency: 'EUR', time_zone: 'Europe/Berlin' })
  })

  test('PUT with name and time_zone replaces them and keeps the rest', async () => {
    t.clock.advance(60000)
    const res = await t.request('PUT', PATH, {
      token: seed.adminToken,
      body: { name: 'Crag Co', time_zone: 'America/New_York' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...SEEDED, name: 'Crag Co', time_zone: 'America/New_York', updated_at: LATER })
  })
})
