import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'bun:test'
import { makeTestApp, type TestApp, type TestAppOptions, type TestResponse } from './app.ts'
import { notProvided } from './bodies.ts'
import { seedBasics, type Seed } from './factories.ts'

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
 * A 401 as contract.md section 2 gives it: the body ("not provided" unless another is passed, such
 * as `invalidToken`) and the `WWW-Authenticate: Token` header.
 */
export function expectUnauthenticated(res: TestResponse, body: unknown = notProvided) {
  expect(res.status).toBe(401)
  expect(res.body).toEqual(body)
  expect(res.headers.get('www-authenticate')).toBe('Token')
}
