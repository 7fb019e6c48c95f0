import { describe, expect, test } from 'bun:test'
import { START } from '../../helpers/app.ts'
import { invalidToken } from '../../helpers/bodies.ts'
import { makeAlert, makeCustomer } from '../../helpers/customer-factories.ts'
import {
  admittedBody,
  barcodePath,
  lookUpPath,
  makeDoorCustomer,
  makeMembershipFor,
  makePassFor,
  makeReservationNow,
  openDoorPath,
  setOrganization,
  storedCheckIns,
  storedCheckInTotals,
} from '../../helpers/door-factories.ts'
import { makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import {
  expectEachNotAllowed,
  expectUnauthenticated,
  testEachNeedsTokenApart,
  useSeededApp,
} from '../../helpers/seeded.ts'

/*
 * POST /api/gym-endpoints/barcode-check-in/<barcode>/:
 * authentication, methods, the whole 200 body for each entry method, the check-in it stores, the
 * location it is recorded at. Webhook outbox rows: door-webhooks.test.ts. Refusals:
 * door-refusals.test.ts. The fixed clock reads 2026-11-22T15:04:05.123Z, Sunday 08:04:05
 * in Denver (MST, -07:00).
 */

const t = useSeededApp()

const scan = (barcode: string, body?: unknown, token = t.seed.staffToken) =>
  t.request('POST', barcodePath(barcode), { token, ...(body === undefined ? {} : { body }) })

/** A customer (barcode "LYNN1") with a waiver, an ACT Monthly Adult membership and 4 earlier check-ins. */
async function member(fields: Parameters<typeof makeDoorCustomer>[2] = {}) {
  const customer = await makeDoorCustomer(t.db, 'LYNN1', {
    check_in_count: 4,
    first_check_in_timestamp: '2026-01-05T16:00:00.000Z',
    ...fields,
  })
  const membership = await makeMembershipFor(t.db, customer.id)
  return { customer, membership }
}

describe('authentication and methods', () => {
  testEachNeedsTokenApart(t, [['POST', barcodePath('LYNN1')]])

  test("an inactive staff user's token is 401 Invalid token", async () => {
    await member()
    const user = await makeUser(t.db, { is_active: 0 })
    expectUnauthenticated(await scan('LYNN1', {}, await makeToken(t.db, user)), invalidToken)
    expect(await storedCheckIns(t.db)).toEqual([])
  })

  test('any active staff user may use the door endpoints: never 403', async () => {
    // The seed's desk user has no permission flag at all.
    const { customer } = await member()
    const res = await scan('LYNN1')
    expect(res.status).toBe(200)
    expect((await t.request('POST', openDoorPath('LYNN1'), { token: t.seed.staffToken })).status).toBe(200)
    const lookUp = await t.request('GET', lookUpPath('LYNN1'), { token: t.seed.staffToken })
    expect(lookUp.status).toBe(200)
    expect(res.body.customer_id).toBe(customer.id)
  })

  test('GET, PUT, PATCH and DELETE are 405', async () => {
    await member()
    const path = barcodePath('LYNN1')
    await expectEachNotAllowed(t, t.seed.staffToken, [
      ['GET', path],
      ['PUT', path, {}],
      ['PATCH', path, {}],
      ['DELETE', path],
    ])
    expect(await storedCheckIns(t.db)).toEqual([])
  })

  test('the path without its final slash is served the same', async () => {
    const { customer } = await member()
    const res = await t.request('POST', '/api/gym-endpoints/barcode-check-in/LYNN1', {
      token: t.seed.staffToken,
    })
    const [row] = await storedCheckIns(t.db)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(admittedBody(row!.id, customer, { check_in_count: 5 }))
  })

  test('a barcode with a space and a slash, percent-encoded in the path', async () => {
    const customer = await makeDoorCustomer(t.db, 'A B/7')
    await makeMembershipFor(t.db, customer.id)
    const res = await scan(encodeURIComponent('A B/7'))
    const [row] = await storedCheckIns(t.db)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(admittedBody(row!.id, customer, { milestones: '1st check-in' }))
  })
})

describe('success: 200 with the whole body', () => {
  test('MEM: a member, with the alerts that do not prevent check-in shown to staff', async () => {
    const { customer, membership } = await member()
    await makeAlert(t.db, customer.id, {
      alert_text: 'Birthday today',
      color_hex: '00FF00',
      created_date: '2026-11-20',
    })
    await makeAlert(t.db, customer.id, { alert_text: 'Old note', is_active: 0 })
    await makeAlert(t.db, customer.id, { alert_text: 'Old ban', prevents_check_in: 1, is_active: 0 })

    const res = await scan('LYNN1')

    const rows = await storedCheckIns(t.db)
    expect(rows).toHaveLength(1)
    const row = rows[0]!
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      admittedBody(row.id, customer, {
        check_in_count: 5,
        customer_alerts: [
          {
            alert_text: 'Birthday today',
            created_date: '2026-11-20',
            color_hex: '00FF00',
            prevents_check_in: false,
          },
        ],
      }),
    )
    expect(row).toMatchObject({
      customer_id: customer.id,
      gym_id: t.seed.gym.id,
      entry_method: 'MEM',
      entry_method_description: 'Monthly Adult',
      customer_membership_id: membership.id,
      customer_entry_pass_id: null,
      reservation_id: null,
      host_customer_id: null,
      free_entry_reason: '',
      free_entry_granting_user_id: null,
      milestone_list: '[]',
      check_in_count: 5,
      local_date: '2026-11-22',
      local_time: '08:04:05',
      checked_in_by_id: t.seed.staff.id,
      check_out_at: null,
      created_at: START,
      updated_at: START,
    })
    // The running total goes up; the first check-in time stays the first one's.
    expect(await storedCheckInTotals(t.db, customer.id)).toEqual({
      check_in_count: 5,
      first_check_in_timestamp: '2026-01-05T16:00:00.000Z',
    })
  })

  test('ENT: one entry is taken from the pass expiring soonest; "<name> (<N> remaining)"', async () => {
    const customer = await makeDoorCustomer(t.db, 'LYNN1', { email: null, check_in_count: 4 })
    const later = await makePassFor(t.db, customer.id, { expiry_date: '2027-06-30' })
    const sooner = await makePassFor(t.db, customer.id, {
      type_name: '5-Punch Card',
      entries_total: 5,
      entries_remaining: 3,
      expiry_date: '2026-12-31',
    })
    const expired = await makePassFor(t.db, customer.id, { type_name: 'Old Card', expiry_date: '2026-11-21' })

    const res = await scan('LYNN1')

    const [row] = await storedCheckIns(t.db)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      admittedBody(row!.id, customer, {
        customer_email: null,
        entry_method: 'ENT',
        entry_method_description: '5-Punch Card (2 remaining)',
        check_in_count: 5,
      }),
    )
    expect(row).toMatchObject({
      entry_method: 'ENT',
      customer_entry_pass_id: sooner.id,
      customer_membership_id: null,
    })
    const remaining = await t.db
      .selectFrom('customer_entry_passes')
      .select(['id', 'entries_remaining'])
      .orderBy('id')
      .execute()
    expect(remaining).toEqual([
      { id: later.id, entries_remaining: 10 },
      { id: sooner.id, entries_remaining: 2 },
      { id: expired.id, entries_remaining: 10 },
    ])
  })

  test('ENT: a pass someone else bought says "<name> from <purchaser> (<N> remaining)"', async () => {
    const beth = await makeCustomer(t.db, { first_name: 'Beth', last_name: 'Rodden' })
    const customer = await makeDoorCustomer(t.db, 'LYNN1', { check_in_count: 4 })
    await makePassFor(t.db, customer.id, { purchaser_id: beth.id, entries_total: 1, entries_remaining: 1 })

    const res = await scan('LYNN1')

    const [row] = await storedCheckIns(t.db)
    expect(res.body).toEqual(
      admittedBody(row!.id, customer, {
        entry_method: 'ENT',
        entry_method_description: '10-Punch Card from Beth Rodden (0 remaining)',
        check_in_count: 5,
      }),
    )
    const pass = await t.db
      .selectFrom('customer_entry_passes')
      .select('entries_remaining')
      .executeTakeFirstOrThrow()
    expect(pass.entries_remaining).toBe(0)
  })

  test('EVE: a reservation happening now that includes entry comes first and is marked checked in', async () => {
    // A member too: the reservation still wins (issue 4: EVE, then MEM, then ENT).
    const { customer } = await member()
    const { event, reservation } = await makeReservationNow(t.db, customer.id, t.seed.gym.id)

    const res = await scan('LYNN1')

    const [row] = await storedCheckIns(t.db)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      admittedBody(row!.id, customer, {
        entry_method: 'EVE',
        entry_method_description: 'Intro to Bouldering',
        check_in_count: 5,
        has_any_automatic_check_ins: true,
        reservations: [
          {
            id: reservation.id,
            event_id: event.id,
            event_name: 'Intro to Bouldering',
            start_datetime: '2026-11-22T15:00:00.000Z',
            end_datetime: '2026-11-22T16:30:00.000Z',
          },
        ],
      }),
    )
    expect(row).toMatchObject({
      entry_method: 'EVE',
      reservation_id: reservation.id,
      customer_membership_id: null,
    })
    const stored = await t.db
      .selectFrom('reservations')
      .select(['checked_in', 'updated_at'])
      .where('id', '=', reservation.id)
      .executeTakeFirstOrThrow()
    expect(stored).toEqual({ checked_in: 1, updated_at: START })
  })

  test('a reservation without entry is listed but a membership lets the member in', async () => {
    const { customer } = await member()
    const { event, reservation } = await makeReservationNow(t.db, customer.id, t.seed.gym.id, {
      event: { name: 'Yoga', includes_entry: 0 },
    })
    // Past events, cancelled reservations and other gyms' events are not "happening now here".
    await makeReservationNow(t.db, customer.id, t.seed.gym.id, {
      event: { start_at: '2026-11-22T13:00:00.000Z', end_at: '2026-11-22T15:04:05.123Z' },
    })
    await makeReservationNow(t.db, customer.id, t.seed.gym.id, { reservation: { is_cancelled: 1 } })
    const north = await makeGym(t.db, { name: 'Boulder Barn North' })
    await makeReservationNow(t.db, customer.id, north.id)

    const res = await scan('LYNN1')

    const [row] = await storedCheckIns(t.db)
    expect(res.body).toEqual(
      admittedBody(row!.id, customer, {
        check_in_count: 5,
        reservations: [
          {
            id: reservation.id,
            event_id: event.id,
            event_name: 'Yoga',
            start_datetime: '2026-11-22T15:00:00.000Z',
            end_datetime: '2026-11-22T16:30:00.000Z',
          },
        ],
      }),
    )
  })

  test('first-ever check-in: milestone "1st check-in", count 1, first_check_in_timestamp set once', async () => {
    const { customer } = await member({ check_in_count: 0, first_check_in_timestamp: null })

    const first = await scan('LYNN1')
    t.clock.advance(10 * 60_000)
    const second = await scan('LYNN1')

    const [row1, row2] = await storedCheckIns(t.db)
    expect(first.body).toEqual(
      admittedBody(row1!.id, customer, { milestones: '1st check-in', check_in_count: 1 }),
    )
    expect(second.body).toEqual(admittedBody(row2!.id, customer, { check_in_count: 2 }))
    expect(row1).toMatchObject({ milestone_list: '["1st check-in"]', check_in_count: 1 })
    expect(row2).toMatchObject({ milestone_list: '[]', check_in_count: 2 })
    expect(await storedCheckInTotals(t.db, customer.id)).toEqual({
      check_in_count: 2,
      first_check_in_timestamp: START,
    })
  })

  test("milestones come from the organization's list", async () => {
    const { customer } = await member({ check_in_count: 9 })
    const tenth = await scan('LYNN1')
    expect(tenth.body.milestones).toBe('10th check-in')

    await setOrganization(t.db, { milestones: [11, 12] })
    t.clock.advance(6 * 60_000)
    const eleventh = await scan('LYNN1')
    const rows = await storedCheckIns(t.db)
    expect(eleventh.body).toEqual(
      admittedBody(rows[1]!.id, customer, { milestones: '11th check-in', check_in_count: 11 }),
    )
  })
})

describe('the location', () => {
  test('without location_id a single-gym organization uses its gym', async () => {
    await member()
    const res = await scan('LYNN1')
    expect(res.status).toBe(200)
    expect((await storedCheckIns(t.db)).map((r) => r.gym_id)).toEqual([t.seed.gym.id])
  })

  test("with two gyms and no location_id, the requesting user's default gym", async () => {
    await member()
    const north = await makeGym(t.db, { name: 'Boulder Barn North' })
    const northDesk = await makeUser(t.db, { default_gym_id: north.id })

    expect((await scan('LYNN1', undefined, await makeToken(t.db, northDesk))).status).toBe(200)
    // The seed's desk user's default gym is the first one: a different gym, so no duplicate.
    expect((await scan('LYNN1', {})).status).toBe(200)

    expect((await storedCheckIns(t.db)).map((r) => r.gym_id)).toEqual([north.id, t.seed.gym.id])
  })

  test("a location_id wins over the user's default gym", async () => {
    await member()
    const north = await makeGym(t.db, { name: 'Boulder Barn North' })
    expect((await scan('LYNN1', { location_id: north.id })).status).toBe(200)
    expect((await storedCheckIns(t.db)).map((r) => r.gym_id)).toEqual([north.id])
  })

  test("local_date and local_time are the gym's calendar day and wall clock", async () => {
    await member()
    const tokyo = await makeGym(t.db, { name: 'Boulder Barn Tokyo', time_zone: 'Asia/Tokyo' })
    await scan('LYNN1', { location_id: tokyo.id })
    // 15:04:05 UTC is 00:04:05 on the 23rd in Tokyo.
    expect((await storedCheckIns(t.db)).map((r) => [r.local_date, r.local_time])).toEqual([
      ['2026-11-23', '00:04:05'],
    ])
  })
})
