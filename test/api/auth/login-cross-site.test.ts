import { beforeEach, describe, expect, test } from 'bun:test'
import { ORIGIN, type TestApp } from '../../helpers/app.ts'
import { badCredentials } from '../../helpers/bodies.ts'
import { makeUser } from '../../helpers/factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'

/**
 * A login from another site's page: get-token takes form-encoded bodies, which a browser posts
 * cross-site without asking first, so any page open at the desk could fail logins in a staff
 * member's name until the throttle locks them out. A browser says where a request comes from
 * (`Origin`, `Sec-Fetch-Site`); a login it says comes from another site is refused before the
 * throttle counts it or the password is checked. Clients that send neither (curl, integrations) are
 * not browsers and log in as before.
 */

const PASSWORD = 'correct horse battery'
const EMAIL = 'manager@gym.example'
const crossSiteRefused = {
  detail: "Logins from another site's page are refused: log in from this box's own page.",
}

const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString()

/** get-token with the headers a browser would add, the body form-encoded as a hidden form sends it. */
const logInWith = (t: TestApp, headers: Record<string, string>, password: string, clientAddress?: string) =>
  t.request('POST', '/api/get-token/', {
    body: formBody({ username: EMAIL, password }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    clientAddress,
  })

const tokensStored = (t: TestApp) =>
  t.db
    .selectFrom('auth_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()

/** What a browser sends from a page of another site, and what a page cannot show to be its own. */
const foreign: Array<[string, Record<string, string>]> = [
  ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  [
    'Sec-Fetch-Site: cross-site, whatever the Origin says',
    { 'sec-fetch-site': 'cross-site', origin: ORIGIN },
  ],
  ['an Origin of another site', { origin: 'https://evil.example' }],
  [
    'an Origin of another site, as a browser without Sec-Fetch-* sends it',
    { origin: 'http://localhost.evil.example' },
  ],
  ['an Origin of another port on this host', { origin: 'http://localhost:8080' }],
  ['the opaque Origin "null" (a sandboxed frame, a data: page)', { origin: 'null' }],
  ['an Origin that is no origin', { origin: 'not a url' }],
  [
    'Sec-Fetch-Site: same-site with another Origin',
    { 'sec-fetch-site': 'same-site', origin: 'http://desk.localhost' },
  ],
  ['Sec-Fetch-Site: same-site with no Origin to check', { 'sec-fetch-site': 'same-site' }],
]

describe('POST /api/get-token/ from another site', () => {
  const t = useSeededApp()
  beforeEach(async () => {
    await makeUser(t.db, { email: EMAIL, password: PASSWORD })
  })

  for (const [name, headers] of foreign) {
    test(`${name}: 403, no token even with the right password, no failure counted`, async () => {
      const tokensBefore = (await tokensStored(t)).n
      for (const password of [PASSWORD, 'wrong']) {
        const res = await logInWith(t, headers, password)
        expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: crossSiteRefused })
      }
      expect((await tokensStored(t)).n).toBe(tokensBefore)
      expect(t.deps.loginThrottle.retryAfterSeconds(EMAIL)).toBe(0)
    })
  }

  test('the refusal comes before the body is checked', async () => {
    const res = await t.request('POST', '/api/get-token/', {
      body: {},
      headers: { origin: 'https://evil.example' },
    })
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: crossSiteRefused })
  })

  test('eleven hidden form posts from another site leave the throttles untouched: the manager logs in', async () => {
    for (let i = 0; i < 11; i++) {
      const res = await logInWith(
        t,
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        `guess ${i}`,
        '192.0.2.10',
      )
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: crossSiteRefused })
    }
    expect(t.deps.loginThrottle.retryAfterSeconds(EMAIL)).toBe(0)
    expect(t.deps.addressThrottle.retryAfterSeconds('192.0.2.10')).toBe(0)
    const res = await logInWith(
      t,
      { origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
      PASSWORD,
      '192.0.2.10',
    )
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ token: expect.stringMatching(/^[0-9a-f]{40}$/) })
  })
})

describe('POST /api/get-token/ from the box’s own page, or from no browser', () => {
  const t = useSeededApp()
  beforeEach(async () => {
    await makeUser(t.db, { email: EMAIL, password: PASSWORD })
  })

  const own: Array<[string, Record<string, string>]> = [
    ['no Origin and no Sec-Fetch-* (curl, an integration)', {}],
    [
      'the desk page: its own Origin, Sec-Fetch-Site: same-origin',
      { origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
    ],
    ['its own Origin from a browser without Sec-Fetch-*', { origin: ORIGIN }],
    ['Sec-Fetch-Site: same-site with its own Origin', { origin: ORIGIN, 'sec-fetch-site': 'same-site' }],
    ['Sec-Fetch-Site: none (the user typed it)', { 'sec-fetch-site': 'none' }],
    ['its own host over HTTPS (a proxy that ends TLS in front of it)', { origin: 'https://localhost' }],
  ]
  for (const [name, headers] of own) {
    test(`${name}: logs in; a wrong password is checked as ever`, async () => {
      const res = await logInWith(t, headers, PASSWORD)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ token: expect.stringMatching(/^[0-9a-f]{40}$/) })
      const wrong = await logInWith(t, headers, 'wrong')
      expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 400, body: badCredentials })
    })
  }

  test('a JSON login with the same-origin headers works too', async () => {
    const res = await t.request('POST', '/api/get-token/', {
      body: { username: EMAIL, password: PASSWORD },
      headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
    })
    expect(res.status).toBe(200)
  })
})

describe('POST /api/get-token/ behind a configured public URL', () => {
  const t = useSeededApp({ publicUrl: 'https://desk.gym.example' })
  beforeEach(async () => {
    await makeUser(t.db, { email: EMAIL, password: PASSWORD })
  })

  test('the public URL’s origin is the box’s own; another is not', async () => {
    const desk = await logInWith(
      t,
      { origin: 'https://desk.gym.example', 'sec-fetch-site': 'same-origin' },
      PASSWORD,
    )
    expect(desk.status).toBe(200)
    const other = await logInWith(
      t,
      { origin: 'https://gym.example', 'sec-fetch-site': 'same-site' },
      PASSWORD,
    )
    expect({ status: other.status, body: other.body }).toEqual({ status: 403, body: crossSiteRefused })
  })
})
