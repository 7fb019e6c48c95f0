import { existsSync } from 'node:fs'
import { chromium, type Browser, type Page } from 'playwright-core'
import { getToken, request, startServer, type Server } from '../e2e/helpers.ts'
import { everyCanFlag } from '../helpers/factories.ts'

/** Debian's Chromium: the tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium'

/**
 * Chromium headless through playwright-core (over a pipe, which works under bun test), in a fresh
 * temporary profile that playwright removes on close, with nothing that reaches the internet.
 * Fails, rather than skips, without Chromium.
 */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: the front desk's browser tests need Debian's chromium package (apt-get install -y --no-install-recommends chromium)`,
    )
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // A camera that draws a test pattern, allowed without asking: the desk's photo capture.
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  })
}

/** The built executable on a free port, a Chromium beside it, and the admin's token to set things up. */
export interface DeskUnderTest {
  server: Server
  browser: Browser
  token: string
  /** One request as the admin, failing loudly on anything but the status expected. */
  api(method: string, path: string, json: unknown, status: number): Promise<any>
  /** A new staff user with only the permissions `granted`, logged in: their token. */
  staffToken(email: string, password: string, granted: StaffPermission[]): Promise<string>
}

/** What a staff user may be allowed, each off unless granted: every can_* flag, and admin. */
export type StaffPermission = keyof typeof everyCanFlag | 'is_organization_admin'

const STAFF_PERMISSIONS: StaffPermission[] = [
  ...(Object.keys(everyCanFlag) as (keyof typeof everyCanFlag)[]),
  'is_organization_admin',
]

/**
 * Starts the built executable for a new organization in America/Denver whose first admin and gym
 * are `admin`'s, and Chromium at the same time. Given a `db` that already holds an organization
 * (a seeded demo), it serves that one instead, and `admin` must be one of its staff. `args` go to
 * `serve` (a hub: `['--hub', url, '--site', name]`).
 */
export async function startDesk(
  admin: { email: string; password: string; gym: string },
  options: { db?: string; args?: string[] } = {},
): Promise<DeskUnderTest> {
  const [server, browser] = await Promise.all([
    startServer({
      db: options.db,
      args: options.args,
      env: {
        BELAY_ADMIN_EMAIL: admin.email,
        BELAY_ADMIN_PASSWORD: admin.password,
        BELAY_GYM_NAME: admin.gym,
        BELAY_TIME_ZONE: 'America/Denver',
      },
    }),
    launchChromium(),
  ])
  const token = await getToken(server.base, admin.email, admin.password)
  remember(token, admin.email, admin.password)
  const api = async (method: string, path: string, json: unknown, status: number) => {
    const res = await request(server.base, method, path, { token, json })
    if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`)
    return res.body
  }
  const staffToken = async (email: string, password: string, granted: StaffPermission[]) => {
    const permissions = Object.fromEntries(STAFF_PERMISSIONS.map((p) => [p, granted.includes(p)]))
    await api(
      'POST',
      '/api/users/',
      { email, password, default_gym_id: 1, is_active: true, ...permissions },
      201,
    )
    const staff = await getToken(server.base, email, password)
    remember(staff, email, password)
    return staff
  }
  return { server, browser, token, api, staffToken }
}

/** A tab of its own: a fresh context, so nothing one test stored reaches another. */
export async function newTab(browser: Browser): Promise<Page> {
  const context = await browser.newContext()
  context.setDefaultTimeout(10_000)
  return context.newPage()
}

/**
 * Who each token the tests were given belongs to: a tab logs in as that user with a session of its
 * own (the page holds no token), so the tests keep naming users by their token.
 */
const credentialsOf = new Map<string, { email: string; password: string }>()
const remember = (token: string, email: string, password: string) =>
  credentialsOf.set(token, { email, password })

/**
 * A session of the user holding `token`, logged in from outside the page: the two cookies as
 * POST /api/login/ set them, for the tab's context.
 */
export async function sessionCookiesFor(base: string, token: string) {
  const who = credentialsOf.get(token)
  if (!who) throw new Error('openLoggedIn: a token from startDesk or staffToken is needed')
  const res = await fetch(`${base}/api/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: who.email, password: who.password }),
  })
  if (res.status !== 200)
    throw new Error(`login for ${who.email} answered ${res.status}: ${await res.text()}`)
  return res.headers.getSetCookie().map((cookie) => {
    const [pair, ...attributes] = cookie.split('; ')
    const eq = pair!.indexOf('=')
    return {
      name: pair!.slice(0, eq),
      value: pair!.slice(eq + 1),
      url: `${base}/`,
      httpOnly: attributes.includes('HttpOnly'),
      sameSite: 'Lax' as const,
    }
  })
}

/**
 * The desk as a tab that logged in earlier finds it: a session of the user holding `token` in the
 * tab's cookies, the gym remembered. For the tests that are not about logging in at the page.
 * `beforePage` runs in the tab before the page's own script (given as text, as it runs in the
 * browser: the tests are type-checked without the DOM's types); `fakeClock` gives the tab a clock
 * the test moves on (it flows as the real one otherwise).
 */
export async function openLoggedIn(
  desk: { browser: Browser; server: { base: string } },
  token: string,
  options: { gymId?: number; beforePage?: string; fakeClock?: boolean } = {},
): Promise<Page> {
  const page = await newTab(desk.browser)
  await page.context().addCookies(await sessionCookiesFor(desk.server.base, token))
  if (options.fakeClock) await page.clock.install()
  if (options.beforePage) await page.addInitScript({ content: options.beforePage })
  await page.addInitScript(
    ({ gym }) => {
      localStorage.setItem('belay.gym', String(gym))
    },
    { gym: options.gymId ?? 1 },
  )
  await page.goto(`${desk.server.base}/`)
  return page
}
