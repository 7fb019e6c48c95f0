import { describe, expect, test } from 'bun:test'
import { badCredentials, invalidToken, notProvided } from '../../helpers/bodies.ts'
import { makeUser } from '../../helpers/factories.ts'
import { LoginGate } from '../../../src/core/auth/login-gate.ts'
import { expectUnauthenticated, logIn, useSeededApp } from '../../helpers/seeded.ts'

/**
 * Tokens end: POST /api/logout/ revokes the presented one, and a password change revokes every
 * other token of its user. (An admin revoking all of a user's tokens: users.test.ts.) Each test uses
 * the tokens just before, so the token cache holds them: a revoked token must not keep working.
 */

const t = useSeededApp()

const EMAIL = 'climber@gym.example'
const PASSWORD = 'crimpers-123'
const NEW_PASSWORD = 'slopers-4567'

const myAccount = (token: string) => t.request('GET', '/api/my-account/', { token })

/** A user with a password and `n` tokens, each got through get-token and used once. */
async function userWithTokens(n: number): Promise<string[]> {
  await makeUser(t.db, { email: EMAIL, password: PASSWORD })
  const tokens: string[] = []
  for (let i = 0; i < n; i++) {
    const res = await logIn(t, EMAIL, PASSWORD)
    expect(res.status).toBe(200)
    tokens.push(res.body.token)
    expect((await myAccount(res.body.token)).status).toBe(200)
  }
  return tokens
}

describe('POST /api/logout/', () => {
  test('204 with no body; the presented token is refused from the next request', async () => {
    const [token] = await userWithTokens(1)
    const res = await t.request('POST', '/api/logout/', { token: token! })
    expect(res.status).toBe(204)
    expect(res.body).toBe('')
    expectUnauthenticated(await myAccount(token!), invalidToken)
  })

  test("only the presented token: the same user's other token still works", async () => {
    const [phone, desk] = await userWithTokens(2)
    expect((await t.request('POST', '/api/logout/', { token: phone! })).status).toBe(204)
    expectUnauthenticated(await myAccount(phone!), invalidToken)
    expect((await myAccount(desk!)).status).toBe(200)
    expect((await myAccount(t.seed.staffToken)).status).toBe(200)
  })

  test('an empty JSON object as the body is accepted too', async () => {
    const [token] = await userWithTokens(1)
    const res = await t.request('POST', '/api/logout/', { token: token!, body: {} })
    expect({ status: res.status, body: res.body }).toEqual({ status: 204, body: '' })
    expectUnauthenticated(await myAccount(token!), invalidToken)
  })

  test('a second logout with the same token is 401 Invalid token', async () => {
    const [token] = await userWithTokens(1)
    await t.request('POST', '/api/logout/', { token: token! })
    expectUnauthenticated(await t.request('POST', '/api/logout/', { token: token! }), invalidToken)
  })

  test('without a token is 401 "not provided"', async () => {
    expectUnauthenticated(await t.request('POST', '/api/logout/'), notProvided)
  })

  test('with an unknown token is 401 Invalid token', async () => {
    expectUnauthenticated(await t.request('POST', '/api/logout/', { token: 'f'.repeat(40) }), invalidToken)
  })

  test('the path without the final slash works the same', async () => {
    const [token] = await userWithTokens(1)
    expect((await t.request('POST', '/api/logout', { token: token! })).status).toBe(204)
    expectUnauthenticated(await myAccount(token!), invalidToken)
  })

  test('logging in again after logout gives a working token', async () => {
    const [token] = await userWithTokens(1)
    await t.request('POST', '/api/logout/', { token: token! })
    const again = await logIn(t, EMAIL, PASSWORD)
    expect((await myAccount(again.body.token)).status).toBe(200)
  })
})

describe('a password change revokes every other token of the user', () => {
  test('PATCH /api/change-password/: the token used keeps working, the others are refused', async () => {
    const [used, other, third] = await userWithTokens(3)
    const before = await myAccount(used!)
    const res = await t.request('PATCH', '/api/change-password/', {
      token: used!,
      body: { old_password: PASSWORD, new_password: NEW_PASSWORD },
    })
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: before.body })
    expect((await myAccount(used!)).status).toBe(200)
    expectUnauthenticated(await myAccount(other!), invalidToken)
    expectUnauthenticated(await myAccount(third!), invalidToken)
    // Another user's token is untouched.
    expect((await myAccount(t.seed.staffToken)).status).toBe(200)
  })

  test('PATCH /api/my-account/ with new_password: the same', async () => {
    const [used, other] = await userWithTokens(2)
    const before = await myAccount(used!)
    const res = await t.request('PATCH', '/api/my-account/', {
      token: used!,
      body: { previous_password: PASSWORD, new_password: NEW_PASSWORD },
    })
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: before.body })
    expect((await myAccount(used!)).status).toBe(200)
    expectUnauthenticated(await myAccount(other!), invalidToken)
    expect((await logIn(t, EMAIL, NEW_PASSWORD)).status).toBe(200)
  })

  test('PUT /api/my-account/ with new_password: the same', async () => {
    const [used, other] = await userWithTokens(2)
    const before = await myAccount(used!)
    const res = await t.request('PUT', '/api/my-account/', {
      token: used!,
      body: {
        default_gym_id: t.seed.gym.id,
        first_name: 'Ada',
        previous_password: PASSWORD,
        new_password: NEW_PASSWORD,
      },
    })
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: { ...before.body, first_name: 'Ada', last_name: '' },
    })
    expect((await myAccount(used!)).status).toBe(200)
    expectUnauthenticated(await myAccount(other!), invalidToken)
  })

  test('a my-account change without new_password revokes nothing', async () => {
    const [used, other] = await userWithTokens(2)
    const res = await t.request('PATCH', '/api/my-account/', { token: used!, body: { first_name: 'Ada' } })
    expect(res.status).toBe(200)
    expect((await myAccount(other!)).status).toBe(200)
  })

  test('a refused password change (wrong old password) revokes nothing', async () => {
    const [used, other] = await userWithTokens(2)
    const res = await t.request('PATCH', '/api/change-password/', {
      token: used!,
      body: { old_password: 'not-the-one', new_password: NEW_PASSWORD },
    })
    expect(res.status).toBe(400)
    expect((await myAccount(other!)).status).toBe(200)
  })
})

describe('a login racing a password change', () => {
  /**
   * Holds every login between its password check and its token, until `release()`: a login's check
   * takes a tenth of a second or more off the server's thread, and the password may change meanwhile.
   */
  function holdLoginsAfterTheirCheck() {
    const gate = t.deps.loginGate
    const run = gate.run
    let checked!: () => void
    let release!: () => void
    const passwordChecked = new Promise<void>((resolve) => (checked = resolve))
    const released = new Promise<void>((resolve) => (release = resolve))
    gate.run = async function <T>(work: () => Promise<T>) {
      const result = await run.call(gate, work)
      checked()
      await released
      return result
    } as LoginGate['run']
    return { passwordChecked, release, restore: () => (gate.run = run) }
  }

  test('a login whose password was checked just before the change gets no token', async () => {
    const [desk] = await userWithTokens(1)
    const hold = holdLoginsAfterTheirCheck()
    try {
      const login = logIn(t, EMAIL, PASSWORD)
      await hold.passwordChecked
      const change = await t.request('PATCH', '/api/change-password/', {
        token: desk!,
        body: { old_password: PASSWORD, new_password: NEW_PASSWORD },
      })
      expect(change.status).toBe(200)
      hold.release()
      const res = await login
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: badCredentials })
    } finally {
      hold.restore()
    }
    expect((await logIn(t, EMAIL, NEW_PASSWORD)).status).toBe(200)
  })

  test('nor does one whose user an admin deactivated meanwhile', async () => {
    await userWithTokens(1)
    const user = await t.db
      .selectFrom('staff_users')
      .select('id')
      .where('email', '=', EMAIL)
      .executeTakeFirstOrThrow()
    const hold = holdLoginsAfterTheirCheck()
    try {
      const login = logIn(t, EMAIL, PASSWORD)
      await hold.passwordChecked
      const res = await t.request('PATCH', `/api/users/${user.id}/`, {
        token: t.seed.adminToken,
        body: { is_active: false },
      })
      expect(res.status).toBe(200)
      hold.release()
      expect((await login).body).toEqual(badCredentials)
    } finally {
      hold.restore()
    }
  })

  test('a login checked and issued before the change loses its token to the revocation', async () => {
    const [desk] = await userWithTokens(1)
    const login = await logIn(t, EMAIL, PASSWORD)
    expect(login.status).toBe(200)
    await t.request('PATCH', '/api/change-password/', {
      token: desk!,
      body: { old_password: PASSWORD, new_password: NEW_PASSWORD },
    })
    expectUnauthenticated(await myAccount(login.body.token), invalidToken)
  })
})
