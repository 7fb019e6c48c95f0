import { beforeEach, describe, expect, test } from 'bun:test'
import type { EventType } from '../../../src/db/schema.ts'
import { ONE_MINUTE_LATER, ORIGIN } from '../../helpers/app.ts'
import {
  cannotChange,
  doesNotExist,
  invalidBoolean,
  invalidDate,
  invalidInteger,
  minValue,
  notNull,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import {
  customerRecordSuite,
  expiryDefaults,
  useCustomerRecordFixture,
} from '../../helpers/customer-record-checks.ts'
import { makeEventVoucher } from '../../helpers/customer-record-factories.ts'
import { makeEventType, makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import { type RefusedPost, testEachRefusedPost, useSeededApp } from '../../helpers/seeded.ts'

/**
 * /api/customers/<customer_id>/event-vouchers/: list, read,
 * create, replace, update; no DELETE (is_removed instead). event_type_id and number_of_uses_total
 * are required and fixed at creation; number_of_uses_remaining starts at the total; is_expired and
 * the date strings are read in the zone of the event type's gym. Order: 401 -> 400 -> 403 ->
 * 404/405 -> success.
 */

const t = useSeededApp()
const f = useCustomerRecordFixture(t)

/** An event type in the seeded gym (America/Denver). */
let eventType: EventType

beforeEach(async () => {
  eventType = await makeEventType(t.db, { name: 'Youth Team Practice', gym_id: t.seed.gym.id })
})

const valid = () => ({ event_type_id: eventType.id, number_of_uses_total: 3 })

const suite = customerRecordSuite(t, f, {
  name: 'event-vouchers',
  table: 'customer_event_vouchers',
  valid,
  make: async (customerId) => (await makeEventVoucher(t.db, customerId, { event_type_id: eventType.id })).id,
  writes: ['PUT', 'PATCH'],
})
const { recordPath, post, read, count: voucherCount } = suite

/** The whole record as the API answers it: the factory's 5-use voucher for `eventType`, then overrides. */
function voucherBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}${recordPath(id)}`,
    event_type_id: eventType.id,
    event_type_url: `${ORIGIN}/api/event-types/${eventType.id}/`,
    event_type_name: 'Youth Team Practice',
    number_of_uses_total: 5,
    number_of_uses_remaining: 5,
    ...expiryDefaults,
    ...fields,
  }
}

const makeVoucher = (fields: Parameters<typeof makeEventVoucher>[2] = {}) =>
  makeEventVoucher(t.db, f.customer.id, { event_type_id: eventType.id, ...fields })

suite.describeUnauthenticated()

describe('event-vouchers 400', () => {
  test('POST with an empty body needs event_type_id and number_of_uses_total', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ event_type_id: required, number_of_uses_total: required })
    expect(await voucherCount()).toBe(0)
  })

  const cases: RefusedPost[] = [
    [
      'an unknown event type',
      () => ({ ...valid(), event_type_id: 999 }),
      { event_type_id: doesNotExist(999) },
    ],
    [
      'a non-integer event_type_id',
      () => ({ ...valid(), event_type_id: 'x' }),
      { event_type_id: invalidInteger },
    ],
    ['a null event_type_id', () => ({ ...valid(), event_type_id: null }), { event_type_id: notNull }],
    ['0 uses', () => ({ ...valid(), number_of_uses_total: 0 }), { number_of_uses_total: minValue(1) }],
    ['-2 uses', () => ({ ...valid(), number_of_uses_total: -2 }), { number_of_uses_total: minValue(1) }],
    [
      '"many" uses',
      () => ({ ...valid(), number_of_uses_total: 'many' }),
      { number_of_uses_total: invalidInteger },
    ],
    ['a bad expiry_date', () => ({ ...valid(), expiry_date: '2026-11-31' }), { expiry_date: invalidDate }],
    ['is_removed "x"', () => ({ ...valid(), is_removed: 'x' }), { is_removed: invalidBoolean }],
    [
      'an unknown event type, 0 uses and a bad date (all reported)',
      () => ({ event_type_id: 999, number_of_uses_total: 0, expiry_date: 'x' }),
      { event_type_id: doesNotExist(999), number_of_uses_total: minValue(1), expiry_date: invalidDate },
    ],
  ]

  testEachRefusedPost(cases, { post, count: voucherCount })

  test('PUT needs event_type_id and number_of_uses_total', async () => {
    const voucher = await makeVoucher()
    const res = await t.request('PUT', recordPath(voucher.id), {
      token: f.membersToken,
      body: { is_removed: true },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ event_type_id: required, number_of_uses_total: required })
    expect(await read(voucher.id)).toEqual(voucherBody(voucher.id))
  })

  test('PUT and PATCH with a different event type or number of uses are 400 and change nothing', async () => {
    const other = await makeEventType(t.db, { name: 'Yoga', gym_id: t.seed.gym.id })
    const voucher = await makeVoucher()
    t.clock.advance(60_000)
    const cases: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
      ['PUT', { event_type_id: other.id, number_of_uses_total: 5 }, { event_type_id: cannotChange }],
      [
        'PUT',
        { event_type_id: eventType.id, number_of_uses_total: 6 },
        { number_of_uses_total: cannotChange },
      ],
      [
        'PATCH',
        { event_type_id: other.id, number_of_uses_total: 1, is_removed: true },
        { event_type_id: cannotChange, number_of_uses_total: cannotChange },
      ],
      // An event type that does not exist cannot be the voucher's either: the same answer.
      ['PATCH', { event_type_id: 999 }, { event_type_id: cannotChange }],
      [
        'PATCH',
        { number_of_uses_total: 0, expiry_date: 'x' },
        { number_of_uses_total: minValue(1), expiry_date: invalidDate },
      ],
    ]
    for (const [method, body, errors] of cases) {
      const res = await t.request(method, recordPath(voucher.id), { token: f.membersToken, body })
      expect({ method, body, status: res.status, errors: res.body }).toEqual({
        method,
        body,
        status: 400,
        errors,
      })
    }
    expect(await read(voucher.id)).toEqual(voucherBody(voucher.id))
  })
})

suite.describeForbidden()
suite.describeNotFoundAndNotAllowed()

describe('event-vouchers success', () => {
  test('POST by a can_manage_members user: all uses remain, created_by is that user', async () => {
    const user = await makeUser(t.db, { email: 'coach@gym.example', can_manage_members: 1 })
    const res = await post(valid(), await makeToken(t.db, user))
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      voucherBody(res.body.id, {
        number_of_uses_total: 3,
        number_of_uses_remaining: 3,
        created_by_id: user.id,
        created_by_email: 'coach@gym.example',
      }),
    )
    expect(await read(res.body.id)).toEqual(res.body)
  })

  test('POST by an admin with every field; read-only fields sent are ignored', async () => {
    const res = await post(
      {
        ...valid(),
        number_of_uses_total: 1,
        expiry_date: '2027-01-15',
        is_removed: true,
        number_of_uses_remaining: 9,
      },
      t.seed.adminToken,
    )
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      voucherBody(res.body.id, {
        number_of_uses_total: 1,
        number_of_uses_remaining: 1,
        expiry_date: '2027-01-15',
        expiry_date_str: 'Jan 15, 2027',
        is_removed: true,
        created_by_id: t.seed.admin.id,
        created_by_email: 'admin@gym.example',
      }),
    )
  })

  test('PUT with the same event type and uses sets the expiry and removes the voucher', async () => {
    const voucher = await makeVoucher({ number_of_uses_remaining: 2 })
    t.clock.advance(60_000)
    const res = await t.request('PUT', recordPath(voucher.id), {
      token: f.membersToken,
      body: {
        event_type_id: eventType.id,
        number_of_uses_total: 5,
        expiry_date: '2026-12-24',
        is_removed: true,
      },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      voucherBody(voucher.id, {
        number_of_uses_remaining: 2,
        expiry_date: '2026-12-24',
        expiry_date_str: 'Dec 24, 2026',
        is_removed: true,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
  })

  test('PATCH clears the expiry and restores the voucher', async () => {
    const voucher = await makeVoucher({ expiry_date: '2026-01-01', is_removed: 1 })
    t.clock.advance(60_000)
    const res = await t.request('PATCH', recordPath(voucher.id), {
      token: f.membersToken,
      body: { expiry_date: null, is_removed: false, number_of_uses_total: 5 },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(voucherBody(voucher.id, { updated_at: ONE_MINUTE_LATER }))
  })

  test("the list holds this customer's vouchers only, in id order", async () => {
    const first = await makeVoucher()
    await makeEventVoucher(t.db, f.other.id, { event_type_id: eventType.id })
    const second = await makeVoucher({
      number_of_uses_remaining: 0,
      expiry_date: '2026-11-01',
      created_by_id: t.seed.staff.id,
    })
    expect(await suite.list()).toEqual(
      onePage([
        voucherBody(first.id),
        voucherBody(second.id, {
          number_of_uses_remaining: 0,
          expiry_date: '2026-11-01',
          expiry_date_str: 'Nov 1, 2026',
          is_expired: true,
          created_by_id: t.seed.staff.id,
          created_by_email: 'desk@gym.example',
        }),
      ]),
    )
  })
})

describe('event-vouchers expiry, read in the zone of the event type gym', () => {
  test('in Denver, a voucher expiring today is usable until local midnight', async () => {
    const voucher = await makeVoucher({ expiry_date: '2026-11-22' })
    expect((await read(voucher.id)).is_expired).toBe(false)
    t.clock.set('2026-11-23T06:59:59.999Z')
    expect((await read(voucher.id)).is_expired).toBe(false)
    t.clock.set('2026-11-23T07:00:00.000Z')
    expect((await read(voucher.id)).is_expired).toBe(true)
  })

  test("an event type in a Tokyo gym: Tokyo's day decides, whatever the customer's home gym", async () => {
    const tokyo = await makeGym(t.db, { name: 'Tokyo', time_zone: 'Asia/Tokyo' })
    const tokyoType = await makeEventType(t.db, { name: 'Tokyo Comp', gym_id: tokyo.id })
    const voucher = await makeEventVoucher(t.db, f.customer.id, {
      event_type_id: tokyoType.id,
      expiry_date: '2026-11-22',
    })
    expect(await read(voucher.id)).toEqual(
      voucherBody(voucher.id, {
        event_type_id: tokyoType.id,
        event_type_url: `${ORIGIN}/api/event-types/${tokyoType.id}/`,
        event_type_name: 'Tokyo Comp',
        expiry_date: '2026-11-22',
        expiry_date_str: 'Nov 22, 2026',
        is_expired: true,
        date_added_str: 'Nov 23, 2026',
      }),
    )
  })
})
