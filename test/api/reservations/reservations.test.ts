import { beforeEach, describe, expect, test } from 'bun:test'
import { listReservationsHappeningNow } from '../../../src/api/reservations/queries.ts'
import type { Customer } from '../../../src/db/schema.ts'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  cannotChange,
  doesNotExist,
  invalidBoolean,
  notANumber,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { countRows, makeEventType, makeGym } from '../../helpers/factories.ts'
import { makeEvent, makeReservation } from '../../helpers/product-factories.ts'
import {
  expectEachForbidden,
  expectEachNotAllowed,
  expectEachNotFound,
  testEachNeedsToken,
  useSeededApp,
  useStaff,
} from '../../helpers/seeded.ts'

const t = useSeededApp()
const staff = useStaff(t, 'events', 'members')

const PATH = '/api/reservations/'
const count = () => countRows(t.db, 'reservations')

let climber: Customer
let friend: Customer
let intro: Awaited<ReturnType<typeof makeEvent>>
let eventTypeId: number

beforeEach(async () => {
  climber = await makeCustomer(t.db, { first_name: 'Ashima', last_name: 'Shiraishi' })
  friend = await makeCustomer(t.db, { first_name: 'Brooke', last_name: 'Raboutou' })
  eventTypeId = (await makeEventType(t.db, { gym_id: t.seed.gym.id })).id
  intro = await makeEvent(t.db, { event_type_id: eventTypeId, gym_id: t.seed.gym.id })
})

function reservationBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/reservations/${id}/`,
    event_id: intro.id,
    event_url: `${ORIGIN}/api/events/${intro.id}/`,
    event_name: 'Intro to Bouldering',
    event_start_at: '2026-11-22T15:00:00.000Z',
    event_end_at: '2026-11-22T16:30:00.000Z',
    gym_id: t.seed.gym.id,
    customer_id: climber.id,
    customer_url: `${ORIGIN}/api/customers/${climber.id}/`,
    customer_first_name: 'Ashima',
    customer_last_name: 'Shiraishi',
    includes_entry: true,
    is_cancelled: false,
    checked_in: false,
    answers: [],
    event_voucher_id: null,
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const reservation = (fields: Record<string, unknown> = {}) =>
  makeReservation(t.db, { event_id: intro.id, customer_id: climber.id, ...fields })

describe('/api/reservations/ 401', () => {
  const routes = [
    ['GET', PATH],
    ['GET', `${PATH}1/`],
    ['POST', PATH],
    ['PUT', `${PATH}1/`],
    ['PATCH', `${PATH}1/`],
    ['POST', `${PATH}1/cancel/`],
  ] as const
  testEachNeedsToken(t, routes)
})

describe('/api/reservations/ 400', () => {
  const post = (body: unknown) => t.request('POST', PATH, { token: staff.events.token, body })

  test('an empty body reports event_id and customer_id', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ event_id: required, customer_id: required })
  })

  test('unknown event and customer, a bad includes_entry, together', async () => {
    const res = await post({ event_id: 999, customer_id: 998, includes_entry: 'maybe' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      event_id: doesNotExist(999),
      customer_id: doesNotExist(998),
      includes_entry: invalidBoolean,
    })
    expect(await count()).toBe(0)
  })

  test('a cancelled event takes no reservations', async () => {
    await t.db.updateTable('events').set({ is_cancelled: 1 }).execute()
    const res = await post({ event_id: intro.id, customer_id: climber.id })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ event_id: ['This event is cancelled.'] })
  })

  test('one live reservation per customer and event; after cancelling, booking again works', async () => {
    const first = await reservation()
    const res = await post({ event_id: intro.id, customer_id: climber.id })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      non_field_errors: ['This customer already has a reservation for this event.'],
    })
    expect(await count()).toBe(1)
    await t.request('POST', `${PATH}${first.id}/cancel/`, { token: staff.events.token })
    expect((await post({ event_id: intro.id, customer_id: climber.id })).status).toBe(201)
  })

  test('PUT and PATCH cannot move a reservation; a refused change stores nothing', async () => {
    const r = await reservation()
    const other = await makeEvent(t.db, { event_type_id: eventTypeId, gym_id: t.seed.gym.id })
    for (const [method, body] of [
      ['PUT', { event_id: other.id, customer_id: friend.id, checked_in: true }],
      ['PATCH', { customer_id: friend.id, checked_in: true }],
    ] as const) {
      const res = await t.request(method, `${PATH}${r.id}/`, { token: staff.events.token, body })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(
        method === 'PUT'
          ? { event_id: cannotChange, customer_id: cannotChange }
          : { customer_id: cannotChange },
      )
    }
    expect((await t.request('GET', `${PATH}${r.id}/`, { token: t.seed.staffToken })).body).toEqual(
      reservationBody(r.id),
    )
  })

  test('cancel/ of a cancelled reservation is 400', async () => {
    const r = await reservation({ is_cancelled: 1 })
    const res = await t.request('POST', `${PATH}${r.id}/cancel/`, { token: staff.events.token })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ non_field_errors: ['This reservation is already cancelled.'] })
  })

  test('bad filters are 400', async () => {
    const res = await t.request('GET', `${PATH}?customer_id=x&event_id=y`, { token: t.seed.staffToken })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ customer_id: notANumber, event_id: notANumber })
  })
})

describe('/api/reservations/ 403, 404 and 405', () => {
  test('without can_manage_events nobody writes or cancels', async () => {
    const r = await reservation()
    const body = { event_id: intro.id, customer_id: friend.id }
    await expectEachForbidden(
      t,
      [t.seed.staffToken, staff.members.token],
      [
        ['POST', PATH, body],
        ['PUT', `${PATH}${r.id}/`, body],
        ['PATCH', `${PATH}${r.id}/`, body],
        ['POST', `${PATH}${r.id}/cancel/`, body],
      ],
    )
    expect(await count()).toBe(1)
    expect((await t.request('GET', `${PATH}${r.id}/`, { token: staff.members.token })).body).toEqual(
      reservationBody(r.id),
    )
  })

  test('unknown ids are 404; DELETE is 405', async () => {
    await expectEachNotFound(t, staff.events.token, [
      ['GET', `${PATH}999/`],
      ['PATCH', `${PATH}999/`, {}],
      ['POST', `${PATH}999/cancel/`, {}],
    ])
    const r = await reservation()
    await expectEachNotAllowed(t, t.seed.adminToken, [['DELETE', `${PATH}${r.id}/`]])
  })
})

describe('/api/reservations/ success', () => {
  test('any staff user lists and reads; filters by customer and event', async () => {
    const mine = await reservation()
    const theirs = await reservation({ customer_id: friend.id, includes_entry: 0 })
    const theirsBody = reservationBody(theirs.id, {
      customer_id: friend.id,
      customer_url: `${ORIGIN}/api/customers/${friend.id}/`,
      customer_first_name: 'Brooke',
      customer_last_name: 'Raboutou',
      includes_entry: false,
    })
    const list = await t.request('GET', PATH, { token: t.seed.staffToken })
    expect(list.body).toEqual(onePage([reservationBody(mine.id), theirsBody]))
    const byCustomer = await t.request('GET', `${PATH}?customer_id=${friend.id}`, {
      token: t.seed.staffToken,
    })
    expect(byCustomer.body).toEqual(onePage([theirsBody]))
    const byEvent = await t.request('GET', `${PATH}?event_id=${intro.id + 1}`, { token: t.seed.staffToken })
    expect(byEvent.body).toEqual(onePage([]))
  })

  test('POST books a place, including entry unless told', async () => {
    const res = await t.request('POST', PATH, {
      token: staff.events.token,
      body: { event_id: intro.id, customer_id: climber.id },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(reservationBody(res.body.id))
    const without = await t.request('POST', PATH, {
      token: t.seed.adminToken,
      body: { event_id: intro.id, customer_id: friend.id, includes_entry: false },
    })
    expect(without.body).toMatchObject({ customer_id: friend.id, includes_entry: false })
  })

  test('PUT and PATCH set includes_entry and checked_in; cancel/ answers the whole record', async () => {
    const r = await reservation()
    t.clock.advance(60_000)
    const put = await t.request('PUT', `${PATH}${r.id}/`, {
      token: staff.events.token,
      body: { event_id: intro.id, customer_id: climber.id, includes_entry: false },
    })
    expect(put.status).toBe(200)
    expect(put.body).toEqual(reservationBody(r.id, { includes_entry: false, updated_at: ONE_MINUTE_LATER }))
    const patch = await t.request('PATCH', `${PATH}${r.id}/`, {
      token: staff.events.token,
      body: { checked_in: true },
    })
    expect(patch.body).toEqual({ ...put.body, checked_in: true })
    const cancelled = await t.request('POST', `${PATH}${r.id}/cancel/`, { token: staff.events.token })
    expect(cancelled.status).toBe(200)
    expect(cancelled.body).toEqual({ ...patch.body, is_cancelled: true })
  })
})

describe('listReservationsHappeningNow (for the door)', () => {
  // The factory's event runs 15:00-16:30 UTC at the seeded gym.
  const DURING = '2026-11-22T15:30:00.000Z'

  test('the reservation of an event on now at that gym', async () => {
    const r = await reservation({ includes_entry: 0 })
    expect(await listReservationsHappeningNow(t.db, climber.id, t.seed.gym.id, DURING)).toEqual([
      {
        id: r.id,
        event_id: intro.id,
        customer_id: climber.id,
        includes_entry: 0,
        checked_in: 0,
        event_type_id: eventTypeId,
        gym_id: t.seed.gym.id,
        event_name: 'Intro to Bouldering',
        start_at: '2026-11-22T15:00:00.000Z',
        end_at: '2026-11-22T16:30:00.000Z',
        event_includes_entry: 1,
      },
    ])
  })

  const cases: Array<[string, string, number]> = [
    ['a second before the start', '2026-11-22T14:59:59.999Z', 0],
    ['at the start', '2026-11-22T15:00:00.000Z', 1],
    ['a moment before the end', '2026-11-22T16:29:59.999Z', 1],
    ['at the end', '2026-11-22T16:30:00.000Z', 0],
  ]
  for (const [name, now, expected] of cases) {
    test(`${name}: ${expected} found`, async () => {
      await reservation()
      expect(await listReservationsHappeningNow(t.db, climber.id, t.seed.gym.id, now)).toHaveLength(expected)
    })
  }

  test('not another gym, another customer, a cancelled reservation or a cancelled event', async () => {
    const uptown = await makeGym(t.db, { name: 'Uptown' })
    await reservation()
    const cancelledEvent = await makeEvent(t.db, {
      event_type_id: eventTypeId,
      gym_id: t.seed.gym.id,
      is_cancelled: 1,
    })
    await reservation({ event_id: cancelledEvent.id })
    const elsewhere = await makeEvent(t.db, { event_type_id: eventTypeId, gym_id: uptown.id })
    await reservation({ event_id: elsewhere.id })
    await reservation({ customer_id: friend.id, is_cancelled: 1 })
    expect(await listReservationsHappeningNow(t.db, climber.id, t.seed.gym.id, DURING)).toHaveLength(1)
    expect(await listReservationsHappeningNow(t.db, climber.id, uptown.id, DURING)).toHaveLength(1)
    expect(await listReservationsHappeningNow(t.db, friend.id, t.seed.gym.id, DURING)).toEqual([])
  })
})
