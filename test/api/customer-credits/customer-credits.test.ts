import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  cannotChange,
  invalidBoolean,
  invalidDate,
  invalidNumber,
  maxDecimalPlaces,
  notNull,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import {
  customerRecordSuite,
  expiryDefaults,
  useCustomerRecordFixture,
} from '../../helpers/customer-record-checks.ts'
import { makeCredit } from '../../helpers/customer-record-factories.ts'
import { makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import { type RefusedPost, testEachRefusedPost, useSeededApp } from '../../helpers/seeded.ts'

/**
 * /api/customers/<customer_id>/credits/: list, read,
 * create, replace, update; no DELETE (is_removed instead). amount_total is a JSON number, greater
 * than 0, fixed at creation; is_expired and the date strings are read in the customer's home gym's
 * zone, else the organization's. Order: 401 -> 400 -> 403 -> 404/405 -> success.
 */

const t = useSeededApp()
const f = useCustomerRecordFixture(t)

const suite = customerRecordSuite(t, f, {
  name: 'credits',
  table: 'customer_credits',
  valid: () => ({ amount_total: 25 }),
  make: async (customerId) => (await makeCredit(t.db, customerId)).id,
  writes: ['PUT', 'PATCH'],
})
const { path, recordPath, post, read, count: creditCount } = suite

/** The whole record as the API answers it: a 25.00 credit of the fixture customer, then overrides. */
function creditBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}${recordPath(id)}`,
    amount_total: 25,
    amount_remaining: 25,
    ...expiryDefaults,
    ...fields,
  }
}

const greaterThanZero = ['Ensure this value is greater than 0.']
const eightWholeDigits = ['Ensure that there are no more than 8 digits before the decimal point.']

suite.describeUnauthenticated()

describe('credits 400', () => {
  test('POST with an empty body needs amount_total', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ amount_total: required })
    expect(await creditCount()).toBe(0)
  })

  const cases: RefusedPost[] = [
    ['amount_total 0', { amount_total: 0 }, { amount_total: greaterThanZero }],
    ['a negative amount_total', { amount_total: -5 }, { amount_total: greaterThanZero }],
    ['amount_total null', { amount_total: null }, { amount_total: notNull }],
    ['amount_total "abc"', { amount_total: 'abc' }, { amount_total: invalidNumber }],
    ['amount_total with three decimals', { amount_total: 12.345 }, { amount_total: maxDecimalPlaces(2) }],
    ['amount_total of a tenth of a cent', { amount_total: 0.001 }, { amount_total: maxDecimalPlaces(2) }],
    ['amount_total of 100,000,000', { amount_total: 100000000 }, { amount_total: eightWholeDigits }],
    ['expiry_date 2026-02-30', { amount_total: 5, expiry_date: '2026-02-30' }, { expiry_date: invalidDate }],
    ['expiry_date "tomorrow"', { amount_total: 5, expiry_date: 'tomorrow' }, { expiry_date: invalidDate }],
    [
      'expiry_date as a datetime',
      { amount_total: 5, expiry_date: '2026-12-31T00:00:00Z' },
      { expiry_date: invalidDate },
    ],
    ['is_removed "x"', { amount_total: 5, is_removed: 'x' }, { is_removed: invalidBoolean }],
  ]

  testEachRefusedPost(cases, { post, count: creditCount })

  test('every failing field is reported in one body', async () => {
    const res = await post({ amount_total: 0, expiry_date: 'soon', is_removed: 'x' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      amount_total: greaterThanZero,
      expiry_date: invalidDate,
      is_removed: invalidBoolean,
    })
  })

  test('PUT needs amount_total', async () => {
    const credit = await makeCredit(t.db, f.customer.id)
    const res = await t.request('PUT', recordPath(credit.id), {
      token: f.membersToken,
      body: { is_removed: true },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ amount_total: required })
    expect(await read(credit.id)).toEqual(creditBody(credit.id))
  })

  test('PUT and PATCH with a different amount_total are 400 and change nothing', async () => {
    const credit = await makeCredit(t.db, f.customer.id)
    t.clock.advance(60_000)
    for (const [method, body] of [
      ['PUT', { amount_total: 30, is_removed: true }],
      ['PATCH', { amount_total: 25.01, expiry_date: '2027-01-31' }],
      ['PATCH', { amount_total: '24.99' }],
    ] as const) {
      const res = await t.request(method, recordPath(credit.id), { token: f.membersToken, body })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ amount_total: cannotChange })
    }
    expect(await read(credit.id)).toEqual(creditBody(credit.id))
  })

  test('a changed amount_total is reported with the other failing fields', async () => {
    const credit = await makeCredit(t.db, f.customer.id)
    const res = await t.request('PATCH', recordPath(credit.id), {
      token: f.membersToken,
      body: { amount_total: 30, expiry_date: '31/12/2026' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ amount_total: cannotChange, expiry_date: invalidDate })
  })

  test('PATCH with a bad value changes nothing', async () => {
    const credit = await makeCredit(t.db, f.customer.id)
    const res = await t.request('PATCH', recordPath(credit.id), {
      token: f.membersToken,
      body: { is_removed: true, expiry_date: 'never' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ expiry_date: invalidDate })
    expect(await read(credit.id)).toEqual(creditBody(credit.id))
  })
})

suite.describeForbidden()
suite.describeNotFoundAndNotAllowed()

describe('credits success', () => {
  test('POST by a can_manage_members user: amount_remaining starts at the total, created_by is that user', async () => {
    const user = await makeUser(t.db, { email: 'frontdesk@gym.example', can_manage_members: 1 })
    const res = await post({ amount_total: 12.5 }, await makeToken(t.db, user))
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      creditBody(res.body.id, {
        amount_total: 12.5,
        amount_remaining: 12.5,
        created_by_id: user.id,
        created_by_email: 'frontdesk@gym.example',
      }),
    )
    expect(await read(res.body.id)).toEqual(res.body)
    const stored = await t.db.selectFrom('customer_credits').selectAll().executeTakeFirstOrThrow()
    expect(stored).toMatchObject({ amount_total_cents: 1250, amount_remaining_cents: 1250 })
  })

  test('POST by an admin with every field; a numeric string amount is read as a number', async () => {
    const res = await post(
      { amount_total: '40.10', expiry_date: '2026-12-31', is_removed: false },
      t.seed.adminToken,
    )
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      creditBody(res.body.id, {
        amount_total: 40.1,
        amount_remaining: 40.1,
        expiry_date: '2026-12-31',
        expiry_date_str: 'Dec 31, 2026',
        created_by_id: t.seed.admin.id,
        created_by_email: 'admin@gym.example',
      }),
    )
  })

  test('the smallest and largest amounts are accepted', async () => {
    for (const amount of [0.01, 99999999.99]) {
      const res = await post({ amount_total: amount })
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({ amount_total: amount, amount_remaining: amount })
    }
  })

  test('PUT with the same amount sets the expiry and removes the credit; updated_at moves', async () => {
    const credit = await makeCredit(t.db, f.customer.id, { amount_remaining_cents: 1000 })
    t.clock.advance(60_000)
    const res = await t.request('PUT', recordPath(credit.id), {
      token: f.membersToken,
      body: { amount_total: 25, expiry_date: '2027-03-01', is_removed: true },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      creditBody(credit.id, {
        amount_remaining: 10,
        expiry_date: '2027-03-01',
        expiry_date_str: 'Mar 1, 2027',
        is_removed: true,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
  })

  test('PUT without expiry_date or is_removed keeps them', async () => {
    const credit = await makeCredit(t.db, f.customer.id, { expiry_date: '2027-03-01', is_removed: 1 })
    const res = await t.request('PUT', recordPath(credit.id), {
      token: f.membersToken,
      body: { amount_total: 25 },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      creditBody(credit.id, { expiry_date: '2027-03-01', expiry_date_str: 'Mar 1, 2027', is_removed: true }),
    )
  })

  test('PATCH clears the expiry and restores a removed credit; the same amount may be sent as "25.00"', async () => {
    const credit = await makeCredit(t.db, f.customer.id, { expiry_date: '2026-01-01', is_removed: 1 })
    t.clock.advance(60_000)
    const res = await t.request('PATCH', recordPath(credit.id), {
      token: f.membersToken,
      body: { amount_total: '25.00', expiry_date: null, is_removed: false },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(creditBody(credit.id, { updated_at: ONE_MINUTE_LATER }))
  })

  test('amount_remaining is read-only: sent values are ignored', async () => {
    const res = await post({ amount_total: 10, amount_remaining: 3, created_by_id: 999 })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ amount_total: 10, amount_remaining: 10 })
    expect(res.body.created_by_id).not.toBe(999)
  })

  test("the list holds this customer's credits only, in id order, removed ones included", async () => {
    const first = await makeCredit(t.db, f.customer.id)
    await makeCredit(t.db, f.other.id)
    const second = await makeCredit(t.db, f.customer.id, {
      amount_total_cents: 1999,
      amount_remaining_cents: 0,
      is_removed: 1,
      created_by_id: t.seed.staff.id,
    })
    expect(await suite.list()).toEqual(
      onePage([
        creditBody(first.id),
        creditBody(second.id, {
          amount_total: 19.99,
          amount_remaining: 0,
          is_removed: true,
          created_by_id: t.seed.staff.id,
          created_by_email: 'desk@gym.example',
        }),
      ]),
    )
  })

  test('the list pages, keeping its links under the customer', async () => {
    const ids = []
    for (let i = 0; i < 3; i += 1) ids.push((await makeCredit(t.db, f.customer.id)).id)
    const res = await t.request('GET', `${path()}?page_size=2`, { token: t.seed.staffToken })
    expect(res.body).toEqual({
      count: 3,
      next: `${ORIGIN}${path()}?page_size=2&page=2`,
      previous: null,
      results: [creditBody(ids[0]!), creditBody(ids[1]!)],
    })
  })
})

describe('credits expiry, read in the customer home gym zone (else the organization zone)', () => {
  const expiredAt = async (customerId: number, expiry: string, now: string) => {
    const credit = await makeCredit(t.db, customerId, { expiry_date: expiry })
    t.clock.set(now)
    return (await read(credit.id, customerId)).is_expired as boolean
  }

  // The fixture customer's home gym is in America/Denver (UTC-7 in November).
  const denverCases: Array<[string, string, string, boolean]> = [
    ['the day before today', '2026-11-21', START, true],
    ['today', '2026-11-22', START, false],
    ['tomorrow', '2026-11-23', START, false],
    ['today, at the last millisecond of the local day', '2026-11-22', '2026-11-23T06:59:59.999Z', false],
    ['today, once the local day is over', '2026-11-22', '2026-11-23T07:00:00.000Z', true],
    [
      'tomorrow, just after UTC midnight (still today in Denver)',
      '2026-11-22',
      '2026-11-23T00:30:00.000Z',
      false,
    ],
  ]
  for (const [name, expiry, now, expired] of denverCases) {
    test(`expiring ${name}: is_expired ${expired}`, async () => {
      expect(await expiredAt(f.customer.id, expiry, now)).toBe(expired)
    })
  }

  test('a home gym in Tokyo: the day there has already ended, and the credit was added on Nov 23', async () => {
    const tokyo = await makeGym(t.db, { name: 'Tokyo', time_zone: 'Asia/Tokyo' })
    const customer = await makeCustomer(t.db, { home_location_id: tokyo.id })
    const credit = await makeCredit(t.db, customer.id, { expiry_date: '2026-11-22' })
    expect(await read(credit.id, customer.id)).toEqual(
      creditBody(credit.id, {
        url: `${ORIGIN}${recordPath(credit.id, customer.id)}`,
        expiry_date: '2026-11-22',
        expiry_date_str: 'Nov 22, 2026',
        is_expired: true,
        date_added_str: 'Nov 23, 2026',
      }),
    )
  })

  test('no home gym: the organization zone decides', async () => {
    await t.db.updateTable('organization').set({ time_zone: 'Asia/Tokyo' }).execute()
    const customer = await makeCustomer(t.db, { home_location_id: null })
    expect(await expiredAt(customer.id, '2026-11-22', START)).toBe(true)
  })

  test('a home gym wins over the organization zone', async () => {
    await t.db.updateTable('organization').set({ time_zone: 'Asia/Tokyo' }).execute()
    expect(await expiredAt(f.customer.id, '2026-11-22', START)).toBe(false)
  })

  test('date_added_str is the local day of creation: late evening in Denver is still that day', async () => {
    t.clock.set('2026-12-01T06:30:00.000Z')
    const res = await post({ amount_total: 5 })
    expect(res.body).toMatchObject({ date_added_str: 'Nov 30, 2026', created_at: '2026-12-01T06:30:00.000Z' })
  })

  test('is_expired follows the clock: the same credit reads expired once the day is over', async () => {
    const credit = await makeCredit(t.db, f.customer.id, { expiry_date: '2026-11-22' })
    expect((await read(credit.id)).is_expired).toBe(false)
    t.clock.set('2026-11-23T08:00:00.000Z')
    expect((await read(credit.id)).is_expired).toBe(true)
  })
})
