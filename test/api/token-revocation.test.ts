import { describe, expect, test } from 'bun:test'
import { invalidToken, notProvided } from '../helpers/bodies.ts'
import { makeUser } from '../helpers/factories.ts'
import { expectUnauthenticated, logIn, useSeededApp } from '../helpers/seeded.ts'

/**
 * Tokens end: POST /api/logout/ revokes the presented one. Each test uses the tokens just before,
 * so the token cache holds them: a revoked token must not keep working.
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
