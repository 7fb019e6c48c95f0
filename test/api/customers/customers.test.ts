import { beforeEach, describe, expect, test } from 'bun:test'
import type { MembershipStatus } from '../../../src/db/schema.ts'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  blank,
  doesNotExist,
  emptyPage,
  invalidBoolean,
  invalidChoice,
  invalidDate,
  invalidEmail,
  invalidInteger,
  maxLength,
  notANumber,
  notNull,
  onePage,
  required,
  unsupportedMediaType,
} from '../../helpers/bodies.ts'
import { makeCustomer, makeDocument, storedCustomer } from '../../helpers/customer-factories.ts'
import { countRows, makeGym } from '../../helpers/factories.ts'
import {
  makeCustomerMembership,
  makeMembershipType,
  type MemberSpec,
} from '../../helpers/product-factories.ts'
import {
  expectEachForbidden,
  expectEachNotAllowed,
  expectEachNotFound,
  type RefusedPost,
  testEachNeedsTokenApart,
  testEachRefusedPost,
  useSeededApp,
  useStaff,
} from '../../helpers/seeded.ts'

const t = useSeededApp()
const staff = useStaff(t, 'members', 'allButMembers')

const barcodeTaken = ['customer with this barcode already exists.']
const invalidUrl = ['Enter a valid URL.']
/** START is 2026-11-22 in the organization's zone (Denver). */
const birthdayAfterToday = ['Ensure this value is less than or equal to 2026-11-22.']

/** The whole record the API answers for a customer with the factory's defaults. */
function customerBody(id: number, fields: Record<string, unknown> = {}) {
  const sub = (path: string) => `${ORIGIN}/api/customers/${id}/${path}/`
  return {
    id,
    url: `${ORIGIN}/api/customers/${id}/`,
    first_name: 'Lynn',
    last_name: 'Hill',
    preferred_name: '',
    email: null,
    telephone: '',
    birthday: '1961-01-03',
    barcode: null,
    is_active: true,
    home_location_id: null,
    home_location_name: null,
    home_location_url: null,
    address_street_1: '',
    address_street_2: '',
    address_city: '',
    address_state: '',
    address_postcode: '',
    address_country: '',
    profile_image_url: '',
    first_check_in_timestamp: null,
    has_active_membership: false,
    active_waiver_exists: false,
    latest_waiver_expiration_date: null,
    site_conflicts: [],
    created_at: START,
    updated_at: START,
    credits_url: sub('credits'),
    emergency_contacts_url: sub('emergency-contacts'),
    medical_notes_url: sub('medical-notes'),
    relations_url: sub('relations'),
    documents_url: sub('documents'),
    event_vouchers_url: sub('event-vouchers'),
    alerts_url: sub('alerts'),
    check_ins_url: sub('check-ins'),
    ...fields,
  }
}

const valid = () => ({ first_name: 'Lynn', last_name: 'Hill', birthday: '1961-01-03' })
const customerCount = () => countRows(t.db, 'customers')
const post = (body: unknown, token = staff.members.token) =>
  t.request('POST', '/api/customers/', { token, body })

/** A membership in `status`, of a type of its own, held by `ownerId` and covering `members`. */
async function makeMembership(ownerId: number, status: MembershipStatus, members: MemberSpec[]) {
  const type = await makeMembershipType(t.db, { is_group: members.length > 1 ? 1 : 0 })
  await makeCustomerMembership(t.db, { membership_type_id: type.id, owner_id: ownerId, status, members })
}

describe('/api/customers/ 401', () => {
  const routes: Array<[string, string]> = [
    ['GET', '/api/customers/'],
    ['GET', '/api/customers/1/'],
    ['POST', '/api/customers/'],
    ['PUT', '/api/customers/1/'],
    ['PATCH', '/api/customers/1/'],
    ['DELETE', '/api/customers/1/'],
  ]

  testEachNeedsTokenApart(t, routes, { body: { first_name: '' }, setUp: () => makeCustomer(t.db) })
})

describe('/api/customers/ 400', () => {
  test('POST with an empty body reports first_name, last_name and birthday at once', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ first_name: required, last_name: required, birthday: required })
    expect(await customerCount()).toBe(0)
  })

  const cases: RefusedPost[] = [
    ['a blank first_name', { first_name: '' }, { first_name: blank }],
    ['a null last_name', { last_name: null }, { last_name: notNull }],
    ['a first_name of 151 characters', { first_name: 'x'.repeat(151) }, { first_name: maxLength(150) }],
    ['a birthday in the wrong format', { birthday: '03/01/1961' }, { birthday: invalidDate }],
    ['a birthday that is no calendar day', { birthday: '1961-02-30' }, { birthday: invalidDate }],
    ['a null birthday', { birthday: null }, { birthday: notNull }],
    ['an invalid email', { email: 'lynn@' }, { email: invalidEmail }],
    ['a barcode of 129 characters', { barcode: 'B'.repeat(129) }, { barcode: maxLength(128) }],
    ['an unknown home_location_id', { home_location_id: 999 }, { home_location_id: doesNotExist(999) }],
    [
      'a home_location_id that is no number',
      { home_location_id: 'downtown' },
      { home_location_id: invalidInteger },
    ],
    ['an unknown country code', { address_country: 'XX' }, { address_country: invalidChoice('XX') }],
    ['a three-letter country code', { address_country: 'USA' }, { address_country: invalidChoice('USA') }],
    ['a withdrawn country code', { address_country: 'SU' }, { address_country: invalidChoice('SU') }],
    ['is_active "maybe"', { is_active: 'maybe' }, { is_active: invalidBoolean }],
    [
      'a profile_image_url that is no URL',
      { profile_image_url: 'me.png' },
      { profile_image_url: invalidUrl },
    ],
    [
      'a profile_image_url with a broken escape',
      { profile_image_url: 'http://t%OYPj2' },
      { profile_image_url: invalidUrl },
    ],
    [
      'a profile_image_url of another scheme in upper case',
      { profile_image_url: 'FTP://img.example/lynn.png' },
      { profile_image_url: invalidUrl },
    ],
    ['a birthday in the year 2999', { birthday: '2999-01-01' }, { birthday: birthdayAfterToday }],
    [
      "a birthday of the organization's tomorrow (START is 2026-11-22 in Denver)",
      { birthday: '2026-11-23' },
      { birthday: birthdayAfterToday },
    ],
    [
      'a birthday before 1900',
      { birthday: '1899-12-31' },
      { birthday: ['Ensure this value is greater than or equal to 1900-01-01.'] },
    ],
  ]

  testEachRefusedPost(cases, { post, count: customerCount, base: valid })

  test('a barcode already held by another customer is 400 and creates nothing', async () => {
    await makeCustomer(t.db, { barcode: 'LH-0001' })
    const res = await post({ ...valid(), barcode: 'LH-0001' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ barcode: barcodeTaken })
    expect(await customerCount()).toBe(1)
  })

  test('two simultaneous creates with one barcode: one 201, one 400, never a 500', async () => {
    const results = await Promise.all([
      post({ ...valid(), barcode: 'LH-0001' }),
      post({ ...valid(), first_name: 'Beth', barcode: 'LH-0001' }),
    ])
    const statuses = results.map((r) => r.status).sort()
    expect(statuses).toEqual([201, 400])
    expect(results.find((r) => r.status === 400)!.body).toEqual({ barcode: barcodeTaken })
    expect(await customerCount()).toBe(1)
  })

  test('type errors and database rules are reported together, in field order', async () => {
    await makeCustomer(t.db, { barcode: 'LH-0001' })
    const res = await post({
      first_name: '',
      birthday: 'tomorrow',
      email: 'nope',
      barcode: 'LH-0001',
      home_location_id: 999,
      address_country: 'ZZ',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      first_name: blank,
      last_name: required,
      email: invalidEmail,
      birthday: invalidDate,
      barcode: barcodeTaken,
      home_location_id: doesNotExist(999),
      address_country: invalidChoice('ZZ'),
    })
  })

  test('PUT needs first_name, last_name and birthday', async () => {
    const customer = await makeCustomer(t.db)
    const res = await t.request('PUT', `/api/customers/${customer.id}/`, {
      token: staff.members.token,
      body: {},
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ first_name: required, last_name: required, birthday: required })
  })

  test('PATCH to a barcode held by another customer is 400 and changes nothing', async () => {
    await makeCustomer(t.db, { barcode: 'LH-0001' })
    const customer = await makeCustomer(t.db, { first_name: 'Beth', barcode: 'BR-0002' })
    const res = await t.request('PATCH', `/api/customers/${customer.id}/`, {
      token: staff.members.token,
      body: { barcode: 'LH-0001', first_name: 'Changed' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ barcode: barcodeTaken })
    expect(await storedCustomer(t.db, customer.id)).toEqual(customer)
  })

  test('PUT with an invalid field changes nothing', async () => {
    const customer = await makeCustomer(t.db)
    const res = await t.request('PUT', `/api/customers/${customer.id}/`, {
      token: staff.members.token,
      body: { ...valid(), first_name: 'Changed', email: 'not-an-email' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ email: invalidEmail })
    expect(await storedCustomer(t.db, customer.id)).toEqual(customer)
  })

  test('a filter with a value of the wrong type is 400 on that parameter', async () => {
    const res = await t.request('GET', '/api/customers/?home_location_id=downtown&is_active=maybe', {
      token: t.seed.staffToken,
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ home_location_id: notANumber, is_active: invalidBoolean })
  })

  test('a multipart body is 415 here (only document uploads take multipart)', async () => {
    const form = new FormData()
    form.append('first_name', 'Lynn')
    const res = await t.app.handle(
      new Request(`${ORIGIN}/api/customers/`, {
        method: 'POST',
        headers: { authorization: `Token ${staff.members.token}` },
        body: form,
      }),
    )
    expect(res.status).toBe(415)
    expect(await res.json()).toEqual(unsupportedMediaType('multipart/form-data'))
    expect(await customerCount()).toBe(0)
  })
})

describe('/api/customers/ 403', () => {
  for (const [who, token] of [
    ['a user without permissions', () => t.seed.staffToken],
    ['a user with every permission but can_manage_members', () => staff.allButMembers.token],
  ] as const) {
    test(`${who} may read but not write`, async () => {
      const customer = await makeCustomer(t.db)
      expect((await t.request('GET', '/api/customers/', { token: token() })).status).toBe(200)
      expect((await t.request('GET', `/api/customers/${customer.id}/`, { token: token() })).status).toBe(200)
      // An invalid body too: the permission is checked before the body.
      const body = { first_name: '' }
      await expectEachForbidden(
        t,
        [token()],
        [
          ['POST', '/api/customers/', body],
          ['PUT', `/api/customers/${customer.id}/`, body],
          ['PATCH', `/api/customers/${customer.id}/`, body],
        ],
      )
      expect(await storedCustomer(t.db, customer.id)).toEqual(customer)
      expect(await customerCount()).toBe(1)
    })
  }
})

describe('/api/customers/ 404 and 405', () => {
  test('an unknown or malformed id is 404 for read, PUT and PATCH', async () => {
    const calls = ['/api/customers/999/', '/api/customers/abc/'].flatMap((path) =>
      ['GET', 'PUT', 'PATCH'].map((method) => [method, path, valid()] as const),
    )
    await expectEachNotFound(t, staff.members.token, calls)
  })

  test('DELETE is 405: customers are deactivated, never deleted', async () => {
    const customer = await makeCustomer(t.db)
    await expectEachNotAllowed(t, t.seed.adminToken, [['DELETE', `/api/customers/${customer.id}/`]])
    expect(await customerCount()).toBe(1)
  })

  test('PUT on the collection is 405', async () => {
    await expectEachNotAllowed(t, t.seed.adminToken, [['PUT', '/api/customers/', valid()]])
  })
})

describe('/api/customers/ create, read, replace, update', () => {
  test('POST with the required fields only: 201 with defaults and computed fields', async () => {
    t.clock.advance(60_000)
    const res = await post(valid())
    expect(res.status).toBe(201)
    const id = res.body.id
    expect(res.body).toEqual(customerBody(id, { created_at: ONE_MINUTE_LATER, updated_at: ONE_MINUTE_LATER }))
    const read = await t.request('GET', `/api/customers/${id}/`, { token: t.seed.staffToken })
    expect(read.status).toBe(200)
    expect(read.body).toEqual(res.body)
  })

  test('POST with every writable field (admin passes too)', async () => {
    const res = await post(
      {
        first_name: 'Lynn',
        last_name: 'Hill',
        preferred_name: 'Lynnie',
        email: 'lynn@example.com',
        telephone: '+1 303 555 0100',
        birthday: '1961-01-03',
        barcode: 'LH-0001',
        is_active: false,
        home_location_id: t.seed.gym.id,
        address_street_1: '1 Crag Rd',
        address_street_2: 'Unit 2',
        address_city: 'Boulder',
        address_state: 'CO',
        address_postcode: '80302',
        address_country: 'us',
        profile_image_url: 'https://img.example/lynn.png',
      },
      t.seed.adminToken,
    )
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      customerBody(res.body.id, {
        preferred_name: 'Lynnie',
        email: 'lynn@example.com',
        telephone: '+1 303 555 0100',
        barcode: 'LH-0001',
        is_active: false,
        home_location_id: t.seed.gym.id,
        home_location_name: 'Boulder Barn Downtown',
        home_location_url: `${ORIGIN}/api/gyms/${t.seed.gym.id}/`,
        address_street_1: '1 Crag Rd',
        address_street_2: 'Unit 2',
        address_city: 'Boulder',
        address_state: 'CO',
        address_postcode: '80302',
        address_country: 'US',
        profile_image_url: 'https://img.example/lynn.png',
      }),
    )
  })

  test('an empty email or barcode is stored as none and read back as null', async () => {
    const first = await post({ ...valid(), email: '', barcode: '' })
    const second = await post({ ...valid(), email: null, barcode: null })
    expect([first.status, second.status]).toEqual([201, 201])
    expect(first.body).toEqual(customerBody(first.body.id))
    expect(second.body).toEqual(customerBody(second.body.id))
  })

  test("a birthday of 1900-01-01 or of the organization's today is accepted", async () => {
    const oldest = await post({ ...valid(), birthday: '1900-01-01' })
    const today = await post({ ...valid(), birthday: '2026-11-22' })
    expect([oldest.status, today.status]).toEqual([201, 201])
    expect([oldest.body.birthday, today.body.birthday]).toEqual(['1900-01-01', '2026-11-22'])
  })

  test('PATCH to a birthday in the future is 400 and changes nothing', async () => {
    const customer = await makeCustomer(t.db)
    const res = await t.request('PATCH', `/api/customers/${customer.id}/`, {
      token: staff.members.token,
      body: { birthday: '2999-12-31' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ birthday: birthdayAfterToday })
    expect(await storedCustomer(t.db, customer.id)).toEqual(customer)
  })

  test("a profile_image_url's scheme is taken in any case, as DRF's URLValidator takes it", async () => {
    for (const url of ['HTTPS://img.example/lynn.png', 'Http://img.example/lynn.png']) {
      const res = await post({ ...valid(), profile_image_url: url })
      expect(res.status).toBe(201)
      expect(res.body.profile_image_url).toBe(url)
    }
  })

  test('a barcode of exactly 128 characters is accepted', async () => {
    const res = await post({ ...valid(), barcode: 'B'.repeat(128) })
    expect(res.status).toBe(201)
    expect(res.body.barcode).toBe('B'.repeat(128))
  })

  test('read-only fields sent on create are ignored', async () => {
    const res = await post({
      ...valid(),
      id: 99,
      url: 'http://elsewhere.example/api/customers/99/',
      first_check_in_timestamp: '2020-01-01T00:00:00.000Z',
      has_active_membership: true,
      active_waiver_exists: true,
      latest_waiver_expiration_date: '2030-01-01',
      home_location_name: 'Nowhere',
      created_at: '2000-01-01T00:00:00.000Z',
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(customerBody(1))
  })

  test('PUT replaces the sent fields; fields not sent stay; created_at stays', async () => {
    const customer = await makeCustomer(t.db, {
      telephone: '555',
      barcode: 'OLD',
      home_location_id: t.seed.gym.id,
    })
    t.clock.advance(60_000)
    const res = await t.request('PUT', `/api/customers/${customer.id}/`, {
      token: staff.members.token,
      body: { first_name: 'Beth', last_name: 'Rodden', birthday: '1980-05-16', barcode: 'NEW' },
    })
    expect(res.status).toBe(200)
    const expected = customerBody(customer.id, {
      first_name: 'Beth',
      last_name: 'Rodden',
      birthday: '1980-05-16',
      telephone: '555',
      barcode: 'NEW',
      home_location_id: t.seed.gym.id,
      home_location_name: 'Boulder Barn Downtown',
      home_location_url: `${ORIGIN}/api/gyms/${t.seed.gym.id}/`,
      updated_at: ONE_MINUTE_LATER,
    })
    expect(res.body).toEqual(expected)
    expect(
      (await t.request('GET', `/api/customers/${customer.id}/`, { token: staff.members.token })).body,
    ).toEqual(expected)
  })

  test('PATCH with is_active false deactivates (the way to remove a customer)', async () => {
    const customer = await makeCustomer(t.db)
    const res = await t.request('PATCH', `/api/customers/${customer.id}/`, {
      token: staff.members.token,
      body: { is_active: false },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(customerBody(customer.id, { is_active: false }))
  })

  test('PATCH can clear the barcode, email and home location with null', async () => {
    const other = await makeGym(t.db, { name: 'Uptown' })
    const customer = await makeCustomer(t.db, {
      barcode: 'LH-0001',
      email: 'lynn@example.com',
      home_location_id: other.id,
    })
    const res = await t.request('PATCH', `/api/customers/${customer.id}/`, {
      token: staff.members.token,
      body: { barcode: null, email: null, home_location_id: null },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(customerBody(customer.id))
  })

  test('PATCH keeping the customer’s own barcode is not a duplicate', async () => {
    const customer = await makeCustomer(t.db, { barcode: 'LH-0001' })
    const res = await t.request('PATCH', `/api/customers/${customer.id}/`, {
      token: staff.members.token,
      body: { barcode: 'LH-0001', preferred_name: 'Lynnie' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(customerBody(customer.id, { barcode: 'LH-0001', preferred_name: 'Lynnie' }))
  })

  test('a freed barcode can be given to another customer', async () => {
    const first = await makeCustomer(t.db, { barcode: 'LH-0001' })
    await t.request('PATCH', `/api/customers/${first.id}/`, {
      token: staff.members.token,
      body: { barcode: null },
    })
    const res = await post({ ...valid(), barcode: 'LH-0001' })
    expect(res.status).toBe(201)
  })
})

describe('/api/customers/ list', () => {
  test('an empty list', async () => {
    const res = await t.request('GET', '/api/customers/', { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(emptyPage)
  })

  test('ordered by last name, then first name, then id', async () => {
    const a = await makeCustomer(t.db, { first_name: 'Tommy', last_name: 'Caldwell' })
    const b = await makeCustomer(t.db, { first_name: 'Alex', last_name: 'Honnold' })
    const c = await makeCustomer(t.db, { first_name: 'Alex', last_name: 'Caldwell' })
    const d = await makeCustomer(t.db, { first_name: 'Alex', last_name: 'Caldwell' })
    const res = await t.request('GET', '/api/customers/', { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      onePage([
        customerBody(c.id, { first_name: 'Alex', last_name: 'Caldwell' }),
        customerBody(d.id, { first_name: 'Alex', last_name: 'Caldwell' }),
        customerBody(a.id, { first_name: 'Tommy', last_name: 'Caldwell' }),
        customerBody(b.id, { first_name: 'Alex', last_name: 'Honnold' }),
      ]),
    )
  })

  test('pages keep the order and the filters', async () => {
    for (let i = 0; i < 3; i++) await makeCustomer(t.db, { last_name: `Hill${i}` })
    await makeCustomer(t.db, { last_name: 'Gone', is_active: 0 })
    const res = await t.request('GET', '/api/customers/?is_active=true&page_size=2&page=2', {
      token: t.seed.staffToken,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      count: 3,
      next: null,
      previous: `${ORIGIN}/api/customers/?is_active=true&page_size=2`,
      results: [customerBody(3, { last_name: 'Hill2' })],
    })
  })

  describe('filters', () => {
    const ids = (res: { body: { results: Array<{ id: number }> } }) => res.body.results.map((r) => r.id)
    const list = async (query: string) => {
      const res = await t.request('GET', `/api/customers/?${query}`, { token: t.seed.staffToken })
      expect(res.status).toBe(200)
      return ids(res)
    }
    let lynn: number, beth: number, tommy: number, inactive: number, uptown: number

    beforeEach(async () => {
      uptown = (await makeGym(t.db, { name: 'Uptown' })).id
      lynn = (
        await makeCustomer(t.db, {
          first_name: 'Lynn',
          last_name: 'Hill',
          email: 'lynn@crag.example',
          barcode: 'LH-100',
          telephone: '(303) 555-0182',
          home_location_id: t.seed.gym.id,
        })
      ).id
      beth = (
        await makeCustomer(t.db, {
          first_name: 'Elizabeth',
          preferred_name: 'Beth',
          last_name: 'Rodden',
          barcode: 'BR-1000',
          home_location_id: uptown,
        })
      ).id
      tommy = (
        await makeCustomer(t.db, {
          first_name: 'Tommy',
          last_name: 'Caldwell',
          barcode: 'TC-1',
          telephone: '+1.720.555.0100',
        })
      ).id
      inactive = (await makeCustomer(t.db, { first_name: 'Hilary', last_name: 'Gone', is_active: 0 })).id
    })

    const cases: Array<[string, string, () => number[]]> = [
      ['search on first name, any case', 'search=LYNN', () => [lynn]],
      ['search on last name', 'search=rodd', () => [beth]],
      ['search on preferred name', 'search=beth', () => [beth]],
      ['search on email', 'search=crag.example', () => [lynn]],
      ['search on barcode', 'search=tc-1', () => [tommy]],
      ['search term matching several fields', 'search=hil', () => [inactive, lynn]],
      ['search with two terms, each matching', 'search=lynn%20hill', () => [lynn]],
      ['search with two terms, one not matching', 'search=lynn%20rodden', () => []],
      ['search with only spaces (no terms)', 'search=%20%20', () => [tommy, inactive, lynn, beth]],
      ['search with LIKE wildcards taken literally', 'search=%25', () => []],
      ['search on telephone digits, written as they are stored', 'search=(303)%20555-0182', () => [lynn]],
      ['search on telephone digits, written without punctuation', 'search=3035550182', () => [lynn]],
      ['search on part of a telephone number', 'search=555-01', () => [tommy, lynn]],
      ['search on telephone digits across its punctuation', 'search=720555', () => [tommy]],
      ['search with two digits only: not a telephone', 'search=55', () => []],
      ['search on a name and a telephone together', 'search=lynn%20555', () => [lynn]],
      ['barcode exact', 'barcode=BR-1000', () => [beth]],
      ['barcode is not a substring match', 'barcode=BR-100', () => []],
      ['barcode is case-sensitive', 'barcode=br-1000', () => []],
      ['home_location_id', `home_location_id=__uptown__`, () => [beth]],
      ['is_active=false', 'is_active=false', () => [inactive]],
      ['is_active=TRUE (any case)', 'is_active=TRUE', () => [tommy, lynn, beth]],
      ['filters combine', 'is_active=true&search=hil', () => [lynn]],
    ]

    for (const [name, query, expected] of cases) {
      test(name, async () => {
        expect(await list(query.replace('__uptown__', String(uptown)))).toEqual(expected())
      })
    }
  })
})

describe('/api/customers/ computed fields', () => {
  test('has_active_membership: covered by a membership in an active status, not frozen on their own', async () => {
    const cases: Array<[string, MembershipStatus, boolean, boolean]> = [
      ['active', 'ACT', false, true],
      ['in a paid period of a prepaid membership', 'IPP', false, true],
      ['in a prepaid renewal', 'PPR', false, true],
      ['active but this member frozen', 'ACT', true, false],
      ['frozen', 'FRZ', false, false],
      ['frozen prepaid', 'FPR', false, false],
      ['payment failed', 'PAF', false, false],
      ['awaiting payment', 'PAY', false, false],
      ['cancelled', 'CAN', false, false],
      ['ended', 'END', false, false],
    ]
    const actual: Array<[string, boolean]> = []
    for (const [name, status, frozen] of cases) {
      const customer = await makeCustomer(t.db, { first_name: name })
      await makeMembership(customer.id, status, [{ customer_id: customer.id, is_frozen: frozen }])
      const res = await t.request('GET', `/api/customers/${customer.id}/`, { token: t.seed.staffToken })
      actual.push([name, res.body.has_active_membership])
    }
    expect(actual).toEqual(cases.map(([name, , , expected]) => [name, expected]))
  })

  test('has_active_membership: a covered member of a group counts; an owner who is not covered does not', async () => {
    const parent = await makeCustomer(t.db, { first_name: 'Parent' })
    const child = await makeCustomer(t.db, { first_name: 'Child' })
    const sibling = await makeCustomer(t.db, { first_name: 'Sibling' })
    await makeMembership(parent.id, 'ACT', [{ customer_id: child.id }, { customer_id: sibling.id }])
    // A second, ended membership does not take away the active one.
    await makeMembership(child.id, 'END', [{ customer_id: child.id }])
    const res = await t.request('GET', '/api/customers/?search=Hill', { token: t.seed.staffToken })
    expect(res.body.results.map((r: any) => [r.first_name, r.has_active_membership])).toEqual([
      ['Child', true],
      ['Parent', false],
      ['Sibling', true],
    ])
  })

  test('waiver fields: unexpired through the end of the expiration day, organization-local', async () => {
    // 2026-11-22 15:04 UTC is 08:04 in Denver.
    const cases: Array<
      [string, Array<{ kind?: 'waiver' | 'other'; expiration_date: string | null }>, boolean, string | null]
    > = [
      ['no documents', [], false, null],
      ['a waiver expiring today', [{ expiration_date: '2026-11-22' }], true, '2026-11-22'],
      ['a waiver that expired yesterday', [{ expiration_date: '2026-11-21' }], false, '2026-11-21'],
      ['a waiver that never expires', [{ expiration_date: null }], true, null],
      [
        'an expired and a current waiver: the latest date',
        [{ expiration_date: '2027-06-30' }, { expiration_date: '2025-01-01' }],
        true,
        '2027-06-30',
      ],
      [
        'a dated and a non-expiring waiver: null (nothing is later than never)',
        [{ expiration_date: '2027-06-30' }, { expiration_date: null }],
        true,
        null,
      ],
      ['an unexpired document that is not a waiver', [{ kind: 'other', expiration_date: null }], false, null],
      [
        'a non-waiver document does not count towards the latest date',
        [{ expiration_date: '2025-01-01' }, { kind: 'other', expiration_date: '2030-01-01' }],
        false,
        '2025-01-01',
      ],
    ]
    const actual: unknown[] = []
    for (const [name, documents] of cases) {
      const customer = await makeCustomer(t.db, { first_name: name })
      for (const document of documents) await makeDocument(t.db, customer.id, document)
      const res = await t.request('GET', `/api/customers/${customer.id}/`, { token: t.seed.staffToken })
      actual.push([name, res.body.active_waiver_exists, res.body.latest_waiver_expiration_date])
    }
    expect(actual).toEqual(cases.map(([name, , exists, latest]) => [name, exists, latest]))
  })

  test('a waiver expiring today is still active late in the local evening, when UTC is already tomorrow', async () => {
    const customer = await makeCustomer(t.db)
    await makeDocument(t.db, customer.id, { expiration_date: '2026-11-22' })
    const read = async () =>
      (await t.request('GET', `/api/customers/${customer.id}/`, { token: t.seed.staffToken })).body
        .active_waiver_exists
    t.clock.set('2026-11-23T06:59:59.999Z') // 23:59:59.999 in Denver
    expect(await read()).toBe(true)
    t.clock.set('2026-11-23T07:00:00.000Z') // midnight in Denver
    expect(await read()).toBe(false)
  })

  test('the list computes the same fields for every row of the page', async () => {
    const member = await makeCustomer(t.db, { last_name: 'A-member' })
    const waivered = await makeCustomer(t.db, { last_name: 'B-waivered' })
    const neither = await makeCustomer(t.db, { last_name: 'C-neither' })
    await makeMembership(member.id, 'ACT', [{ customer_id: member.id }])
    await makeDocument(t.db, waivered.id, { expiration_date: '2026-12-31' })
    const res = await t.request('GET', '/api/customers/', { token: t.seed.staffToken })
    expect(res.body).toEqual(
      onePage([
        customerBody(member.id, { last_name: 'A-member', has_active_membership: true }),
        customerBody(waivered.id, {
          last_name: 'B-waivered',
          active_waiver_exists: true,
          latest_waiver_expiration_date: '2026-12-31',
        }),
        customerBody(neither.id, { last_name: 'C-neither' }),
      ]),
    )
  })
})
