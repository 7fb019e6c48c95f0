import { beforeEach, describe, expect, test } from 'bun:test'
import { ADDRESS_MAX_FAILURES } from '../../../src/core/auth/login-throttle.ts'
import type { StaffUser } from '../../../src/db/schema.ts'
import type { TestResponse } from '../../helpers/app.ts'
import { badCredentials, forbidden, notFound } from '../../helpers/bodies.ts'
import { makeUser } from '../../helpers/factories.ts'
import { expectUnauthenticated, useSeededApp } from '../../helpers/seeded.ts'

/**
 * What keeps a flood of logins from starving the door: verifications pass a gate one at a time with
 * a short queue, failures are throttled per client address as well as per username, and an admin
 * can clear a username's throttle.
 */

const PASSWORD = 'correct horse battery'

const t = useSeededApp()
let owner: StaffUser

beforeEach(async () => {
  owner = await makeUser(t.db, { email: 'owner@gym.example', password: PASSWORD })
})

const logInFrom = (clientAddress: string, username: string, password: string) =>
  t.request('POST', '/api/get-token/', { body: { username, password }, clientAddress })

const randomUsername = () => `${crypto.randomUUID()}@nowhere.example`

function expectThrottled(res: TestResponse, seconds: number) {
  expect(res.status).toBe(429)
  expect(res.body).toEqual({
    detail: `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  })
  expect(res.headers.get('retry-after')).toBe(String(seconds))
}

describe('the login gate: one verification at a time, a short queue, 429 past it', () => {
  test('of logins arriving together, those past the running one and the queue are 429 at once, with Retry-After', async () => {
    const { maxRunning, maxWaiting } = t.deps.loginGate
    const admitted = maxRunning + maxWaiting
    const extra = 3
    const answers = await Promise.all(
      Array.from({ length: admitted + extra }, (_, i) =>
        logInFrom(`10.0.0.${i + 1}`, randomUsername(), 'wrong'),
      ),
    )
    const refused = answers.filter((res) => res.status === 429)
    const answered = answers.filter((res) => res.status !== 429)
    expect(refused).toHaveLength(extra)
    for (const res of refused) expectThrottled(res, 1)
    expect(answered).toHaveLength(admitted)
    for (const res of answered) {
      expect(res.status).toBe(400)
      expect(res.body).toEqual(badCredentials)
    }
  }, 30_000)

  test('a login refused by a full queue is not a failure: the queue drained, the right password works', async () => {
    const { maxRunning, maxWaiting } = t.deps.loginGate
    const answers = await Promise.all([
      ...Array.from({ length: maxRunning + maxWaiting }, () =>
        logInFrom('10.0.0.1', randomUsername(), 'wrong'),
      ),
      logInFrom('10.0.0.1', 'owner@gym.example', 'wrong too'),
    ])
    expectThrottled(answers.at(-1)!, 1)
    expect(t.deps.loginThrottle.retryAfterSeconds('owner@gym.example')).toBe(0)
    const res = await logInFrom('10.0.0.1', 'owner@gym.example', PASSWORD)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ token: expect.stringMatching(/^[0-9a-f]{40}$/) })
  }, 30_000)
})

describe('failures are throttled per client address, whatever the username', () => {
  test(`${ADDRESS_MAX_FAILURES} failures with random usernames from one address throttle that address for 15 minutes`, async () => {
    // All but the last recorded straight into the throttle (each through the endpoint costs a verification).
    for (let i = 1; i < ADDRESS_MAX_FAILURES; i++) t.deps.addressThrottle.recordFailure('192.0.2.7')
    const last = await logInFrom('192.0.2.7', randomUsername(), 'guess')
    expect(last.status).toBe(400)
    expect(last.body).toEqual(badCredentials)
    expectThrottled(await logInFrom('192.0.2.7', randomUsername(), 'guess'), 900)
    // Even the right password for a real user: the address is what is throttled.
    expectThrottled(await logInFrom('192.0.2.7', 'owner@gym.example', PASSWORD), 900)
  })

  test('another address is not throttled, and logs in', async () => {
    for (let i = 0; i < ADDRESS_MAX_FAILURES; i++) t.deps.addressThrottle.recordFailure('192.0.2.7')
    expectThrottled(await logInFrom('192.0.2.7', randomUsername(), 'guess'), 900)
    const wrong = await logInFrom('192.0.2.8', randomUsername(), 'guess')
    expect(wrong.status).toBe(400)
    expect(wrong.body).toEqual(badCredentials)
    const right = await logInFrom('192.0.2.8', 'owner@gym.example', PASSWORD)
    expect(right.status).toBe(200)
  })

  test(`${ADDRESS_MAX_FAILURES - 1} failures leave the address open`, async () => {
    for (let i = 1; i < ADDRESS_MAX_FAILURES; i++) t.deps.addressThrottle.recordFailure('192.0.2.7')
    expect((await logInFrom('192.0.2.7', 'owner@gym.example', PASSWORD)).status).toBe(200)
  })

  test('the address throttle lifts when its window ends', async () => {
    for (let i = 0; i < ADDRESS_MAX_FAILURES; i++) t.deps.addressThrottle.recordFailure('192.0.2.7')
    t.clock.advance(15 * 60_000)
    expect((await logInFrom('192.0.2.7', 'owner@gym.example', PASSWORD)).status).toBe(200)
  })
})

describe("POST /api/users/<id>/unlock/: an admin clears a username's login throttle", () => {
  const unlock = (id: number, token?: string) =>
    t.request('POST', `/api/users/${id}/unlock/`, { token, body: {} })
  /** Ten failures for the owner's email, from someone else's address. */
  const lockOut = () => {
    for (let i = 0; i < 10; i++) t.deps.loginThrottle.recordFailure('owner@gym.example')
  }

  test('without a token: 401', async () => {
    expectUnauthenticated(await unlock(owner.id))
  })

  test('a staff user who is not an admin: 403, and the username stays throttled', async () => {
    lockOut()
    const res = await unlock(owner.id, t.seed.staffToken)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(forbidden)
    expectThrottled(await logInFrom('192.0.2.9', 'owner@gym.example', PASSWORD), 900)
  })

  test('an unknown user: 404', async () => {
    const res = await unlock(999_999, t.seed.adminToken)
    expect(res.status).toBe(404)
    expect(res.body).toEqual(notFound)
  })

  test('an admin unlocks: 200 with the staff user, and the owner logs in at once', async () => {
    lockOut()
    expectThrottled(await logInFrom('192.0.2.9', 'owner@gym.example', PASSWORD), 900)
    const res = await unlock(owner.id, t.seed.adminToken)
    expect(res.status).toBe(200)
    const read = await t.request('GET', `/api/users/${owner.id}/`, { token: t.seed.adminToken })
    expect(res.body).toEqual(read.body)
    expect(res.body).toMatchObject({ id: owner.id, email: 'owner@gym.example', has_password: true })
    const login = await logInFrom('192.0.2.9', 'owner@gym.example', PASSWORD)
    expect(login.status).toBe(200)
    expect(login.body).toEqual({ token: expect.stringMatching(/^[0-9a-f]{40}$/) })
  })

  test('unlocking clears only that username', async () => {
    lockOut()
    for (let i = 0; i < 10; i++) t.deps.loginThrottle.recordFailure('desk@gym.example')
    expect((await unlock(owner.id, t.seed.adminToken)).status).toBe(200)
    expect(t.deps.loginThrottle.retryAfterSeconds('owner@gym.example')).toBe(0)
    expect(t.deps.loginThrottle.retryAfterSeconds('desk@gym.example')).toBe(900)
  })
})
