import { beforeEach, describe, expect, test } from 'bun:test'
import type { StaffUser } from '../../../src/db/schema.ts'
import { makeTestApp } from '../../helpers/app.ts'
import { badCredentials } from '../../helpers/bodies.ts'
import { makeUser, seedBasics } from '../../helpers/factories.ts'
import { expectUnauthenticated, logIn, useSeededApp } from '../../helpers/seeded.ts'
import { logInSession, sessionFrom, sessionLogIn, withSession, type Session } from '../../helpers/sessions.ts'

/**
 * Session login (POST /api/login/): the cookies it sets, CSRF on unsafe requests, and every way a
 * session ends. The token side is unchanged (auth.test.ts, token-revocation.test.ts).
 */

const t = useSeededApp()
const EMAIL = 'front.desk@gym.example'
const PASSWORD = 'correct horse battery'
const NEW_PASSWORD = 'slopers-4567'
const HOUR = 3_600_000
let user: StaffUser

beforeEach(async () => {
  user = await makeUser(t.db, { email: EMAIL, password: PASSWORD, first_name: 'Fran' })
})

const csrfMissing = { detail: 'CSRF Failed: CSRF token missing.' }
const csrfIncorrect = { detail: 'CSRF Failed: CSRF token incorrect.' }
const myAccount = (session: Session) => withSession(t, session, 'GET', '/api/my-account/')
const rename = (session: Session, csrf?: string | null) =>
  withSession(t, session, 'PATCH', '/api/my-account/', { body: { first_name: 'Frances' }, csrf })

describe('POST /api/login/', () => {
  test('200 with the account as my-account shows it, and two cookies with exact attributes', async () => {
    const res = await sessionLogIn(t, 'FRONT.DESK@gym.example', PASSWORD)
    expect(res.status).toBe(200)
    const token = (await logIn(t, EMAIL, PASSWORD)).body.token
    expect(res.body).toEqual((await t.request('GET', '/api/my-account/', { token })).body)
    const [sessionCookie, csrfCookie, ...more] = res.headers.getSetCookie()
    expect(more).toEqual([])
    expect(sessionCookie).toMatch(/^sessionid=[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Lax$/)
    expect(csrfCookie).toMatch(/^csrftoken=[0-9a-f]{64}; Path=\/; SameSite=Lax$/)
  })

  test('behind an https public URL both cookies are Secure', async () => {
    const app = await makeTestApp({ publicUrl: 'https://desk.gym.example' })
    try {
      await seedBasics(app.db)
      await makeUser(app.db, { email: EMAIL, password: PASSWORD })
      const res = await sessionLogIn(app, EMAIL, PASSWORD)
      expect(res.headers.getSetCookie()).toEqual([
        expect.stringMatching(/^sessionid=[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Lax; Secure$/),
        expect.stringMatching(/^csrftoken=[0-9a-f]{64}; Path=\/; SameSite=Lax; Secure$/),
      ])
    } finally {
      app.close()
    }
  })

  test('a form-encoded body is accepted too', async () => {
    const res = await t.request('POST', '/api/login/', {
      body: new URLSearchParams({ username: EMAIL, password: PASSWORD }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect((await myAccount(sessionFrom(res))).status).toBe(200)
  })

  test("a wrong password is get-token's 400, with no cookie", async () => {
    const res = await sessionLogIn(t, EMAIL, 'not the password')
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: badCredentials })
    expect(res.headers.getSetCookie()).toEqual([])
  })

  test("failures count against get-token's throttle and the other way round", async () => {
    for (let i = 0; i < 5; i++) expect((await logIn(t, EMAIL, 'wrong')).status).toBe(400)
    for (let i = 0; i < 5; i++) expect((await sessionLogIn(t, EMAIL, 'wrong')).status).toBe(400)
    const res = await sessionLogIn(t, EMAIL, PASSWORD)
    expect(res.status).toBe(429)
    expect(res.body).toEqual({ detail: 'Request was throttled. Expected available in 900 seconds.' })
    expect(res.headers.get('retry-after')).toBe('900')
    expect(res.headers.getSetCookie()).toEqual([])
  })

  test("a login from another site's page is refused before it counts", async () => {
    const res = await sessionLogIn(t, EMAIL, PASSWORD, { headers: { 'sec-fetch-site': 'cross-site' } })
    expect(res.status).toBe(403)
    expect(res.headers.getSetCookie()).toEqual([])
  })

  test('only a hash of the key is stored, and neither cookie value', async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    const rows = await t.db.selectFrom('auth_sessions').selectAll().execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]!.user_id).toBe(user.id)
    expect(JSON.stringify(rows)).not.toContain(session.key)
    expect(JSON.stringify(rows)).not.toContain(session.csrf)
  })
})

describe('a request on the session', () => {
  test('a GET with the cookie is the user, without any CSRF token', async () => {
    const res = await myAccount(await logInSession(t, EMAIL, PASSWORD))
    expect(res.status).toBe(200)
    expect(res.body.email).toBe(EMAIL)
  })

  test('an unsafe request without X-CSRFToken is 403 "missing", and changes nothing', async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    const res = await rename(session, null)
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: csrfMissing })
    expect((await myAccount(session)).body.first_name).toBe('Fran')
  })

  test('an empty X-CSRFToken is "missing" too', async () => {
    const res = await rename(await logInSession(t, EMAIL, PASSWORD), '')
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: csrfMissing })
  })

  test('another value is 403 "incorrect": the token of another session of the same user too', async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    const other = await logInSession(t, EMAIL, PASSWORD)
    for (const csrf of ['0'.repeat(64), 'short', other.csrf, session.key]) {
      const res = await rename(session, csrf)
      expect({ csrf, status: res.status, body: res.body }).toEqual({ csrf, status: 403, body: csrfIncorrect })
    }
    expect((await myAccount(session)).body.first_name).toBe('Fran')
  })

  test('with the right X-CSRFToken the unsafe request is done', async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    const res = await rename(session)
    expect(res.status).toBe(200)
    expect(res.body.first_name).toBe('Frances')
  })

  test('an unknown session key is 401 "not provided"', async () => {
    expectUnauthenticated(await myAccount({ key: 'f'.repeat(64), csrf: 'x' }))
  })

  test("a token never needs CSRF, and a request with a token and a session is the token's", async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    const res = await withSession(t, session, 'PATCH', '/api/my-account/', {
      token: t.seed.staffToken,
      csrf: null,
      body: { first_name: 'Desk' },
    })
    expect(res.status).toBe(200)
    expect(res.body.email).toBe('desk@gym.example')
    expect((await myAccount(session)).body.first_name).toBe('Fran')
  })

  test('an unknown token beside a live session is still 401 Invalid token', async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    const res = await withSession(t, session, 'GET', '/api/my-account/', { token: 'f'.repeat(40) })
    expectUnauthenticated(res, { detail: 'Invalid token.' })
  })
})

describe('POST /api/logout/ on a session', () => {
  test("204, both cookies cleared; the next request is 401; the user's other session lives", async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    const other = await logInSession(t, EMAIL, PASSWORD)
    const res = await withSession(t, session, 'POST', '/api/logout/')
    expect({ status: res.status, body: res.body }).toEqual({ status: 204, body: '' })
    expect(res.headers.getSetCookie()).toEqual([
      'sessionid=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax',
      'csrftoken=; Max-Age=0; Path=/; SameSite=Lax',
    ])
    expectUnauthenticated(await myAccount(session))
    expect((await myAccount(other)).status).toBe(200)
  })

  test('needs the CSRF token as any unsafe request', async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    const res = await withSession(t, session, 'POST', '/api/logout/', { csrf: null })
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: csrfMissing })
    expect((await myAccount(session)).status).toBe(200)
  })

  test("a token's logout clears no cookie and leaves the user's sessions", async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    const token = (await logIn(t, EMAIL, PASSWORD)).body.token
    const res = await t.request('POST', '/api/logout/', { token })
    expect(res.status).toBe(204)
    expect(res.headers.getSetCookie()).toEqual([])
    expect((await myAccount(session)).status).toBe(200)
  })
})

describe('a session ends by itself', () => {
  test('after the idle time without a request (12 hours by default), not before', async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    t.clock.advance(12 * HOUR - 60_000)
    expect((await myAccount(session)).status).toBe(200)
    t.clock.advance(12 * HOUR - 60_000)
    expect((await myAccount(session)).status).toBe(200)
    t.clock.advance(12 * HOUR)
    expectUnauthenticated(await myAccount(session))
    expect(await t.db.selectFrom('auth_sessions').selectAll().execute()).toEqual([])
  })

  test('at its maximum age (a week by default) however busy', async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    for (let hours = 6; hours < 168; hours += 6) {
      t.clock.advance(6 * HOUR)
      expect({ hours, status: (await myAccount(session)).status }).toEqual({ hours, status: 200 })
    }
    t.clock.advance(6 * HOUR)
    expectUnauthenticated(await myAccount(session))
  })

  test('the idle time and maximum age are settings', async () => {
    const app = await makeTestApp({ sessionIdleHours: 1, sessionMaxAgeHours: 2 })
    try {
      await seedBasics(app.db)
      await makeUser(app.db, { email: EMAIL, password: PASSWORD })
      const idle = await logInSession(app, EMAIL, PASSWORD)
      app.clock.advance(HOUR)
      expectUnauthenticated(await withSession(app, idle, 'GET', '/api/my-account/'))
      const busy = await logInSession(app, EMAIL, PASSWORD)
      for (let minutes = 30; minutes < 120; minutes += 30) {
        app.clock.advance(30 * 60_000)
        expect((await withSession(app, busy, 'GET', '/api/my-account/')).status).toBe(200)
      }
      app.clock.advance(30 * 60_000)
      expectUnauthenticated(await withSession(app, busy, 'GET', '/api/my-account/'))
    } finally {
      app.close()
    }
  })
})

describe("a session ends with the user's tokens", () => {
  test('a password changed on the session keeps it, and ends the other sessions and every token', async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    const other = await logInSession(t, EMAIL, PASSWORD)
    const token = (await logIn(t, EMAIL, PASSWORD)).body.token
    const res = await withSession(t, session, 'PATCH', '/api/change-password/', {
      body: { old_password: PASSWORD, new_password: NEW_PASSWORD },
    })
    expect(res.status).toBe(200)
    expect((await myAccount(session)).status).toBe(200)
    expectUnauthenticated(await myAccount(other))
    expectUnauthenticated(await t.request('GET', '/api/my-account/', { token }), { detail: 'Invalid token.' })
  })

  test("a password changed with a token ends all the user's sessions", async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    const token = (await logIn(t, EMAIL, PASSWORD)).body.token
    const res = await t.request('PATCH', '/api/my-account/', {
      token,
      body: { previous_password: PASSWORD, new_password: NEW_PASSWORD },
    })
    expect(res.status).toBe(200)
    expectUnauthenticated(await myAccount(session))
  })

  test("an admin setting the user's password ends their sessions", async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    const res = await t.request('PATCH', `/api/users/${user.id}/`, {
      token: t.seed.adminToken,
      body: { password: NEW_PASSWORD },
    })
    expect(res.status).toBe(200)
    expectUnauthenticated(await myAccount(session))
  })

  test('deactivation ends them, and reactivating does not bring them back', async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    const patch = (is_active: boolean) =>
      t.request('PATCH', `/api/users/${user.id}/`, { token: t.seed.adminToken, body: { is_active } })
    expect((await patch(false)).status).toBe(200)
    expectUnauthenticated(await myAccount(session))
    expect((await patch(true)).status).toBe(200)
    expectUnauthenticated(await myAccount(session))
  })

  test("an admin's revoke-tokens ends them", async () => {
    const session = await logInSession(t, EMAIL, PASSWORD)
    const res = await t.request('POST', `/api/users/${user.id}/revoke-tokens/`, { token: t.seed.adminToken })
    expect(res.status).toBe(200)
    expectUnauthenticated(await myAccount(session))
  })

  test("an admin's revoke-tokens on the session of their own ends that session too", async () => {
    const admin = await makeUser(t.db, {
      email: 'boss@gym.example',
      password: PASSWORD,
      is_organization_admin: 1,
    })
    const session = await logInSession(t, 'boss@gym.example', PASSWORD)
    const res = await withSession(t, session, 'POST', `/api/users/${admin.id}/revoke-tokens/`)
    expect(res.status).toBe(200)
    expectUnauthenticated(await myAccount(session))
  })
})
