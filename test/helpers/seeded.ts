import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'bun:test'
import type { Db } from '../../src/db/connection.ts'
import type { StaffUser } from '../../src/db/schema.ts'
import { makeTestApp, type TestApp, type TestAppOptions, type TestResponse } from './app.ts'
import { forbidden, invalidToken, methodNotAllowed, notFound, notProvided } from './bodies.ts'
import { everyCanFlag, makeToken, makeUser, seedBasics, type Seed } from './factories.ts'

/*
 * The setup and checks the endpoint test files share. A file (or a describe block) starts with
 *
 *   const t = useSeededApp()
 *
 * which registers the hooks and returns one object, refilled before each test with a fresh app and
 * its seed: `t.request(...)`, `t.db`, `t.clock`, `t.seed.adminToken`. Read it inside tests, hooks and
 * the helpers they call, never while tests are being declared (it is empty then). Hooks the caller
 * registers after this call run after the app is made and seeded.
 */

export interface UseAppOptions extends TestAppOptions {
  /**
   * One app for the whole file or block (beforeAll/afterAll) instead of a fresh one per test: for
   * tests that share their data, such as a long list set up once.
   */
  once?: boolean
}

export type SeededApp = TestApp & { seed: Seed }

/** A test app, migrated but empty, for each test (or once); closed after. */
export function useTestApp(options: UseAppOptions = {}): TestApp {
  const { once = false, ...appOptions } = options
  const t = {} as TestApp
  ;(once ? beforeAll : beforeEach)(async () => {
    Object.assign(t, await makeTestApp(appOptions))
  })
  ;(once ? afterAll : afterEach)(() => t.close())
  return t
}

/** A test app with `seedBasics` in it (organization, gym, an admin and a desk user with tokens). */
export function useSeededApp(options: UseAppOptions = {}): SeededApp {
  const t = useTestApp(options) as SeededApp
  ;(options.once ? beforeAll : beforeEach)(async () => {
    t.seed = await seedBasics(t.db)
  })
  return t
}

/** POST /api/get-token/ with a JSON body. */
export const logIn = (t: TestApp, username: string, password: string) =>
  t.request('POST', '/api/get-token/', { body: { username, password } })

/**
 * A 401 as DRF gives it: the body ("not provided" unless another is passed, such
 * as `invalidToken`) and the `WWW-Authenticate: Token` header.
 */
export function expectUnauthenticated(res: TestResponse, body: unknown = notProvided) {
  expect(res.status).toBe(401)
  expect(res.body).toEqual(body)
  expect(res.headers.get('www-authenticate')).toBe('Token')
}

// Staff users by role, for the permission tests.

/** The flags of each role the permission tests use; none is an organization admin. */
export const ROLES = {
  /** can_manage_members only: writes customers and their records, memberships, entry passes. */
  members: { can_manage_members: 1 },
  /** can_manage_events only: writes events and reservations. */
  events: { can_manage_events: 1 },
  /** Every can_* flag but can_manage_members. */
  allButMembers: { ...everyCanFlag, can_manage_members: 0 },
  /** Every can_* flag: product types are still admin-only. */
  allButAdmin: everyCanFlag,
} as const

export type Role = keyof typeof ROLES
export type StaffWithToken = StaffUser & { token: string }

/** A new staff user of `role`, with a token. */
export async function makeStaff(db: Db, role: Role): Promise<StaffWithToken> {
  const user = await makeUser(db, ROLES[role])
  return { ...user, token: await makeToken(db, user) }
}

/**
 * A new staff user of each role, made in the order given before each test (after the app and its
 * seed): `staff.members.token`, `staff.members.id`. Read it inside tests only.
 */
export function useStaff<R extends Role>(t: SeededApp, ...roles: R[]): Record<R, StaffWithToken> {
  const staff = {} as Record<R, StaffWithToken>
  beforeEach(async () => {
    for (const role of roles) staff[role] = await makeStaff(t.db, role)
  })
  return staff
}

// Checks that many endpoint files make the same way.

/** A token of the right shape that no user has. */
export const unknownToken = '0'.repeat(40)

/** A route: method and path. */
export type Route = readonly [method: string, path: string]
/** A request: method, path and a JSON body, sent with any method but GET (none if left out). */
export type Call = readonly [method: string, path: string, body?: unknown]

const bodyOf = (method: string, body: unknown) => (method === 'GET' || body === undefined ? {} : { body })

/**
 * One test per route: without a token, and with an unknown one, it is 401.
 * `body` goes with every method but GET.
 */
export function testEachNeedsToken(t: TestApp, routes: readonly Route[], body: unknown = {}) {
  for (const [method, path] of routes) {
    test(`${method} ${path} without a token, or with an unknown one, is 401`, async () => {
      expectUnauthenticated(await t.request(method, path, bodyOf(method, body)))
      const res = await t.request(method, path, { token: unknownToken, ...bodyOf(method, body) })
      expectUnauthenticated(res, invalidToken)
    })
  }
}

/**
 * Two tests per route, each after `setUp`: without a token it is 401, and with an unknown one 401
 * "Invalid token". `body` goes with every method but GET.
 */
export function testEachNeedsTokenApart(
  t: TestApp,
  routes: readonly Route[],
  { body = {}, setUp }: { body?: unknown; setUp?: () => Promise<unknown> } = {},
) {
  for (const [method, path] of routes) {
    test(`${method} ${path} without a token is 401`, async () => {
      await setUp?.()
      expectUnauthenticated(await t.request(method, path, bodyOf(method, body)))
    })

    test(`${method} ${path} with an unknown token is 401 Invalid token`, async () => {
      await setUp?.()
      const res = await t.request(method, path, { token: unknownToken, ...bodyOf(method, body) })
      expectUnauthenticated(res, invalidToken)
    })
  }
}

/** Status and whole body at once, with `label` (the method, the path...) so a failing case names itself. */
export function expectAnswer(
  label: Record<string, unknown>,
  res: TestResponse,
  status: number,
  body: unknown,
) {
  expect({ ...label, status: res.status, body: res.body }).toEqual({ ...label, status, body })
}

/** Each call, sent with `token`, answers `status` and the whole `body` (for 405s, of the method). */
export async function expectEachAnswer(
  t: TestApp,
  token: string,
  calls: readonly Call[],
  status: number,
  body: unknown,
) {
  for (const [method, path, sent] of calls) {
    const res = await t.request(method, path, { token, ...bodyOf(method, sent) })
    expectAnswer({ method, path }, res, status, typeof body === 'function' ? body(method) : body)
  }
}

/** Each token is refused each call: 403 "You do not have permission". */
export async function expectEachForbidden(t: TestApp, tokens: readonly string[], calls: readonly Call[]) {
  for (const token of tokens) await expectEachAnswer(t, token, calls, 403, forbidden)
}

/** Each call is 404 "Not found." */
export const expectEachNotFound = (t: TestApp, token: string, calls: readonly Call[]) =>
  expectEachAnswer(t, token, calls, 404, notFound)

/** Each call is 405 'Method "<method>" not allowed.' */
export const expectEachNotAllowed = (t: TestApp, token: string, calls: readonly Call[]) =>
  expectEachAnswer(t, token, calls, 405, methodNotAllowed)

type Lazy<T> = T | (() => T)
const resolve = <T>(value: Lazy<T>): T => (typeof value === 'function' ? (value as () => T)() : value)

/**
 * A POST the API refuses: its name, what it sends over the base body, and the whole 400 body.
 * Either may be a function, for values known only once the test runs.
 */
export type RefusedPost = readonly [
  name: string,
  changes: Lazy<Record<string, unknown>>,
  errors: Lazy<unknown>,
]

/**
 * One test per case: POST of `base()` with the case's changes is 400 with exactly its errors
 *, and `count()` (the collection's rows) stays 0.
 */
export function testEachRefusedPost(
  cases: readonly RefusedPost[],
  options: {
    post: (body: unknown) => Promise<TestResponse>
    count: () => Promise<number>
    base?: () => Record<string, unknown>
  },
) {
  const { post, count, base = () => ({}) } = options
  for (const [name, changes, errors] of cases) {
    test(`POST with ${name} is 400 and creates nothing`, async () => {
      const res = await post({ ...base(), ...resolve(changes) })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(resolve(errors))
      expect(await count()).toBe(0)
    })
  }
}

/** `ids(query)`: the ids of the results a staff user lists at `path?query`, in order. */
export const listIds =
  (t: SeededApp, path: string) =>
  async (query = '') =>
    (await t.request('GET', `${path}?${query}`, { token: t.seed.staffToken })).body.results.map(
      (r: { id: unknown }) => r.id,
    )

/**
 * The 403, 404 and 405 of a collection any staff user reads and only organization admins write,
 * whose records are retired rather than deleted (invoices and products name them): staff without
 * admin, even with every can_* flag, cannot write (the record and the count unchanged); unknown ids
 * are 404; DELETE is 405.
 */
export function testAdminWrittenNeverDeleted(
  t: SeededApp,
  spec: {
    path: string
    /** Why DELETE is refused, for the test's name: "retire a discount instead". */
    instead: string
    /** A staff user with every can_* flag but not an admin (useStaff's `allButAdmin`). */
    allButAdmin: () => StaffWithToken
    make: () => Promise<{ id: number }>
    /** The record `make` makes, as served. */
    body: (id: number) => unknown
    valid: () => unknown
    count: () => Promise<number>
  },
) {
  const { path } = spec
  test('staff users without admin, even with every can_* flag, cannot write', async () => {
    const record = await spec.make()
    await expectEachForbidden(
      t,
      [t.seed.staffToken, spec.allButAdmin().token],
      [
        ['POST', path, spec.valid()],
        ['PUT', `${path}${record.id}/`, spec.valid()],
        ['PATCH', `${path}${record.id}/`, spec.valid()],
      ],
    )
    const read = await t.request('GET', `${path}${record.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(spec.body(record.id))
    expect(await spec.count()).toBe(1)
  })

  test(`unknown ids are 404; DELETE is 405 (${spec.instead})`, async () => {
    const calls = ['GET', 'PUT', 'PATCH'].map((method) => [method, `${path}999/`, spec.valid()] as const)
    await expectEachNotFound(t, t.seed.adminToken, calls)
    const record = await spec.make()
    await expectEachNotAllowed(t, t.seed.adminToken, [['DELETE', `${path}${record.id}/`]])
    expect(await spec.count()).toBe(1)
  })
}
