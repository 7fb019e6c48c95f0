import { beforeEach, describe, expect, test } from 'bun:test'
import type { StaffUser } from '../../../src/db/schema.ts'
import { makeTestApp } from '../../helpers/app.ts'
import {
  notProvided,
  invalidToken,
  unsupportedMediaType,
  badCredentials,
  required,
  blank,
} from '../../helpers/bodies.ts'
import { makeToken, makeUser, seedBasics } from '../../helpers/factories.ts'
import { expectUnauthenticated, logIn, useSeededApp } from '../../helpers/seeded.ts'

const PASSWORD = 'correct horse battery'
const MINUTE = 60_000

const formBody = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
})

describe('POST /api/get-token/', () => {
  const t = useSeededApp()
  let user: StaffUser

  beforeEach(async () => {
    user = await makeUser(t.db, { email: 'Route.Setter@gym.example', password: PASSWORD })
  })

  describe('success', () => {
    test('a JSON body with the right email and password returns a 40-hex-character token', async () => {
      const res = await logIn(t, 'Route.Setter@gym.example', PASSWORD)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ token: expect.stringMatching(/^[0-9a-f]{40}$/) })
    })

    test('a form-encoded body is accepted too', async () => {
      const res = await t.request(
        'POST',
        '/api/get-token/',
        formBody({ username: 'Route.Setter@gym.example', password: PASSWORD }),
      )
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ token: expect.stringMatching(/^[0-9a-f]{40}$/) })
    })

    test('the path without the final slash works the same', async () => {
      const res = await t.request('POST', '/api/get-token', {
        body: { username: 'Route.Setter@gym.example', password: PASSWORD },
      })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ token: expect.stringMatching(/^[0-9a-f]{40}$/) })
    })

    test('the username is matched case-insensitively', async () => {
      for (const username of ['route.setter@gym.example', 'ROUTE.SETTER@GYM.EXAMPLE']) {
        const res = await logIn(t, username, PASSWORD)
        expect(res.status).toBe(200)
      }
    })

    test('each success issues a different token', async () => {
      const first = await logIn(t, 'route.setter@gym.example', PASSWORD)
      const second = await logIn(t, 'route.setter@gym.example', PASSWORD)
      expect(first.body.token).not.toBe(second.body.token)
    })

    test('the issued token authenticates GET /api/my-account/ as that user', async () => {
      const { body } = await logIn(t, 'route.setter@gym.example', PASSWORD)
      const res = await t.request('GET', '/api/my-account/', { token: body.token })
      expect(res.status).toBe(200)
      expect(res.body.email).toBe('Route.Setter@gym.example')
    })

    test('only a hash of the token is stored', async () => {
      const { body } = await logIn(t, 'route.setter@gym.example', PASSWORD)
      const rows = await t.db.selectFrom('auth_tokens').selectAll().where('user_id', '=', user.id).execute()
      expect(rows).toHaveLength(1)
      expect(JSON.stringify(rows)).not.toContain(body.token)
    })

    test('without a configured lifetime an issued token never expires', async () => {
      const { body } = await logIn(t, 'route.setter@gym.example', PASSWORD)
      t.clock.advance(5 * 365 * 24 * 60 * MINUTE)
      const res = await t.request('GET', '/api/my-account/', { token: body.token })
      expect(res.status).toBe(200)
    })
  })

  describe('refused credentials', () => {
    test('a wrong password is 400 with a non-field error', async () => {
      const res = await logIn(t, 'route.setter@gym.example', 'not the password')
      expect(res.status).toBe(400)
      expect(res.body).toEqual(badCredentials)
    })

    test('an unknown user gets the same 400 as a wrong password', async () => {
      const res = await logIn(t, 'nobody@gym.example', PASSWORD)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(badCredentials)
    })

    test('an inactive user with the right password is refused', async () => {
      await makeUser(t.db, { email: 'former@gym.example', password: PASSWORD, is_active: 0 })
      const res = await logIn(t, 'former@gym.example', PASSWORD)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(badCredentials)
    })

    test('a user without a password cannot log in', async () => {
      const res = await logIn(t, 'desk@gym.example', '')
      expect(res.status).toBe(400)
      const again = await logIn(t, 'desk@gym.example', 'anything at all')
      expect(again.status).toBe(400)
      expect(again.body).toEqual(badCredentials)
    })

    test('a wrong password in a form-encoded body is refused the same way', async () => {
      const res = await t.request(
        'POST',
        '/api/get-token/',
        formBody({ username: 'route.setter@gym.example', password: 'nope' }),
      )
      expect(res.status).toBe(400)
      expect(res.body).toEqual(badCredentials)
    })

    test('no token is issued for refused credentials', async () => {
      await logIn(t, 'route.setter@gym.example', 'not the password')
      const rows = await t.db.selectFrom('auth_tokens').selectAll().where('user_id', '=', user.id).execute()
      expect(rows).toEqual([])
    })
  })

  describe('field validation', () => {
    test('an empty JSON object reports both fields as required', async () => {
      const res = await t.request('POST', '/api/get-token/', { body: {} })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ username: required, password: required })
    })

    test('no body at all reports both fields as required', async () => {
      const res = await t.request('POST', '/api/get-token/')
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ username: required, password: required })
    })

    test('a missing password alone is reported on password only', async () => {
      const res = await t.request('POST', '/api/get-token/', {
        body: { username: 'route.setter@gym.example' },
      })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ password: required })
    })

    test('blank fields may not be blank', async () => {
      const res = await logIn(t, '', '')
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ username: blank, password: blank })
    })

    test('blank form-encoded fields may not be blank either', async () => {
      const res = await t.request('POST', '/api/get-token/', formBody({ username: '', password: '' }))
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ username: blank, password: blank })
    })

    test('a form-encoded body missing a field reports it as required', async () => {
      const res = await t.request(
        'POST',
        '/api/get-token/',
        formBody({ username: 'route.setter@gym.example' }),
      )
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ password: required })
    })

    test('a text/plain body is 415', async () => {
      const res = await t.request('POST', '/api/get-token/', {
        body: 'username=route.setter@gym.example',
        headers: { 'content-type': 'text/plain' },
      })
      expect(res.status).toBe(415)
      expect(res.body).toEqual(unsupportedMediaType('text/plain'))
    })
  })

  describe('throttle: ten failures for one username within 15 minutes', () => {
    /** Failed attempts through the endpoint (each costs an argon2 verification for a known user). */
    const failTimes = async (n: number, username: string) => {
      for (let i = 0; i < n; i++) {
        const res = await logIn(t, username, `wrong ${i}`)
        expect(res.status).toBe(400)
      }
    }
    /** Failures recorded straight into the throttle, where the endpoint's counting is not the subject. */
    const failedBefore = (n: number, username = 'route.setter@gym.example') => {
      for (let i = 0; i < n; i++) t.deps.loginThrottle.recordFailure(username)
    }

    const expectThrottled = (res: { status: number; headers: Headers; body: unknown }, seconds: number) => {
      expect(res.status).toBe(429)
      expect(res.body).toEqual({
        detail: `Request was throttled. Expected available in ${seconds} seconds.`,
      })
      expect(res.headers.get('retry-after')).toBe(String(seconds))
    }

    test('ten failed attempts throttle the eleventh, even with the right password', async () => {
      await failTimes(10, 'route.setter@gym.example')
      expectThrottled(await logIn(t, 'route.setter@gym.example', 'wrong again'), 900)
      expectThrottled(await logIn(t, 'route.setter@gym.example', PASSWORD), 900)
    })

    test('nine failures still leave the tenth attempt open', async () => {
      failedBefore(9)
      const res = await logIn(t, 'route.setter@gym.example', PASSWORD)
      expect(res.status).toBe(200)
    })

    test('failures in any letter case count against the same username', async () => {
      await failTimes(5, 'NOBODY@GYM.EXAMPLE')
      await failTimes(5, 'nobody@gym.example')
      expectThrottled(await logIn(t, 'Nobody@Gym.Example', PASSWORD), 900)
    })

    test('the wait counts down with the clock, to "1 second" at the end', async () => {
      failedBefore(10)
      t.clock.advance(5 * MINUTE)
      expectThrottled(await logIn(t, 'route.setter@gym.example', PASSWORD), 600)
      t.clock.advance(9 * MINUTE + 59_500)
      const res = await logIn(t, 'route.setter@gym.example', PASSWORD)
      expect(res.status).toBe(429)
      expect(res.body).toEqual({ detail: 'Request was throttled. Expected available in 1 second.' })
      expect(res.headers.get('retry-after')).toBe('1')
    })

    test('the throttle lifts when the window ends', async () => {
      failedBefore(10)
      t.clock.advance(15 * MINUTE)
      const res = await logIn(t, 'route.setter@gym.example', PASSWORD)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ token: expect.stringMatching(/^[0-9a-f]{40}$/) })
    })

    test('throttled attempts do not extend the window', async () => {
      failedBefore(10)
      for (let minute = 1; minute < 15; minute++) {
        t.clock.advance(MINUTE)
        expectThrottled(await logIn(t, 'route.setter@gym.example', 'still guessing'), (15 - minute) * 60)
      }
      t.clock.advance(MINUTE)
      expect((await logIn(t, 'route.setter@gym.example', PASSWORD)).status).toBe(200)
    })

    test('failures spread over more than 15 minutes do not throttle', async () => {
      failedBefore(5)
      t.clock.advance(15 * MINUTE)
      failedBefore(5)
      const res = await logIn(t, 'route.setter@gym.example', PASSWORD)
      expect(res.status).toBe(200)
    })

    test('another username is not affected', async () => {
      await makeUser(t.db, { email: 'other@gym.example', password: PASSWORD })
      failedBefore(10)
      const res = await logIn(t, 'other@gym.example', PASSWORD)
      expect(res.status).toBe(200)
    })
  })
})

describe('token authentication', () => {
  const t = useSeededApp()

  const get = (headers: Record<string, string> = {}) => t.request('GET', '/api/my-account/', { headers })

  test('no Authorization header is 401 "not provided" with WWW-Authenticate: Token', async () => {
    const res = await get()
    expectUnauthenticated(res)
  })

  for (const header of ['Bearer abc', 'Token', `Token ${'a'.repeat(40)} extra`, 'Basic dXNlcjpwYXNz', '']) {
    test(`a malformed header ${JSON.stringify(header)} is 401 "not provided"`, async () => {
      const res = await get({ authorization: header })
      expectUnauthenticated(res)
    })
  }

  test('"Bearer <valid key>" is not accepted', async () => {
    const res = await get({ authorization: `Bearer ${t.seed.staffToken}` })
    expect(res.status).toBe(401)
    expect(res.body).toEqual(notProvided)
  })

  test('the word Token is matched case-insensitively', async () => {
    for (const word of ['token', 'TOKEN', 'Token']) {
      const res = await get({ authorization: `${word} ${t.seed.staffToken}` })
      expect(res.status).toBe(200)
      expect(res.body.email).toBe('desk@gym.example')
    }
  })

  test('an unknown token is 401 "Invalid token." with WWW-Authenticate: Token', async () => {
    const res = await get({ authorization: `Token ${'0'.repeat(40)}` })
    expectUnauthenticated(res, invalidToken)
  })

  test('a token that expired is invalid', async () => {
    const expired = await makeToken(t.db, t.seed.staff, '2020-01-01T00:00:00.000Z')
    const res = await t.request('GET', '/api/my-account/', { token: expired })
    expectUnauthenticated(res, invalidToken)
  })

  test('a token with an expiry still ahead works until that moment', async () => {
    const key = await makeToken(t.db, t.seed.staff, '2026-11-22T16:00:00.000Z')
    expect((await t.request('GET', '/api/my-account/', { token: key })).status).toBe(200)
    t.clock.set('2026-11-22T16:00:00.000Z')
    const res = await t.request('GET', '/api/my-account/', { token: key })
    expect(res.status).toBe(401)
    expect(res.body).toEqual(invalidToken)
  })

  test("an inactive user's token is invalid", async () => {
    const former = await makeUser(t.db, { is_active: 0 })
    const key = await makeToken(t.db, former)
    const res = await t.request('GET', '/api/my-account/', { token: key })
    expectUnauthenticated(res, invalidToken)
  })

  test('deactivating a user invalidates the tokens they already hold', async () => {
    await t.db.updateTable('staff_users').set({ is_active: 0 }).where('id', '=', t.seed.staff.id).execute()
    const res = await t.request('GET', '/api/my-account/', { token: t.seed.staffToken })
    expect(res.status).toBe(401)
    expect(res.body).toEqual(invalidToken)
  })

  test('a token is checked on collection endpoints too', async () => {
    expect((await t.request('GET', '/api/gyms/')).body).toEqual(notProvided)
    expect((await t.request('GET', '/api/gyms/', { token: 'f'.repeat(40) })).body).toEqual(invalidToken)
    expect((await t.request('GET', '/api/gyms/', { token: t.seed.staffToken })).status).toBe(200)
  })
})

describe('token lifetime configured by the operator', () => {
  test('an issued token stops working once its lifetime has passed', async () => {
    const t = await makeTestApp({ tokenLifetimeHours: 8 })
    await seedBasics(t.db)
    await makeUser(t.db, { email: 'closer@gym.example', password: PASSWORD })
    const { body } = await logIn(t, 'closer@gym.example', PASSWORD)
    t.clock.advance(8 * 60 * MINUTE - 1)
    expect((await t.request('GET', '/api/my-account/', { token: body.token })).status).toBe(200)
    t.clock.advance(1)
    const res = await t.request('GET', '/api/my-account/', { token: body.token })
    expect(res.status).toBe(401)
    expect(res.body).toEqual(invalidToken)
  })
})
