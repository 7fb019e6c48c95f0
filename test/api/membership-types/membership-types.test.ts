import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  blank,
  doesNotExist,
  maxLength,
  invalidBoolean,
  invalidChoice,
  invalidNumber,
  maxDecimalPlaces,
  minValue,
  notNull,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { countRows, makeGym } from '../../helpers/factories.ts'
import { makeMembershipType, makeTaxRate } from '../../helpers/product-factories.ts'
import {
  expectEachForbidden,
  expectEachNotAllowed,
  expectEachNotFound,
  listIds,
  type RefusedPost,
  testEachNeedsToken,
  testEachRefusedPost,
  useSeededApp,
  useStaff,
} from '../../helpers/seeded.ts'

const t = useSeededApp()
/** Every can_* flag but not an organization admin: product types are admin-only. */
const staff = useStaff(t, 'allButAdmin')

const PATH = '/api/memberships/'
const count = () => countRows(t.db, 'membership_types')

const needsInterval = ['A recurring membership type needs a billing interval.']
const noInterval = ['Only a recurring membership type has a billing interval; leave it empty.']

/** The whole record the API answers for the factory's default type (recurring monthly, 65.00). */
function typeBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/memberships/${id}/`,
    name: 'Monthly Adult',
    description: '',
    status: 'ACT',
    purchase_type: 'REC',
    interval: 'MON',
    price: '65.00',
    is_group: false,
    is_youth_programming: false,
    duration_years: null,
    duration_months: null,
    duration_days: null,
    location_id: null,
    location_name: null,
    location_url: null,
    access_hours: null,
    guest_passes_per_month: 0,
    tax_rate_id: null,
    revenue_account_code: '',
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const valid = () => ({
  name: 'Monthly Adult',
  status: 'ACT',
  purchase_type: 'REC',
  interval: 'MON',
  price: '65.00',
})

describe('/api/memberships/ 401', () => {
  const routes = [
    ['GET', PATH],
    ['GET', `${PATH}1/`],
    ['POST', PATH],
    ['PUT', `${PATH}1/`],
    ['PATCH', `${PATH}1/`],
  ] as const
  testEachNeedsToken(t, routes, { name: '' })
})

describe('/api/memberships/ 400', () => {
  const post = (body: unknown) => t.request('POST', PATH, { token: t.seed.adminToken, body })

  test('an empty body reports name, status and purchase_type at once', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: required, status: required, purchase_type: required })
    expect(await count()).toBe(0)
  })

  const cases: RefusedPost[] = [
    ['a blank name', { name: '' }, { name: blank }],
    ['status "act" (codes are upper case)', { status: 'act' }, { status: invalidChoice('act') }],
    ['purchase_type XYZ', { purchase_type: 'XYZ' }, { purchase_type: invalidChoice('XYZ') }],
    ['interval DAY', { interval: 'DAY' }, { interval: invalidChoice('DAY') }],
    ['a recurring type without interval', { interval: undefined }, { interval: needsInterval }],
    ['a recurring type with an empty interval', { interval: '' }, { interval: needsInterval }],
    ['a recurring type with a null interval', { interval: null }, { interval: needsInterval }],
    ['a prepaid type with an interval', { purchase_type: 'PRE' }, { interval: noInterval }],
    ['a benefit type with an interval', { purchase_type: 'BEN', interval: 'YRL' }, { interval: noInterval }],
    ['price -0.01', { price: '-0.01' }, { price: minValue(0) }],
    ['price -5 as a number', { price: -5 }, { price: minValue(0) }],
    ['price "abc"', { price: 'abc' }, { price: invalidNumber }],
    ['price ""', { price: '' }, { price: invalidNumber }],
    ['price true', { price: true }, { price: invalidNumber }],
    ['price null', { price: null }, { price: notNull }],
    ['price with 3 decimal places', { price: '12.345' }, { price: maxDecimalPlaces(2) }],
    ['price 12.345 as a number', { price: 12.345 }, { price: maxDecimalPlaces(2) }],
    [
      'price with 9 digits before the point',
      { price: '123456789' },
      { price: ['Ensure that there are no more than 8 digits before the decimal point.'] },
    ],
    ['is_group "x"', { is_group: 'x' }, { is_group: invalidBoolean }],
    ['duration_months -1', { duration_months: -1 }, { duration_months: minValue(0) }],
    ['location_id 999', { location_id: 999 }, { location_id: doesNotExist(999) }],
    ['guest_passes_per_month -1', { guest_passes_per_month: -1 }, { guest_passes_per_month: minValue(0) }],
    ['tax_rate_id 99 (no such tax rate)', { tax_rate_id: 99 }, { tax_rate_id: doesNotExist(99) }],
    [
      'a revenue_account_code of 65 characters',
      { revenue_account_code: '4'.repeat(65) },
      { revenue_account_code: maxLength(64) },
    ],
    [
      'access_hours that is not a list',
      { access_hours: 'MON 06:00-10:00' },
      { access_hours: ['Expected a list of items but got type "str".'] },
    ],
    [
      'an empty list of access windows (it would mean never)',
      { access_hours: [] },
      { access_hours: ['Give at least one window, or null for access at any time.'] },
    ],
    [
      'an access window that is not an object',
      { access_hours: ['MON'] },
      { access_hours: ['Window 1: expected an object with day, start and end but got type "str".'] },
    ],
    [
      'an access window on day MONDAY',
      { access_hours: [{ day: 'MONDAY', start: '06:00', end: '10:00' }] },
      {
        access_hours: [
          'Window 1: "MONDAY" is not a valid day; use one of SUN, MON, TUE, WED, THU, FRI, SAT.',
        ],
      },
    ],
    [
      'an access window starting at 6:00 and without an end',
      { access_hours: [{ day: 'MON', start: '6:00' }] },
      {
        access_hours: [
          'Window 1: "6:00" is not a valid start time; use HH:MM (24-hour clock).',
          'Window 1: end is required.',
        ],
      },
    ],
    [
      'an access window ending at 24:30',
      { access_hours: [{ day: 'SAT', start: '20:00', end: '24:30' }] },
      { access_hours: ['Window 1: "24:30" is not a valid end time; use HH:MM (24-hour clock).'] },
    ],
    [
      'a second access window that ends before it starts',
      {
        access_hours: [
          { day: 'MON', start: '06:00', end: '10:00' },
          { day: 'TUE', start: '10:00', end: '09:59' },
        ],
      },
      { access_hours: ['Window 2: start must be before end.'] },
    ],
    [
      'an empty access window',
      { access_hours: [{ day: 'TUE', start: '10:00', end: '10:00' }] },
      { access_hours: ['Window 1: start must be before end.'] },
    ],
  ]

  testEachRefusedPost(cases, { post, count, base: valid })

  test('every failing field is reported in one body, in field order', async () => {
    const res = await post({
      name: '',
      status: 'X',
      purchase_type: 'PRE',
      interval: 'MON',
      price: 'free',
      location_id: 999,
      access_hours: {},
      guest_passes_per_month: -1,
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      name: blank,
      status: invalidChoice('X'),
      interval: noInterval,
      price: invalidNumber,
      location_id: doesNotExist(999),
      access_hours: ['Expected a list of items but got type "dict".'],
      guest_passes_per_month: minValue(0),
    })
  })

  test('PUT needs name, status and purchase_type', async () => {
    const type = await makeMembershipType(t.db)
    const res = await t.request('PUT', `${PATH}${type.id}/`, { token: t.seed.adminToken, body: {} })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: required, status: required, purchase_type: required })
  })

  test('PATCH judges the interval on the resulting type, and a refused PATCH changes nothing', async () => {
    const prepaid = await makeMembershipType(t.db, { name: 'Ten Weeks', purchase_type: 'PRE', interval: '' })
    const recurring = await makeMembershipType(t.db)
    t.clock.advance(60_000)
    const patch = (id: number, body: unknown) =>
      t.request('PATCH', `${PATH}${id}/`, { token: t.seed.adminToken, body })
    for (const [id, body, errors] of [
      [prepaid.id, { purchase_type: 'REC' }, { interval: needsInterval }],
      [prepaid.id, { interval: 'WEE', name: 'Renamed' }, { interval: noInterval }],
      [recurring.id, { interval: '' }, { interval: needsInterval }],
      [recurring.id, { price: '1.001', name: 'Renamed' }, { price: maxDecimalPlaces(2) }],
    ] as const) {
      const res = await patch(id, body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errors)
    }
    const read = await t.request('GET', `${PATH}${prepaid.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(typeBody(prepaid.id, { name: 'Ten Weeks', purchase_type: 'PRE', interval: '' }))
    const other = await t.request('GET', `${PATH}${recurring.id}/`, { token: t.seed.staffToken })
    expect(other.body).toEqual(typeBody(recurring.id))
  })

  test('a bad is_group filter is 400', async () => {
    const res = await t.request('GET', `${PATH}?is_group=maybe`, { token: t.seed.staffToken })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ is_group: invalidBoolean })
  })
})

describe('/api/memberships/ 403', () => {
  test('staff users without admin, even with every can_* flag, cannot write', async () => {
    const type = await makeMembershipType(t.db)
    const writes = [
      ['POST', PATH],
      ['PUT', `${PATH}${type.id}/`],
      ['PATCH', `${PATH}${type.id}/`],
    ] as const
    const calls = writes.flatMap(([method, path]) =>
      [valid(), { name: '' }].map((body) => [method, path, body] as const),
    )
    await expectEachForbidden(t, [t.seed.staffToken, staff.allButAdmin.token], calls)
    expect(await count()).toBe(1)
    const read = await t.request('GET', `${PATH}${type.id}/`, { token: staff.allButAdmin.token })
    expect(read.body).toEqual(typeBody(type.id))
  })
})

describe('/api/memberships/ 404 and 405', () => {
  test('GET, PUT and PATCH of an unknown or malformed id are 404', async () => {
    const calls = ['999', 'abc'].flatMap((id) =>
      ['GET', 'PUT', 'PATCH'].map((method) => [method, `${PATH}${id}/`, valid()] as const),
    )
    await expectEachNotFound(t, t.seed.adminToken, calls)
  })

  test('DELETE is 405 (retire a type instead)', async () => {
    const type = await makeMembershipType(t.db)
    await expectEachNotAllowed(t, t.seed.adminToken, [['DELETE', `${PATH}${type.id}/`]])
    expect(await count()).toBe(1)
  })
})

describe('/api/memberships/ success', () => {
  test('any staff user lists and reads types', async () => {
    const type = await makeMembershipType(t.db)
    const list = await t.request('GET', PATH, { token: t.seed.staffToken })
    expect(list.status).toBe(200)
    expect(list.body).toEqual(onePage([typeBody(type.id)]))
    const read = await t.request('GET', `${PATH}${type.id}/`, { token: t.seed.staffToken })
    expect(read.status).toBe(200)
    expect(read.body).toEqual(typeBody(type.id))
  })

  test('POST with the required fields takes the defaults', async () => {
    const res = await t.request('POST', PATH, {
      token: t.seed.adminToken,
      body: { name: 'Day Pass Club', status: 'DRA', purchase_type: 'BEN' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      typeBody(res.body.id, {
        name: 'Day Pass Club',
        status: 'DRA',
        purchase_type: 'BEN',
        interval: '',
        price: '0.00',
      }),
    )
    const read = await t.request('GET', `${PATH}${res.body.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(res.body)
  })

  test('POST with every field; a numeric price and a null interval on a prepaid type are accepted', async () => {
    const taxRate = await makeTaxRate(t.db)
    const body = {
      name: 'Youth Team Season',
      description: 'Three practices a week',
      status: 'ACT',
      purchase_type: 'PRE',
      interval: null,
      price: 450.5,
      is_group: true,
      is_youth_programming: true,
      duration_years: 0,
      duration_months: 4,
      duration_days: null,
      location_id: t.seed.gym.id,
      access_hours: [
        { day: 'MON', start: '16:00', end: '18:30' },
        { day: 'SAT', start: '09:00', end: '24:00' },
      ],
      guest_passes_per_month: 2,
      tax_rate_id: taxRate.id,
      revenue_account_code: '4100-YOUTH',
    }
    const res = await t.request('POST', PATH, { token: t.seed.adminToken, body })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      typeBody(res.body.id, {
        ...body,
        interval: '',
        price: '450.50',
        location_name: 'Boulder Barn Downtown',
        location_url: `${ORIGIN}/api/gyms/${t.seed.gym.id}/`,
      }),
    )
  })

  test('PUT replaces the sent fields; fields left out keep their values', async () => {
    const gym = await makeGym(t.db, { name: 'Uptown' })
    const type = await makeMembershipType(t.db, { guest_passes_per_month: 3 })
    t.clock.advance(60_000)
    const res = await t.request('PUT', `${PATH}${type.id}/`, {
      token: t.seed.adminToken,
      body: {
        name: 'Annual',
        status: 'RET',
        purchase_type: 'REC',
        interval: 'YRL',
        price: '700',
        location_id: gym.id,
        access_hours: [{ day: 'SUN', start: '00:00', end: '12:00' }],
      },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      typeBody(type.id, {
        name: 'Annual',
        status: 'RET',
        interval: 'YRL',
        price: '700.00',
        location_id: gym.id,
        location_name: 'Uptown',
        location_url: `${ORIGIN}/api/gyms/${gym.id}/`,
        access_hours: [{ day: 'SUN', start: '00:00', end: '12:00' }],
        guest_passes_per_month: 3,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
  })

  test('PATCH from recurring to prepaid clears the interval; null access hours mean any time', async () => {
    const type = await makeMembershipType(t.db, {
      access_hours: JSON.stringify([{ day: 'MON', start: '06:00', end: '10:00' }]),
      location_id: t.seed.gym.id,
    })
    t.clock.advance(60_000)
    const res = await t.request('PATCH', `${PATH}${type.id}/`, {
      token: t.seed.adminToken,
      body: { purchase_type: 'PRE', access_hours: null, location_id: null, duration_days: 30 },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      typeBody(type.id, {
        purchase_type: 'PRE',
        interval: '',
        duration_days: 30,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
  })

  test('filters: status and purchase_type (case-insensitive), is_group', async () => {
    const monthly = await makeMembershipType(t.db)
    const family = await makeMembershipType(t.db, { name: 'Family', is_group: 1 })
    const punch = await makeMembershipType(t.db, {
      name: 'Old Prepaid',
      status: 'RET',
      purchase_type: 'PRE',
      interval: '',
    })
    const ids = listIds(t, PATH)
    expect(await ids('')).toEqual([monthly.id, family.id, punch.id])
    expect(await ids('status=act')).toEqual([monthly.id, family.id])
    expect(await ids('status=RET')).toEqual([punch.id])
    expect(await ids('purchase_type=pre')).toEqual([punch.id])
    expect(await ids('is_group=TRUE')).toEqual([family.id])
    expect(await ids('is_group=false&purchase_type=REC')).toEqual([monthly.id])
  })
})
