import { describe, expect, test } from 'bun:test'
import { hashSecret } from '../../../src/core/auth/passwords.ts'
import { invalidToken, methodNotAllowed } from '../../helpers/bodies.ts'
import { makeUser } from '../../helpers/factories.ts'
import { expectUnauthenticated, useSeededApp } from '../../helpers/seeded.ts'
import { logInSession, withSession } from '../../helpers/sessions.ts'

/*
 * GET /api/users/pin-holders/: whom the desk's PIN prompt offers, for a shared desk account in PIN
 * mode, which is not an admin and so cannot list /api/users/.
 */

const t = useSeededApp()
const PATH = '/api/users/pin-holders/'
const PASSWORD = 'correct horse battery'

const withPin = async (user: { id: number }, pin: string) =>
  t.db
    .updateTable('staff_users')
    .set({ pin_hash: await hashSecret(pin) })
    .where('id', '=', user.id)
    .execute()

describe('pin-holders/', () => {
  test('401 without credentials or with an unknown token', async () => {
    expectUnauthenticated(await t.request('GET', PATH))
    expectUnauthenticated(await t.request('GET', PATH, { token: 'nope' }), invalidToken)
  })

  test('the active staff with a PIN, by name (the email when nameless); not the inactive nor those without one', async () => {
    const zoe = await makeUser(t.db, { email: 'zoe@gym.example', first_name: 'Zoe', last_name: 'Adams' })
    const ana = await makeUser(t.db, { email: 'ana@gym.example', first_name: 'ana', last_name: 'Lopez' })
    const nameless = await makeUser(t.db, { email: 'bea@gym.example' })
    const gone = await makeUser(t.db, { email: 'gone@gym.example', first_name: 'Al', is_active: 0 })
    await makeUser(t.db, { email: 'nopin@gym.example', first_name: 'Aaron', last_name: 'Nopin' })
    for (const user of [zoe, ana, nameless, gone]) await withPin(user, '2468')

    const res = await t.request('GET', PATH, { token: t.seed.staffToken })
    expect([res.status, res.body]).toEqual([
      200,
      [
        { id: ana.id, name: 'ana Lopez', email: 'ana@gym.example' },
        { id: nameless.id, name: 'bea@gym.example', email: 'bea@gym.example' },
        { id: zoe.id, name: 'Zoe Adams', email: 'zoe@gym.example' },
      ],
    ])
  })

  test('nobody with a PIN is an empty list', async () => {
    const res = await t.request('GET', PATH, { token: t.seed.adminToken })
    expect([res.status, res.body]).toEqual([200, []])
  })

  test('a shared desk account in PIN mode, not an admin, reads it on its session without a PIN', async () => {
    await makeUser(t.db, { email: 'counter@gym.example', password: PASSWORD, pin_mode_required: 1 })
    const ana = await makeUser(t.db, { email: 'ana@gym.example', first_name: 'Ana', last_name: 'Lopez' })
    await withPin(ana, '4321')
    const session = await logInSession(t, 'counter@gym.example', PASSWORD)
    expect((await withSession(t, session, 'GET', '/api/users/')).status).toBe(403)
    const res = await withSession(t, session, 'GET', PATH)
    expect([res.status, res.body]).toEqual([
      200,
      [{ id: ana.id, name: 'Ana Lopez', email: 'ana@gym.example' }],
    ])
  })

  test('it offers GET only', async () => {
    const res = await t.request('POST', PATH, { token: t.seed.adminToken, body: {} })
    expect([res.status, res.body]).toEqual([405, methodNotAllowed('POST')])
  })
})
