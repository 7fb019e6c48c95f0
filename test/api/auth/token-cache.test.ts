import { describe, expect, test } from 'bun:test'
import { forbidden, invalidToken } from '../../helpers/bodies.ts'
import { makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import { START } from '../../helpers/app.ts'
import { hashTokenKey } from '../../../src/lib/secrets.ts'
import { expectUnauthenticated, logIn, unknownToken, useSeededApp } from '../../helpers/seeded.ts'

/**
 * Token authentication answered from deps.tokenCache (core/auth/token-cache.ts): a cached answer never
 * outlives a change made through the API, nor a token's expiry, and a change made behind the
 * process's back (another process on the same file) is seen once the entry's age cap has passed.
 */

const t = useSeededApp()

const PASSWORD = 'crimpers-123'
const AGE_CAP_MS = 5_000

const myAccount = (token: string) => t.request('GET', '/api/my-account/', { token })
/** A read that needs can_manage_members. */
const checkIns = (token: string) => t.request('GET', '/api/check-ins/', { token })
const asAdmin = (method: string, path: string, body?: unknown) =>
  t.request(method, path, { token: t.seed.adminToken, body })

describe('changes made through the API apply from the next request', () => {
  test('deactivating a user refuses the token they just used, on the very next request', async () => {
    expect((await myAccount(t.seed.staffToken)).status).toBe(200)
    expect(t.deps.tokenCache.size).toBeGreaterThan(0)
    const res = await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, { is_active: false })
    expect(res.status).toBe(200)
    expectUnauthenticated(await myAccount(t.seed.staffToken), invalidToken)
  })

  test('reactivating lets the same token in again at once', async () => {
    await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, { is_active: false })
    expectUnauthenticated(await myAccount(t.seed.staffToken), invalidToken)
    await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, { is_active: true })
    expect((await myAccount(t.seed.staffToken)).status).toBe(200)
  })

  test('granting and then taking away a permission applies from the next request', async () => {
    const before = await checkIns(t.seed.staffToken)
    expect({ status: before.status, body: before.body }).toEqual({ status: 403, body: forbidden })
    await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, { can_manage_members: true })
    expect((await checkIns(t.seed.staffToken)).status).toBe(200)
    await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, { can_manage_members: false })
    const after = await checkIns(t.seed.staffToken)
    expect({ status: after.status, body: after.body }).toEqual({ status: 403, body: forbidden })
  })

  test("an admin's own rights taken away by another admin apply from the next request", async () => {
    const other = await makeUser(t.db, { email: 'boss@gym.example', is_organization_admin: 1 })
    const otherToken = await makeToken(t.db, other)
    expect((await t.request('GET', '/api/users/', { token: otherToken })).status).toBe(200)
    const demoted = await asAdmin('PATCH', `/api/users/${other.id}/`, { is_organization_admin: false })
    expect(demoted.status).toBe(200)
    // Listing users is open to any staff; creating one is for admins.
    const create = await t.request('POST', '/api/users/', {
      token: otherToken,
      body: { email: 'x@gym.example', default_gym_id: t.seed.gym.id },
    })
    expect({ status: create.status, body: create.body }).toEqual({ status: 403, body: forbidden })
  })

  test('a password changed twice in a row: the second change checks against the first one', async () => {
    // The user the request carries (its password hash) comes from the cache: it must be the new one.
    const user = await makeUser(t.db, { email: 'climber@gym.example', password: PASSWORD })
    const token = await makeToken(t.db, user)
    const change = (old_password: string, new_password: string) =>
      t.request('PATCH', '/api/change-password/', { token, body: { old_password, new_password } })
    expect((await change(PASSWORD, 'second-pass-2')).status).toBe(200)
    expect((await change('second-pass-2', 'third-pass-3')).status).toBe(200)
    expect((await logIn(t, 'climber@gym.example', 'third-pass-3')).status).toBe(200)
  })

  test('a default gym changed on my-account is the one the next request carries', async () => {
    const gym = await makeGym(t.db, { name: 'Boulder Barn Uptown' })
    expect((await myAccount(t.seed.staffToken)).status).toBe(200)
    await t.request('PATCH', '/api/my-account/', {
      token: t.seed.staffToken,
      body: { default_gym_id: gym.id },
    })
    // Read the user the next request is authenticated as, straight from the cache's answer.
    expect((await myAccount(t.seed.staffToken)).status).toBe(200)
    const cached = t.deps.tokenCache.lookUp(hashTokenKey(t.seed.staffToken), t.clock.now().getTime())
    expect(cached?.default_gym_id).toBe(gym.id)
  })
})

describe('tokens never cached wrongly', () => {
  test('an unknown key is not remembered: once the token exists it works at once', async () => {
    const key = 'c'.repeat(40)
    expectUnauthenticated(await myAccount(key), invalidToken)
    await t.db
      .insertInto('auth_tokens')
      .values({ key_hash: hashTokenKey(key), user_id: t.seed.staff.id, created_at: START, expires_at: null })
      .execute()
    expect((await myAccount(key)).status).toBe(200)
  })

  test('a flood of unknown tokens does not grow the cache', async () => {
    for (let i = 0; i < 50; i++)
      expectUnauthenticated(await myAccount(i.toString(16).padStart(40, '0')), invalidToken)
    expectUnauthenticated(await myAccount(unknownToken), invalidToken)
    expect(t.deps.tokenCache.size).toBe(0)
  })

  test("an inactive user's token is never remembered", async () => {
    const former = await makeUser(t.db, { is_active: 0 })
    expectUnauthenticated(await myAccount(await makeToken(t.db, former)), invalidToken)
    expect(t.deps.tokenCache.size).toBe(0)
  })

  test('a cached token is refused from the moment it expires', async () => {
    // Expiring two seconds from now: well inside the entry's age cap, so the cached entry decides.
    const expiresAt = new Date(Date.parse(START) + 2_000).toISOString()
    const key = await makeToken(t.db, t.seed.staff, expiresAt)
    expect((await myAccount(key)).status).toBe(200)
    t.clock.advance(1_999)
    expect((await myAccount(key)).status).toBe(200)
    t.clock.advance(1)
    expectUnauthenticated(await myAccount(key), invalidToken)
  })
})

describe("a change behind the process's back (another process on the same file)", () => {
  test('is seen once the entry is older than the age cap', async () => {
    expect((await myAccount(t.seed.staffToken)).status).toBe(200)
    await t.db.updateTable('staff_users').set({ is_active: 0 }).where('id', '=', t.seed.staff.id).execute()
    // Within the cap the cached answer stands: this is the window the cap bounds.
    t.clock.advance(AGE_CAP_MS - 1)
    expect((await myAccount(t.seed.staffToken)).status).toBe(200)
    t.clock.advance(1)
    expectUnauthenticated(await myAccount(t.seed.staffToken), invalidToken)
  })

  test('a permission granted directly in the database applies after the cap', async () => {
    expect((await checkIns(t.seed.staffToken)).status).toBe(403)
    await t.db
      .updateTable('staff_users')
      .set({ can_manage_members: 1 })
      .where('id', '=', t.seed.staff.id)
      .execute()
    t.clock.advance(AGE_CAP_MS)
    expect((await checkIns(t.seed.staffToken)).status).toBe(200)
  })

  test('a token deleted directly in the database stops working after the cap', async () => {
    expect((await myAccount(t.seed.staffToken)).status).toBe(200)
    await t.db.deleteFrom('auth_tokens').where('key_hash', '=', hashTokenKey(t.seed.staffToken)).execute()
    t.clock.advance(AGE_CAP_MS)
    expectUnauthenticated(await myAccount(t.seed.staffToken), invalidToken)
  })
})
