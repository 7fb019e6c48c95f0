import { describe, expect, test } from 'bun:test'
import { START } from '../../helpers/app.ts'
import {
  notProvided,
  invalidToken,
  methodNotAllowed,
  badCredentials,
  required,
  blank,
  notNull,
  invalidInteger,
  maxLength,
  doesNotExist,
  passwordTooShort,
} from '../../helpers/bodies.ts'
import { everyCanFlag, makeGym, makeToken, makeUser, storedUser } from '../../helpers/factories.ts'
import { expectUnauthenticated, logIn, useSeededApp } from '../../helpers/seeded.ts'

/**
 * /api/my-account/ and /api/change-password/: the signed-in user's own account, open to any active
 * staff user. Order: 401 -> 400 -> 405 -> success.
 */

const t = useSeededApp()

const INCORRECT = ['Your old password was entered incorrectly. Please enter it again.']

const OLD_PASSWORD = 'old-password-1'
const NEW_PASSWORD = 'new-password-2'

/** The whole documented account body, for the seeded desk user unless overridden. */
function accountBody(fields: Record<string, unknown> = {}) {
  return {
    email: 'desk@gym.example',
    first_name: '',
    last_name: '',
    organization_name: 'Boulder Barn',
    default_gym_id: t.seed.gym.id,
    default_gym_name: 'Boulder Barn Downtown',
    default_gym_url: `http://localhost/api/gyms/${t.seed.gym.id}/`,
    date_joined: START,
    can_manage_events: false,
    can_manage_members: false,
    can_manage_customer_proficiencies: false,
    can_export_customers: false,
    can_access_reports: false,
    can_manage_climbs: false,
    is_organization_admin: false,
    pin_mode_required: false,
    pin_mode: false,
    kiosk: false,
    ...fields,
  }
}

const asStaff = (method: string, path: string, body?: unknown) =>
  t.request(method, path, { token: t.seed.staffToken, body })

/** A staff user who has a password (argon2: only where a password matters). */
async function userWithPassword() {
  const user = await makeUser(t.db, {
    email: 'climber@gym.example',
    first_name: 'Chris',
    last_name: 'Sharma',
    password: OLD_PASSWORD,
  })
  const token = await makeToken(t.db, user)
  const body = accountBody({ email: 'climber@gym.example', first_name: 'Chris', last_name: 'Sharma' })
  return { user, token, body }
}

/** Only the new password logs in (or, with `changed` false, only the old one). */
async function expectPassword(email: string, changed: boolean) {
  const withNew = await logIn(t, email, NEW_PASSWORD)
  const withOld = await logIn(t, email, OLD_PASSWORD)
  const [works, fails] = changed ? [withNew, withOld] : [withOld, withNew]
  expect(works.status).toBe(200)
  expect(works.body.token).toMatch(/^[0-9a-f]{40}$/)
  expect(fails.status).toBe(400)
  expect(fails.body).toEqual(badCredentials)
}

describe('authentication (401)', () => {
  const calls: Array<[string, string, unknown?]> = [
    ['GET', '/api/my-account/'],
    ['PUT', '/api/my-account/', { default_gym_id: 1 }],
    ['PATCH', '/api/my-account/', { first_name: 'X' }],
    ['PATCH', '/api/change-password/', { old_password: 'a', new_password: 'b' }],
  ]

  for (const [method, path, body] of calls) {
    test(`${method} ${path} without a token is 401 "not provided" with WWW-Authenticate: Token`, async () => {
      const res = await t.request(method, path, { body })
      expectUnauthenticated(res)
    })

    test(`${method} ${path} with an unknown token is 401 "Invalid token."`, async () => {
      const res = await t.request(method, path, { token: '0'.repeat(40), body })
      expectUnauthenticated(res, invalidToken)
    })
  }

  test("an inactive user's token is 401 Invalid token", async () => {
    const gone = await makeUser(t.db, { email: 'gone@gym.example', is_active: 0 })
    const res = await t.request('GET', '/api/my-account/', { token: await makeToken(t.db, gone) })
    expectUnauthenticated(res, invalidToken)
  })

  test('an invalid body without a token is 401, not 400', async () => {
    for (const path of ['/api/my-account/', '/api/change-password/']) {
      const res = await t.request('PATCH', path, { body: { default_gym_id: 'abc', new_password: '' } })
      expect(res.status).toBe(401)
      expect(res.body).toEqual(notProvided)
    }
  })
})

describe('PUT/PATCH /api/my-account/ validation (400)', () => {
  test('PUT requires default_gym_id', async () => {
    const res = await asStaff('PUT', '/api/my-account/', { first_name: 'Front' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ default_gym_id: required })
  })

  test('an unknown gym, through PUT and PATCH', async () => {
    for (const method of ['PUT', 'PATCH']) {
      const res = await asStaff(method, '/api/my-account/', { default_gym_id: 999 })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ default_gym_id: doesNotExist(999) })
    }
  })

  test('a non-integer default_gym_id', async () => {
    const res = await asStaff('PATCH', '/api/my-account/', { default_gym_id: 'abc' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ default_gym_id: invalidInteger })
  })

  test('a null or too long first_name', async () => {
    const nulled = await asStaff('PATCH', '/api/my-account/', { first_name: null })
    expect(nulled.status).toBe(400)
    expect(nulled.body).toEqual({ first_name: notNull })
    const long = await asStaff('PATCH', '/api/my-account/', { last_name: 'x'.repeat(151) })
    expect(long.status).toBe(400)
    expect(long.body).toEqual({ last_name: maxLength(150) })
  })

  test('new_password without previous_password', async () => {
    const { token } = await userWithPassword()
    const res = await t.request('PATCH', '/api/my-account/', {
      token,
      body: { new_password: NEW_PASSWORD },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ previous_password: required })
  })

  test('a wrong previous_password', async () => {
    const { token } = await userWithPassword()
    const res = await t.request('PATCH', '/api/my-account/', {
      token,
      body: { previous_password: 'not-my-password', new_password: NEW_PASSWORD },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ previous_password: INCORRECT })
  })

  test('a user who has no password yet cannot match any previous_password', async () => {
    const res = await asStaff('PATCH', '/api/my-account/', {
      previous_password: 'anything-1',
      new_password: NEW_PASSWORD,
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ previous_password: INCORRECT })
  })

  test('a blank new_password', async () => {
    const { token } = await userWithPassword()
    const res = await t.request('PATCH', '/api/my-account/', {
      token,
      body: { previous_password: OLD_PASSWORD, new_password: '' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ new_password: blank })
  })

  test('a too-short new_password', async () => {
    const { token } = await userWithPassword()
    const res = await t.request('PATCH', '/api/my-account/', {
      token,
      body: { previous_password: OLD_PASSWORD, new_password: 'short12' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ new_password: passwordTooShort })
  })

  test('a refused write changes nothing, the password included', async () => {
    const { user, token, body } = await userWithPassword()
    const before = await storedUser(t.db, user.id)
    const uptown = await makeGym(t.db, { name: 'Boulder Barn Uptown' })
    const refused = [
      await t.request('PATCH', '/api/my-account/', {
        token,
        body: { first_name: 'Changed', default_gym_id: 999 },
      }),
      await t.request('PATCH', '/api/my-account/', {
        token,
        body: { first_name: 'Changed', previous_password: 'wrong-password', new_password: NEW_PASSWORD },
      }),
      await t.request('PUT', '/api/my-account/', {
        token,
        body: {
          first_name: 'Changed',
          default_gym_id: uptown.id,
          previous_password: OLD_PASSWORD,
          new_password: 'short',
        },
      }),
    ]
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400])
    expect(await storedUser(t.db, user.id)).toEqual(before)
    const read = await t.request('GET', '/api/my-account/', { token })
    expect(read.body).toEqual(body)
    await expectPassword('climber@gym.example', false)
  })
})

describe('/api/my-account/ methods (405)', () => {
  for (const method of ['POST', 'DELETE']) {
    test(`${method} is 405`, async () => {
      const res = await asStaff(method, '/api/my-account/', method === 'POST' ? {} : undefined)
      expect(res.status).toBe(405)
      expect(res.body).toEqual(methodNotAllowed(method))
    })
  }

  test('GET /api/change-password/ is 405', async () => {
    const res = await asStaff('GET', '/api/change-password/')
    expect(res.status).toBe(405)
    expect(res.body).toEqual(methodNotAllowed('GET'))
  })
})

describe('GET /api/my-account/', () => {
  test('the whole documented record for a staff user with no permissions', async () => {
    const res = await asStaff('GET', '/api/my-account/')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(accountBody())
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'email',
        'first_name',
        'last_name',
        'organization_name',
        'default_gym_id',
        'default_gym_name',
        'default_gym_url',
        'date_joined',
        'can_manage_events',
        'can_manage_members',
        'can_manage_customer_proficiencies',
        'can_export_customers',
        'can_access_reports',
        'can_manage_climbs',
        'is_organization_admin',
        'pin_mode_required',
        'pin_mode',
        'kiosk',
      ].sort(),
    )
  })

  test("each flag of the signed-in user, and no one else's record", async () => {
    const uptown = await makeGym(t.db, { name: 'Boulder Barn Uptown' })
    const lead = await makeUser(t.db, {
      email: 'lead@gym.example',
      first_name: 'Lead',
      last_name: 'Setter',
      default_gym_id: uptown.id,
      ...everyCanFlag,
      pin_mode_required: 1,
    })
    const res = await t.request('GET', '/api/my-account/', { token: await makeToken(t.db, lead) })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      accountBody({
        email: 'lead@gym.example',
        first_name: 'Lead',
        last_name: 'Setter',
        default_gym_id: uptown.id,
        default_gym_name: 'Boulder Barn Uptown',
        default_gym_url: `http://localhost/api/gyms/${uptown.id}/`,
        can_manage_events: true,
        can_manage_members: true,
        can_manage_customer_proficiencies: true,
        can_export_customers: true,
        can_access_reports: true,
        can_manage_climbs: true,
        pin_mode_required: true,
      }),
    )
  })

  test('an admin sees is_organization_admin true', async () => {
    const res = await t.request('GET', '/api/my-account/', { token: t.seed.adminToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(accountBody({ email: 'admin@gym.example', is_organization_admin: true }))
  })

  test('without the final slash', async () => {
    const res = await asStaff('GET', '/api/my-account')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(accountBody())
  })
})

describe('PUT/PATCH /api/my-account/', () => {
  test('PATCH first_name: 200 with the whole account, and it reads back', async () => {
    const res = await asStaff('PATCH', '/api/my-account/', { first_name: 'Front' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(accountBody({ first_name: 'Front' }))
    expect((await asStaff('GET', '/api/my-account/')).body).toEqual(accountBody({ first_name: 'Front' }))
  })

  test('not-editable fields sent along are ignored silently', async () => {
    const before = await storedUser(t.db, t.seed.staff.id)
    const res = await asStaff('PATCH', '/api/my-account/', {
      last_name: 'Desk',
      email: 'boss@gym.example',
      is_organization_admin: true,
      can_manage_members: true,
      can_access_reports: true,
      pin_mode_required: true,
      organization_name: 'Mine Now',
      date_joined: '2000-01-01T00:00:00.000Z',
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(accountBody({ last_name: 'Desk' }))
    expect(await storedUser(t.db, t.seed.staff.id)).toEqual({ ...before, last_name: 'Desk' })
    const users = await asStaff('GET', '/api/users/')
    expect(users.status).toBe(403)
  })

  test('a PATCH of only not-editable fields is 200 and changes nothing', async () => {
    const before = await storedUser(t.db, t.seed.staff.id)
    const res = await asStaff('PATCH', '/api/my-account/', {
      email: 'boss@gym.example',
      is_organization_admin: true,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(accountBody())
    expect(await storedUser(t.db, t.seed.staff.id)).toEqual(before)
  })

  test('an empty PATCH is 200 with the account', async () => {
    const res = await asStaff('PATCH', '/api/my-account/', {})
    expect(res.status).toBe(200)
    expect(res.body).toEqual(accountBody())
  })

  test('PUT replaces the editable fields, the default gym included', async () => {
    const uptown = await makeGym(t.db, { name: 'Boulder Barn Uptown' })
    const res = await asStaff('PUT', '/api/my-account/', {
      first_name: 'Desk',
      last_name: 'Person',
      default_gym_id: uptown.id,
    })
    const expected = accountBody({
      first_name: 'Desk',
      last_name: 'Person',
      default_gym_id: uptown.id,
      default_gym_name: 'Boulder Barn Uptown',
      default_gym_url: `http://localhost/api/gyms/${uptown.id}/`,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(expected)
    expect((await asStaff('GET', '/api/my-account/')).body).toEqual(expected)
  })

  test('PUT with only default_gym_id keeps the names', async () => {
    await asStaff('PATCH', '/api/my-account/', { first_name: 'Front', last_name: 'Desk' })
    const res = await asStaff('PUT', '/api/my-account/', { default_gym_id: t.seed.gym.id })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(accountBody({ first_name: 'Front', last_name: 'Desk' }))
  })

  test('an admin may edit their own account here too', async () => {
    const res = await t.request('PATCH', '/api/my-account/', {
      token: t.seed.adminToken,
      body: { first_name: 'Boss', is_organization_admin: false },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      accountBody({ email: 'admin@gym.example', first_name: 'Boss', is_organization_admin: true }),
    )
  })

  test('PATCH with previous_password and new_password changes the password; no password fields echoed', async () => {
    const { token, body } = await userWithPassword()
    const res = await t.request('PATCH', '/api/my-account/', {
      token,
      body: { previous_password: OLD_PASSWORD, new_password: NEW_PASSWORD },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(body)
    await expectPassword('climber@gym.example', true)
  })

  test('PUT changes the password along with the other fields', async () => {
    const { token, body } = await userWithPassword()
    const res = await t.request('PUT', '/api/my-account/', {
      token,
      body: {
        first_name: 'Christopher',
        default_gym_id: t.seed.gym.id,
        previous_password: OLD_PASSWORD,
        new_password: NEW_PASSWORD,
      },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...body, first_name: 'Christopher' })
    await expectPassword('climber@gym.example', true)
  })
})

describe('PATCH /api/change-password/', () => {
  test('a missing old password', async () => {
    const { token } = await userWithPassword()
    const res = await t.request('PATCH', '/api/change-password/', {
      token,
      body: { new_password: NEW_PASSWORD },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ old_password: required })
  })

  test('a wrong old password', async () => {
    const { token } = await userWithPassword()
    const res = await t.request('PATCH', '/api/change-password/', {
      token,
      body: { old_password: 'not-my-password', new_password: NEW_PASSWORD },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ old_password: INCORRECT })
  })

  test('a missing, blank or too-short new password', async () => {
    const { token } = await userWithPassword()
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ old_password: OLD_PASSWORD }, { new_password: required }],
      [{ old_password: OLD_PASSWORD, new_password: '' }, { new_password: blank }],
      [{ old_password: OLD_PASSWORD, new_password: '1234567' }, { new_password: passwordTooShort }],
    ]
    for (const [body, errors] of cases) {
      const res = await t.request('PATCH', '/api/change-password/', { token, body })
      expect({ body, status: res.status, errors: res.body }).toEqual({ body, status: 400, errors })
    }
    await expectPassword('climber@gym.example', false)
  })

  test('a user with no password yet cannot pass any old password', async () => {
    const res = await asStaff('PATCH', '/api/change-password/', {
      old_password: 'anything-1',
      new_password: NEW_PASSWORD,
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ old_password: INCORRECT })
  })

  test('success: 200 with the account record; only the new password logs in', async () => {
    const { token, body } = await userWithPassword()
    const res = await t.request('PATCH', '/api/change-password/', {
      token,
      body: { old_password: OLD_PASSWORD, new_password: NEW_PASSWORD },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(body)
    await expectPassword('climber@gym.example', true)
  })

  test('previous_password is accepted as the old password', async () => {
    const { token, body } = await userWithPassword()
    const res = await t.request('PATCH', '/api/change-password/', {
      token,
      body: { previous_password: OLD_PASSWORD, new_password: NEW_PASSWORD },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(body)
    await expectPassword('climber@gym.example', true)
  })

  test('only the password changes: other fields sent are ignored', async () => {
    const { user, token, body } = await userWithPassword()
    const before = await storedUser(t.db, user.id)
    const res = await t.request('PATCH', '/api/change-password/', {
      token,
      body: {
        old_password: OLD_PASSWORD,
        new_password: NEW_PASSWORD,
        first_name: 'Changed',
        email: 'x@y.example',
      },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(body)
    const after = await storedUser(t.db, user.id)
    expect({ ...after, password_hash: null }).toEqual({ ...before, password_hash: null })
    expect(after.password_hash).not.toBe(before.password_hash)
  })
})
