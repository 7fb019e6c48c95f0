import { beforeEach, describe, expect, test } from 'bun:test'
import { START } from '../../helpers/app.ts'
import {
  notProvided,
  invalidToken,
  forbidden,
  notFound,
  methodNotAllowed,
  invalidPage,
  badCredentials,
  required,
  notNull,
  invalidEmail,
  invalidInteger,
  invalidBoolean,
  maxLength,
  doesNotExist,
  cannotChange,
  passwordTooShort,
  notANumber,
  emptyPage,
  onePage,
} from '../../helpers/bodies.ts'
import { everyCanFlag, makeGym, makeToken, makeUser, storedUser } from '../../helpers/factories.ts'
import { expectUnauthenticated, logIn, useSeededApp } from '../../helpers/seeded.ts'

/**
 * /api/users/: staff accounts, organization admins only. Order: 401 -> 400 -> 403 -> 404/405 -> success.
 */

const t = useSeededApp()

/** A whole staff-user body as the API documents it: defaults for a plain user, then overrides. */
function userBody(id: number, fields: Record<string, unknown>) {
  return {
    id,
    url: `http://localhost/api/users/${id}/`,
    email: '',
    first_name: '',
    last_name: '',
    default_gym_id: t.seed.gym.id,
    default_gym_name: 'Boulder Barn Downtown',
    default_gym_url: `http://localhost/api/gyms/${t.seed.gym.id}/`,
    date_joined: START,
    is_active: true,
    can_manage_events: false,
    can_manage_members: false,
    can_manage_customer_proficiencies: false,
    can_export_customers: false,
    can_access_reports: false,
    can_manage_climbs: false,
    is_organization_admin: false,
    pin_mode_required: false,
    has_password: false,
    has_pin: false,
    ...fields,
  }
}

const adminBody = () => userBody(t.seed.admin.id, { email: 'admin@gym.example', is_organization_admin: true })
const staffBody = () => userBody(t.seed.staff.id, { email: 'desk@gym.example' })

/** The fields POST requires, all valid. */
function createPayload(fields: Record<string, unknown> = {}) {
  return {
    email: 'new@gym.example',
    default_gym_id: t.seed.gym.id,
    is_active: true,
    can_manage_events: false,
    can_manage_members: false,
    can_manage_customer_proficiencies: false,
    can_export_customers: false,
    can_access_reports: false,
    is_organization_admin: false,
    ...fields,
  }
}

/** The fields PUT requires (email may be left out). */
function replacePayload(fields: Record<string, unknown> = {}) {
  const { email: _, ...rest } = createPayload()
  return { ...rest, ...fields }
}

const asAdmin = (method: string, path: string, body?: unknown) =>
  t.request(method, path, { token: t.seed.adminToken, body })

describe('/api/users/ authentication (401)', () => {
  const calls: Array<[string, (ids: { staff: number }) => string, unknown?]> = [
    ['GET', () => '/api/users/', undefined],
    ['GET', ({ staff }) => `/api/users/${staff}/`, undefined],
    ['POST', () => '/api/users/', {}],
    ['PUT', ({ staff }) => `/api/users/${staff}/`, {}],
    ['PATCH', ({ staff }) => `/api/users/${staff}/`, {}],
  ]

  for (const [method, path, body] of calls) {
    test(`${method} without a token is 401 "not provided" with WWW-Authenticate: Token`, async () => {
      const res = await t.request(method, path({ staff: t.seed.staff.id }), { body })
      expectUnauthenticated(res)
    })

    test(`${method} with an unknown token is 401 "Invalid token."`, async () => {
      const res = await t.request(method, path({ staff: t.seed.staff.id }), { token: 'f'.repeat(40), body })
      expectUnauthenticated(res, invalidToken)
    })
  }

  test('a malformed Authorization header counts as no credentials', async () => {
    const res = await t.request('GET', '/api/users/', {
      headers: { authorization: `Bearer ${t.seed.adminToken}` },
    })
    expectUnauthenticated(res)
  })

  test('the word "Token" is matched case-insensitively', async () => {
    const res = await t.request('GET', `/api/users/${t.seed.admin.id}/`, {
      headers: { authorization: `token ${t.seed.adminToken}` },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(adminBody())
  })

  test("an inactive admin's token is 401 Invalid token", async () => {
    const former = await makeUser(t.db, {
      email: 'former@gym.example',
      is_organization_admin: 1,
      is_active: 0,
    })
    const res = await t.request('GET', '/api/users/', { token: await makeToken(t.db, former) })
    expectUnauthenticated(res, invalidToken)
  })

  test('an invalid body without a token is still 401, not 400', async () => {
    const res = await t.request('POST', '/api/users/', { body: { email: 'nope' } })
    expect(res.status).toBe(401)
    expect(res.body).toEqual(notProvided)
  })
})

describe('POST /api/users/ validation (400)', () => {
  test('an empty body reports every required field at once', async () => {
    const res = await asAdmin('POST', '/api/users/', {})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      email: required,
      default_gym_id: required,
      is_active: required,
      can_manage_events: required,
      can_manage_members: required,
      can_manage_customer_proficiencies: required,
      can_export_customers: required,
      can_access_reports: required,
      is_organization_admin: required,
    })
  })

  test('a missing flag is reported alone when everything else is valid', async () => {
    const { can_access_reports: _, ...payload } = createPayload()
    const res = await asAdmin('POST', '/api/users/', payload)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ can_access_reports: required })
  })

  test('an invalid email', async () => {
    const res = await asAdmin('POST', '/api/users/', createPayload({ email: 'not-an-email' }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ email: invalidEmail })
  })

  test('a duplicate email, in any case', async () => {
    for (const email of ['desk@gym.example', 'DESK@Gym.Example']) {
      const res = await asAdmin('POST', '/api/users/', createPayload({ email }))
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ email: ['staff user with this email already exists.'] })
    }
  })

  test('an unknown default_gym_id', async () => {
    const res = await asAdmin('POST', '/api/users/', createPayload({ default_gym_id: 999 }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ default_gym_id: doesNotExist(999) })
  })

  test('a non-integer default_gym_id', async () => {
    const res = await asAdmin('POST', '/api/users/', createPayload({ default_gym_id: 'abc' }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ default_gym_id: invalidInteger })
  })

  test('a flag that is not a boolean', async () => {
    const res = await asAdmin('POST', '/api/users/', createPayload({ can_manage_events: 'maybe' }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ can_manage_events: invalidBoolean })
  })

  test('a null flag', async () => {
    const res = await asAdmin('POST', '/api/users/', createPayload({ is_active: null }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ is_active: notNull })
  })

  test('a password shorter than 8 characters', async () => {
    const res = await asAdmin('POST', '/api/users/', createPayload({ password: 'short12' }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ password: passwordTooShort })
  })

  for (const pin of ['123', '123456789', '12a4', '']) {
    test(`a pin of ${JSON.stringify(pin)} is not 4 to 8 digits`, async () => {
      const res = await asAdmin('POST', '/api/users/', createPayload({ pin }))
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ pin: ['Enter a PIN of 4 to 8 digits.'] })
    })
  }

  test('a first_name over 150 characters', async () => {
    const res = await asAdmin('POST', '/api/users/', createPayload({ first_name: 'x'.repeat(151) }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ first_name: maxLength(150) })
  })

  test('every failing field is reported at once, format and database rules together', async () => {
    const res = await asAdmin(
      'POST',
      '/api/users/',
      createPayload({ email: 'not-an-email', default_gym_id: 999, password: 'short' }),
    )
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      email: invalidEmail,
      default_gym_id: doesNotExist(999),
      password: passwordTooShort,
    })
  })

  test('the database rules are reported together', async () => {
    const res = await asAdmin(
      'POST',
      '/api/users/',
      createPayload({ email: 'desk@gym.example', default_gym_id: 999, password: 'short' }),
    )
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      email: ['staff user with this email already exists.'],
      default_gym_id: doesNotExist(999),
      password: passwordTooShort,
    })
  })

  test('a refused create stores nothing', async () => {
    await asAdmin('POST', '/api/users/', createPayload({ default_gym_id: 999 }))
    await asAdmin('POST', '/api/users/', createPayload({ password: 'short' }))
    const res = await asAdmin('GET', '/api/users/')
    expect(res.body).toEqual(onePage([adminBody(), staffBody()]))
  })
})

describe('PUT/PATCH /api/users/<id>/ validation (400)', () => {
  test('PUT without the required fields reports each of them (email is not required)', async () => {
    const res = await asAdmin('PUT', `/api/users/${t.seed.staff.id}/`, {})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      default_gym_id: required,
      is_active: required,
      can_manage_events: required,
      can_manage_members: required,
      can_manage_customer_proficiencies: required,
      can_export_customers: required,
      can_access_reports: required,
      is_organization_admin: required,
    })
  })

  test('PUT with a different email', async () => {
    const res = await asAdmin(
      'PUT',
      `/api/users/${t.seed.staff.id}/`,
      replacePayload({ email: 'other@gym.example', first_name: 'Changed' }),
    )
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ email: cannotChange })
  })

  test('PATCH with a different email', async () => {
    const res = await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, {
      email: 'other@gym.example',
      first_name: 'Changed',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ email: cannotChange })
  })

  test("PATCH with another user's email is still 'cannot be changed'", async () => {
    const res = await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, { email: 'admin@gym.example' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ email: cannotChange })
  })

  test('PATCH field rules: unknown gym, bad integer, bad boolean, short password, bad pin', async () => {
    const path = `/api/users/${t.seed.staff.id}/`
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ default_gym_id: 999 }, { default_gym_id: doesNotExist(999) }],
      [{ default_gym_id: 'abc' }, { default_gym_id: invalidInteger }],
      [{ can_export_customers: 'maybe' }, { can_export_customers: invalidBoolean }],
      [{ password: '1234567' }, { password: passwordTooShort }],
      [{ pin: '12' }, { pin: ['Enter a PIN of 4 to 8 digits.'] }],
      [{ email: 'not-an-email' }, { email: invalidEmail }],
    ]
    for (const [body, errors] of cases) {
      const res = await asAdmin('PATCH', path, body)
      expect({ body, status: res.status, errors: res.body }).toEqual({ body, status: 400, errors })
    }
  })

  test('an admin cannot deactivate themselves', async () => {
    const res = await asAdmin('PATCH', `/api/users/${t.seed.admin.id}/`, { is_active: false })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ is_active: ['You cannot deactivate your own account.'] })
  })

  test('an admin cannot remove their own admin rights', async () => {
    const res = await asAdmin('PATCH', `/api/users/${t.seed.admin.id}/`, { is_organization_admin: false })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      is_organization_admin: ['You cannot remove your own organization admin rights.'],
    })
  })

  test('both self-protection errors at once, also through PUT', async () => {
    const patch = await asAdmin('PATCH', `/api/users/${t.seed.admin.id}/`, {
      is_active: false,
      is_organization_admin: false,
    })
    const put = await asAdmin(
      'PUT',
      `/api/users/${t.seed.admin.id}/`,
      replacePayload({ is_active: false, is_organization_admin: false }),
    )
    const expected = {
      is_active: ['You cannot deactivate your own account.'],
      is_organization_admin: ['You cannot remove your own organization admin rights.'],
    }
    expect(patch.status).toBe(400)
    expect(patch.body).toEqual(expected)
    expect(put.status).toBe(400)
    expect(put.body).toEqual(expected)
  })

  test('a refused PATCH or PUT changes nothing', async () => {
    const before = await storedUser(t.db, t.seed.staff.id)
    const refused = [
      await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, {
        first_name: 'Changed',
        can_access_reports: true,
        default_gym_id: 999,
      }),
      await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, {
        first_name: 'Changed',
        email: 'other@gym.example',
      }),
      await asAdmin(
        'PUT',
        `/api/users/${t.seed.staff.id}/`,
        replacePayload({ first_name: 'Changed', password: 'short' }),
      ),
    ]
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400])
    expect(await storedUser(t.db, t.seed.staff.id)).toEqual(before)

    const adminBefore = await storedUser(t.db, t.seed.admin.id)
    const self = await asAdmin('PATCH', `/api/users/${t.seed.admin.id}/`, {
      first_name: 'Changed',
      is_active: false,
    })
    expect(self.status).toBe(400)
    expect(await storedUser(t.db, t.seed.admin.id)).toEqual(adminBefore)
    const read = await asAdmin('GET', `/api/users/${t.seed.admin.id}/`)
    expect(read.body).toEqual(adminBody())
  })
})

describe('/api/users/ permissions (403)', () => {
  let everyFlagToken: string

  beforeEach(async () => {
    const powerful = await makeUser(t.db, {
      email: 'powerful@gym.example',
      ...everyCanFlag,
      pin_mode_required: 1,
    })
    everyFlagToken = await makeToken(t.db, powerful)
  })

  const calls: Array<[string, (id: number) => string, unknown?]> = [
    ['GET', () => '/api/users/'],
    ['GET', (id) => `/api/users/${id}/`],
    ['POST', () => '/api/users/', {}],
    ['POST', () => '/api/users/', { email: 'nope' }],
    ['PUT', (id) => `/api/users/${id}/`, {}],
    ['PATCH', (id) => `/api/users/${id}/`, { first_name: 'Changed' }],
    ['PATCH', (id) => `/api/users/${id}/`, { default_gym_id: 'abc' }],
  ]

  for (const [method, path, body] of calls) {
    test(`${method} ${path(0).replace('/0/', '/<id>/')} ${JSON.stringify(body ?? null)} is 403 for staff without admin rights, even with every can_* flag`, async () => {
      for (const token of [t.seed.staffToken, everyFlagToken]) {
        const res = await t.request(method, path(t.seed.staff.id), { token, body })
        expect(res.status).toBe(403)
        expect(res.body).toEqual(forbidden)
      }
    })
  }

  test('a non-admin cannot change their own record either', async () => {
    const res = await t.request('PATCH', `/api/users/${t.seed.staff.id}/`, {
      token: t.seed.staffToken,
      body: { is_organization_admin: true },
    })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(forbidden)
    expect((await storedUser(t.db, t.seed.staff.id)).is_organization_admin).toBe(0)
  })

  test('403 comes before 404: a non-admin asking for an unknown id', async () => {
    for (const method of ['GET', 'PATCH']) {
      const res = await t.request(method, '/api/users/999/', {
        token: everyFlagToken,
        body: method === 'PATCH' ? {} : undefined,
      })
      expect(res.status).toBe(403)
      expect(res.body).toEqual(forbidden)
    }
  })
})

describe('/api/users/ unknown records (404) and methods (405)', () => {
  for (const method of ['GET', 'PUT', 'PATCH']) {
    test(`${method} an unknown id is 404`, async () => {
      const body = method === 'GET' ? undefined : method === 'PUT' ? replacePayload() : { first_name: 'X' }
      const res = await asAdmin(method, '/api/users/999/', body)
      expect(res.status).toBe(404)
      expect(res.body).toEqual(notFound)
    })
  }

  test('a non-numeric id is 404', async () => {
    const res = await asAdmin('GET', '/api/users/abc/')
    expect(res.status).toBe(404)
    expect(res.body).toEqual(notFound)
  })

  test('DELETE a user is 405 and removes nothing', async () => {
    const res = await asAdmin('DELETE', `/api/users/${t.seed.staff.id}/`)
    expect(res.status).toBe(405)
    expect(res.body).toEqual(methodNotAllowed('DELETE'))
    expect((await asAdmin('GET', `/api/users/${t.seed.staff.id}/`)).body).toEqual(staffBody())
  })

  test('DELETE on the collection is 405', async () => {
    const res = await asAdmin('DELETE', '/api/users/')
    expect(res.status).toBe(405)
    expect(res.body).toEqual(methodNotAllowed('DELETE'))
  })

  test('DELETE without a token is 401 (authentication comes before method dispatch, as in DRF)', async () => {
    const res = await t.request('DELETE', `/api/users/${t.seed.staff.id}/`)
    expect(res.status).toBe(401)
    expect(res.body).toEqual(notProvided)
  })
})

describe('GET /api/users/ (list)', () => {
  test('the envelope holds every user, ordered by id, whole', async () => {
    const res = await asAdmin('GET', '/api/users/')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(onePage([adminBody(), staffBody()]))
  })

  test('the path without the final slash is served the same', async () => {
    const res = await asAdmin('GET', '/api/users')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(onePage([adminBody(), staffBody()]))
  })

  test('pages keep the filters in next/previous', async () => {
    const first = await asAdmin('GET', '/api/users/?page_size=1&search=gym')
    expect(first.status).toBe(200)
    expect(first.body).toEqual({
      count: 2,
      next: 'http://localhost/api/users/?page_size=1&search=gym&page=2',
      previous: null,
      results: [adminBody()],
    })
    const second = await asAdmin('GET', '/api/users/?page_size=1&search=gym&page=2')
    expect(second.body).toEqual({
      count: 2,
      next: null,
      previous: 'http://localhost/api/users/?page_size=1&search=gym',
      results: [staffBody()],
    })
    const past = await asAdmin('GET', '/api/users/?page=3&page_size=1')
    expect(past.status).toBe(404)
    expect(past.body).toEqual(invalidPage)
  })

  test('default_gym_id filters exactly', async () => {
    const uptown = await makeGym(t.db, { name: 'Boulder Barn Uptown' })
    const climber = await makeUser(t.db, { email: 'uptown@gym.example', default_gym_id: uptown.id })
    const uptownBody = userBody(climber.id, {
      email: 'uptown@gym.example',
      default_gym_id: uptown.id,
      default_gym_name: 'Boulder Barn Uptown',
      default_gym_url: `http://localhost/api/gyms/${uptown.id}/`,
    })

    const byUptown = await asAdmin('GET', `/api/users/?default_gym_id=${uptown.id}`)
    expect(byUptown.status).toBe(200)
    expect(byUptown.body).toEqual(onePage([uptownBody]))

    const byDowntown = await asAdmin('GET', `/api/users/?default_gym_id=${t.seed.gym.id}`)
    expect(byDowntown.body).toEqual(onePage([adminBody(), staffBody()]))

    const none = await asAdmin('GET', '/api/users/?default_gym_id=999')
    expect(none.body).toEqual(emptyPage)
  })

  test('default_gym_id=abc is 400 "Enter a number."', async () => {
    const res = await asAdmin('GET', '/api/users/?default_gym_id=abc')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ default_gym_id: notANumber })
  })

  test('search: each space-separated term must match email, first or last name, case-insensitively', async () => {
    const ada = await makeUser(t.db, {
      email: 'ada@crag.example',
      first_name: 'Ada',
      last_name: 'Lovelace',
    })
    const alex = await makeUser(t.db, {
      email: 'honnold@crag.example',
      first_name: 'Alex',
      last_name: 'Honnold',
    })
    const adaBody = userBody(ada.id, { email: 'ada@crag.example', first_name: 'Ada', last_name: 'Lovelace' })
    const alexBody = userBody(alex.id, {
      email: 'honnold@crag.example',
      first_name: 'Alex',
      last_name: 'Honnold',
    })
    const list = async (search: string) => {
      const res = await asAdmin('GET', `/api/users/?search=${encodeURIComponent(search)}`)
      expect(res.status).toBe(200)
      return res.body
    }

    expect(await list('LOVE')).toEqual(onePage([adaBody])) // last name
    expect(await list('alex')).toEqual(onePage([alexBody])) // first name
    expect(await list('CRAG.example')).toEqual(onePage([adaBody, alexBody])) // email
    expect(await list('desk')).toEqual(onePage([staffBody()]))
    expect(await list('ada crag')).toEqual(onePage([adaBody])) // both terms match Ada
    expect(await list('  honnold   ALEX ')).toEqual(onePage([alexBody])) // extra spaces
    expect(await list('ada honnold')).toEqual(onePage([])) // no user matches both
    expect(await list('%')).toEqual(onePage([])) // wildcards are literal
    expect(await list('')).toEqual(onePage([adminBody(), staffBody(), adaBody, alexBody]))
  })

  test('unknown query parameters are ignored', async () => {
    const res = await asAdmin('GET', '/api/users/?colour=blue')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(onePage([adminBody(), staffBody()]))
  })
})

describe('GET /api/users/<id>/ (read)', () => {
  test('the whole documented record', async () => {
    const res = await asAdmin('GET', `/api/users/${t.seed.staff.id}/`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(staffBody())
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'id',
        'url',
        'email',
        'first_name',
        'last_name',
        'default_gym_id',
        'default_gym_name',
        'default_gym_url',
        'date_joined',
        'is_active',
        'can_manage_events',
        'can_manage_members',
        'can_manage_customer_proficiencies',
        'can_export_customers',
        'can_access_reports',
        'can_manage_climbs',
        'is_organization_admin',
        'pin_mode_required',
        'has_password',
        'has_pin',
      ].sort(),
    )
  })

  test('an inactive user is still readable', async () => {
    const gone = await makeUser(t.db, { email: 'gone@gym.example', is_active: 0 })
    const res = await asAdmin('GET', `/api/users/${gone.id}/`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(userBody(gone.id, { email: 'gone@gym.example', is_active: false }))
  })

  test('without the final slash', async () => {
    const res = await asAdmin('GET', `/api/users/${t.seed.admin.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(adminBody())
  })
})

describe('POST /api/users/ (create)', () => {
  test('201 with the whole record; optional fields take their defaults', async () => {
    const res = await asAdmin('POST', '/api/users/', createPayload())
    expect(res.status).toBe(201)
    const id = res.body.id
    expect(typeof id).toBe('number')
    expect(res.body).toEqual(userBody(id, { email: 'new@gym.example' }))
    const read = await asAdmin('GET', `/api/users/${id}/`)
    expect(read.body).toEqual(userBody(id, { email: 'new@gym.example' }))
  })

  test('can_manage_climbs, not in the reference, defaults to false and a PUT without it keeps it', async () => {
    const res = await asAdmin('POST', '/api/users/', createPayload({ can_manage_climbs: true }))
    expect(res.status).toBe(201)
    expect(res.body.can_manage_climbs).toBe(true)
    const put = await asAdmin('PUT', `/api/users/${res.body.id}/`, replacePayload({ first_name: 'Setter' }))
    expect(put.status).toBe(200)
    expect(put.body).toEqual(
      userBody(res.body.id, { email: 'new@gym.example', first_name: 'Setter', can_manage_climbs: true }),
    )
  })

  test('every writable field is stored; password and pin are never echoed', async () => {
    const uptown = await makeGym(t.db, { name: 'Boulder Barn Uptown' })
    const res = await asAdmin('POST', '/api/users/', {
      email: 'Lynn.Hill@Gym.Example',
      first_name: 'Lynn',
      last_name: 'Hill',
      default_gym_id: uptown.id,
      is_active: true,
      can_manage_events: true,
      can_manage_members: true,
      can_manage_customer_proficiencies: true,
      can_export_customers: true,
      can_access_reports: true,
      can_manage_climbs: true,
      is_organization_admin: true,
      pin_mode_required: true,
      password: 'the nose 1993',
      pin: '4821',
    })
    expect(res.status).toBe(201)
    const expected = userBody(res.body.id, {
      email: 'Lynn.Hill@Gym.Example',
      first_name: 'Lynn',
      last_name: 'Hill',
      default_gym_id: uptown.id,
      default_gym_name: 'Boulder Barn Uptown',
      default_gym_url: `http://localhost/api/gyms/${uptown.id}/`,
      can_manage_events: true,
      can_manage_members: true,
      can_manage_customer_proficiencies: true,
      can_export_customers: true,
      can_access_reports: true,
      can_manage_climbs: true,
      is_organization_admin: true,
      pin_mode_required: true,
      has_password: true,
      has_pin: true,
    })
    expect(res.body).toEqual(expected)
    expect((await asAdmin('GET', `/api/users/${res.body.id}/`)).body).toEqual(expected)

    const stored = await storedUser(t.db, res.body.id)
    expect(stored.password_hash).not.toBe('the nose 1993')
    expect(stored.pin_hash).not.toBe('4821')
  })

  test('a new user with a password logs in via get-token (email in any case), and the token works', async () => {
    const created = await asAdmin(
      'POST',
      '/api/users/',
      createPayload({ email: 'climber@gym.example', password: 'crimpers-123' }),
    )
    expect(created.status).toBe(201)
    expect(created.body.has_password).toBe(true)

    const login = await logIn(t, 'CLIMBER@gym.example', 'crimpers-123')
    expect(login.status).toBe(200)
    expect(Object.keys(login.body)).toEqual(['token'])
    expect(login.body.token).toMatch(/^[0-9a-f]{40}$/)

    const me = await t.request('GET', '/api/my-account/', { token: login.body.token })
    expect(me.status).toBe(200)
    expect(me.body.email).toBe('climber@gym.example')

    const wrong = await logIn(t, 'climber@gym.example', 'crimpers-124')
    expect(wrong.status).toBe(400)
    expect(wrong.body).toEqual(badCredentials)
  })

  test('a user created without a password cannot log in', async () => {
    await asAdmin('POST', '/api/users/', createPayload({ email: 'nopass@gym.example' }))
    const login = await logIn(t, 'nopass@gym.example', 'anything-at-all')
    expect(login.status).toBe(400)
    expect(login.body).toEqual(badCredentials)
  })

  test('a user created inactive cannot log in', async () => {
    const created = await asAdmin(
      'POST',
      '/api/users/',
      createPayload({ email: 'later@gym.example', is_active: false, password: 'crimpers-123' }),
    )
    expect(created.status).toBe(201)
    expect(created.body).toEqual(
      userBody(created.body.id, { email: 'later@gym.example', is_active: false, has_password: true }),
    )
    const login = await logIn(t, 'later@gym.example', 'crimpers-123')
    expect(login.status).toBe(400)
    expect(login.body).toEqual(badCredentials)
  })

  test('read-only fields sent on create are ignored', async () => {
    const res = await asAdmin(
      'POST',
      '/api/users/',
      createPayload({
        id: 500,
        url: 'http://elsewhere/',
        date_joined: '2000-01-01T00:00:00.000Z',
        has_password: true,
        has_pin: true,
        default_gym_name: 'Fake',
      }),
    )
    expect(res.status).toBe(201)
    expect(res.body.id).not.toBe(500)
    expect(res.body).toEqual(userBody(res.body.id, { email: 'new@gym.example' }))
  })
})

describe('PUT /api/users/<id>/ (replace)', () => {
  test('200 with the whole record, and it reads back', async () => {
    const uptown = await makeGym(t.db, { name: 'Boulder Barn Uptown' })
    const res = await asAdmin(
      'PUT',
      `/api/users/${t.seed.staff.id}/`,
      replacePayload({
        first_name: 'Desk',
        last_name: 'Person',
        default_gym_id: uptown.id,
        can_manage_members: true,
        can_access_reports: true,
        pin_mode_required: true,
      }),
    )
    const expected = userBody(t.seed.staff.id, {
      email: 'desk@gym.example',
      first_name: 'Desk',
      last_name: 'Person',
      default_gym_id: uptown.id,
      default_gym_name: 'Boulder Barn Uptown',
      default_gym_url: `http://localhost/api/gyms/${uptown.id}/`,
      can_manage_members: true,
      can_access_reports: true,
      pin_mode_required: true,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(expected)
    expect((await asAdmin('GET', `/api/users/${t.seed.staff.id}/`)).body).toEqual(expected)
  })

  test('the same email, in another case, is accepted and the email stays as it was', async () => {
    const res = await asAdmin(
      'PUT',
      `/api/users/${t.seed.staff.id}/`,
      replacePayload({ email: 'DESK@GYM.EXAMPLE', can_manage_events: true }),
    )
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      userBody(t.seed.staff.id, { email: 'desk@gym.example', can_manage_events: true }),
    )
  })

  test('an admin may PUT their own record keeping is_active and admin rights', async () => {
    const res = await asAdmin(
      'PUT',
      `/api/users/${t.seed.admin.id}/`,
      replacePayload({ is_organization_admin: true, first_name: 'Boss' }),
    )
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      userBody(t.seed.admin.id, {
        email: 'admin@gym.example',
        is_organization_admin: true,
        first_name: 'Boss',
      }),
    )
  })
})

describe('PATCH /api/users/<id>/ (update)', () => {
  test('changes only the fields sent', async () => {
    const res = await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, {
      last_name: 'Keeper',
      can_export_customers: true,
    })
    const expected = userBody(t.seed.staff.id, {
      email: 'desk@gym.example',
      last_name: 'Keeper',
      can_export_customers: true,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(expected)
    expect((await asAdmin('GET', `/api/users/${t.seed.staff.id}/`)).body).toEqual(expected)
  })

  test('an empty PATCH changes nothing and answers the record', async () => {
    const res = await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, {})
    expect(res.status).toBe(200)
    expect(res.body).toEqual(staffBody())
  })

  test('a PATCH whose only field is the unchanged email answers the record', async () => {
    const res = await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, { email: 'DESK@gym.example' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(staffBody())
  })

  test('the same email in another case is fine', async () => {
    const res = await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, {
      email: 'Desk@Gym.Example',
      first_name: 'Front',
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(userBody(t.seed.staff.id, { email: 'desk@gym.example', first_name: 'Front' }))
  })

  test('setting a password and a pin: has_password/has_pin turn true, neither is echoed, the password logs in', async () => {
    const res = await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, {
      password: 'new-secret-99',
      pin: '00112233',
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      userBody(t.seed.staff.id, { email: 'desk@gym.example', has_password: true, has_pin: true }),
    )

    const login = await logIn(t, 'desk@gym.example', 'new-secret-99')
    expect(login.status).toBe(200)
    expect(login.body.token).toMatch(/^[0-9a-f]{40}$/)
  })

  test('a deactivated user can no longer log in, and their existing token stops working', async () => {
    const created = await asAdmin(
      'POST',
      '/api/users/',
      createPayload({ email: 'leaving@gym.example', password: 'crimpers-123' }),
    )
    const login = await logIn(t, 'leaving@gym.example', 'crimpers-123')
    expect(login.status).toBe(200)
    const token = login.body.token

    const res = await asAdmin('PATCH', `/api/users/${created.body.id}/`, { is_active: false })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      userBody(created.body.id, { email: 'leaving@gym.example', is_active: false, has_password: true }),
    )

    const again = await logIn(t, 'leaving@gym.example', 'crimpers-123')
    expect(again.status).toBe(400)
    expect(again.body).toEqual(badCredentials)

    const withOldToken = await t.request('GET', '/api/my-account/', { token })
    expect(withOldToken.status).toBe(401)
    expect(withOldToken.body).toEqual(invalidToken)
  })

  test('an admin may demote or deactivate another admin', async () => {
    const other = await makeUser(t.db, { email: 'other-admin@gym.example', is_organization_admin: 1 })
    const res = await asAdmin('PATCH', `/api/users/${other.id}/`, {
      is_organization_admin: false,
      is_active: false,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(userBody(other.id, { email: 'other-admin@gym.example', is_active: false }))
  })

  test('an admin may PATCH their own record with is_active and is_organization_admin left true', async () => {
    const res = await asAdmin('PATCH', `/api/users/${t.seed.admin.id}/`, {
      is_active: true,
      is_organization_admin: true,
      can_access_reports: true,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      userBody(t.seed.admin.id, {
        email: 'admin@gym.example',
        is_organization_admin: true,
        can_access_reports: true,
      }),
    )
  })

  test('a user promoted to admin can then manage staff users', async () => {
    const promoted = await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, { is_organization_admin: true })
    expect(promoted.status).toBe(200)
    const res = await t.request('GET', '/api/users/', { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      onePage([
        adminBody(),
        userBody(t.seed.staff.id, { email: 'desk@gym.example', is_organization_admin: true }),
      ]),
    )
  })
})

describe('POST /api/users/<id>/revoke-tokens/', () => {
  const revoke = (id: number | string, token = t.seed.adminToken) =>
    t.request('POST', `/api/users/${id}/revoke-tokens/`, { token })
  const myAccountStatus = async (token: string) =>
    (await t.request('GET', '/api/my-account/', { token })).status

  test('revokes every token of the user, answering 200 with the user; others keep theirs', async () => {
    const first = await makeToken(t.db, t.seed.staff)
    // Used just before, so the token cache holds it: the revocation must still apply at once.
    expect(await myAccountStatus(t.seed.staffToken)).toBe(200)
    expect(await myAccountStatus(first)).toBe(200)
    const res = await revoke(t.seed.staff.id)
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: staffBody() })
    expectUnauthenticated(
      await t.request('GET', '/api/my-account/', { token: t.seed.staffToken }),
      invalidToken,
    )
    expectUnauthenticated(await t.request('GET', '/api/my-account/', { token: first }), invalidToken)
    expect(await myAccountStatus(t.seed.adminToken)).toBe(200)
    // The account itself stays active: logging in again gives a working token.
    const rows = await t.db
      .selectFrom('auth_tokens')
      .select('user_id')
      .where('user_id', '=', t.seed.staff.id)
      .execute()
    expect(rows).toEqual([])
    expect((await storedUser(t.db, t.seed.staff.id)).is_active).toBe(1)
  })

  test('an admin revoking their own tokens revokes the one used for it too', async () => {
    const res = await revoke(t.seed.admin.id)
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: adminBody() })
    expectUnauthenticated(
      await t.request('GET', '/api/my-account/', { token: t.seed.adminToken }),
      invalidToken,
    )
  })

  test('a user who holds no token: 200 all the same', async () => {
    const res = await revoke(t.seed.staff.id)
    expect(res.status).toBe(200)
    const again = await revoke(t.seed.staff.id)
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: staffBody() })
  })

  test('a non-admin is 403, and the tokens stay', async () => {
    const res = await revoke(t.seed.admin.id, t.seed.staffToken)
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: forbidden })
    expect(await myAccountStatus(t.seed.adminToken)).toBe(200)
  })

  test('a non-admin revoking their own tokens is 403 too', async () => {
    const res = await revoke(t.seed.staff.id, t.seed.staffToken)
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: forbidden })
    expect(await myAccountStatus(t.seed.staffToken)).toBe(200)
  })

  test('an unknown user is 404', async () => {
    for (const id of [999, 0, 'abc']) {
      const res = await revoke(id)
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: notFound })
    }
  })

  test('without a token is 401', async () => {
    expectUnauthenticated(
      await t.request('POST', `/api/users/${t.seed.staff.id}/revoke-tokens/`),
      notProvided,
    )
  })

  test('GET is 405', async () => {
    const res = await t.request('GET', `/api/users/${t.seed.staff.id}/revoke-tokens/`, {
      token: t.seed.adminToken,
    })
    expect({ status: res.status, body: res.body }).toEqual({ status: 405, body: methodNotAllowed('GET') })
  })
})

describe("a password set through /api/users/<id>/ revokes that user's tokens", () => {
  const myAccountStatus = async (token: string) =>
    (await t.request('GET', '/api/my-account/', { token })).status

  test("another user's password: every token of theirs, used just before, is refused", async () => {
    const second = await makeToken(t.db, t.seed.staff)
    expect(await myAccountStatus(t.seed.staffToken)).toBe(200)
    expect(await myAccountStatus(second)).toBe(200)
    const res = await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, { password: 'a-new-one-123' })
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: userBody(t.seed.staff.id, { email: 'desk@gym.example', has_password: true }),
    })
    expectUnauthenticated(
      await t.request('GET', '/api/my-account/', { token: t.seed.staffToken }),
      invalidToken,
    )
    expectUnauthenticated(await t.request('GET', '/api/my-account/', { token: second }), invalidToken)
    expect((await logIn(t, 'desk@gym.example', 'a-new-one-123')).status).toBe(200)
  })

  test('their own password: the token used for it keeps working, their others are refused', async () => {
    const other = await makeToken(t.db, t.seed.admin)
    expect(await myAccountStatus(other)).toBe(200)
    const res = await asAdmin('PATCH', `/api/users/${t.seed.admin.id}/`, { password: 'a-new-one-123' })
    expect(res.status).toBe(200)
    expect(await myAccountStatus(t.seed.adminToken)).toBe(200)
    expectUnauthenticated(await t.request('GET', '/api/my-account/', { token: other }), invalidToken)
    expect(await myAccountStatus(t.seed.staffToken)).toBe(200)
  })

  test('a change without a password revokes nothing', async () => {
    const res = await asAdmin('PATCH', `/api/users/${t.seed.staff.id}/`, { first_name: 'Ada' })
    expect(res.status).toBe(200)
    expect(await myAccountStatus(t.seed.staffToken)).toBe(200)
  })
})
