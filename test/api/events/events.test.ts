import { beforeEach, describe, expect, test } from 'bun:test'
import type { EventType } from '../../../src/db/schema.ts'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  doesNotExist,
  invalidBoolean,
  maxDecimalPlaces,
  maxLength,
  minValue,
  notANumber,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { countRows, makeEventType, makeGym } from '../../helpers/factories.ts'
import { makeEvent, makeTaxRate } from '../../helpers/product-factories.ts'
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
const staff = useStaff(t, 'events', 'members')

const PATH = '/api/events/'
const count = () => countRows(t.db, 'events')
const badDateTime = [
  'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
]
const endBeforeStart = ['The end must be after the start.']

let intro: EventType

beforeEach(async () => {
  intro = await makeEventType(t.db, { gym_id: t.seed.gym.id })
})

/** The factory's event: Intro to Bouldering, 08:00-09:30 Denver time on 2026-11-22. */
function eventBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/events/${id}/`,
    event_type_id: intro.id,
    event_type_name: 'Intro to Bouldering',
    event_type_url: `${ORIGIN}/api/event-types/${intro.id}/`,
    gym_id: t.seed.gym.id,
    gym_name: 'Boulder Barn Downtown',
    gym_url: `${ORIGIN}/api/gyms/${t.seed.gym.id}/`,
    name: 'Intro to Bouldering',
    start_at: '2026-11-22T15:00:00.000Z',
    end_at: '2026-11-22T16:30:00.000Z',
    includes_entry: true,
    is_cancelled: false,
    capacity: null,
    num_reservations: 0,
    num_waitlisted: 0,
    spots_left: null,
    schedule_id: null,
    price: '0.00',
    tax_rate_id: null,
    revenue_account_code: '',
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const event = (fields: Record<string, unknown> = {}) =>
  makeEvent(t.db, { event_type_id: intro.id, gym_id: t.seed.gym.id, ...fields })
const valid = () => ({
  event_type_id: intro.id,
  start_at: '2026-11-22T08:00:00-07:00',
  end_at: '2026-11-22T09:30:00-07:00',
})

describe('/api/events/ 401', () => {
  const routes = [
    ['GET', PATH],
    ['GET', `${PATH}1/`],
    ['POST', PATH],
    ['PUT', `${PATH}1/`],
    ['PATCH', `${PATH}1/`],
  ] as const
  testEachNeedsToken(t, routes)
})

describe('/api/events/ 400', () => {
  const post = (body: unknown) => t.request('POST', PATH, { token: staff.events.token, body })

  test('an empty body reports event_type_id, start_at and end_at', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ event_type_id: required, start_at: required, end_at: required })
  })

  const cases: RefusedPost[] = [
    [
      'an unknown event type and gym',
      { event_type_id: 999, gym_id: 998 },
      { event_type_id: doesNotExist(999), gym_id: doesNotExist(998) },
    ],
    ['a start without an offset', { start_at: '2026-11-22T08:00:00' }, { start_at: badDateTime }],
    ['a date as the start', { start_at: '2026-11-22' }, { start_at: badDateTime }],
    ['a start on a day that does not exist', { start_at: '2026-02-30T08:00:00Z' }, { start_at: badDateTime }],
    ['an end before the start', { end_at: '2026-11-22T07:59:59-07:00' }, { end_at: endBeforeStart }],
    [
      'an end equal to the start (in another zone)',
      { end_at: '2026-11-22T15:00:00Z' },
      { end_at: endBeforeStart },
    ],
    ['includes_entry "x"', { includes_entry: 'x' }, { includes_entry: invalidBoolean }],
    ['price -1', { price: '-1' }, { price: minValue(0) }],
    ['price with 3 decimal places', { price: '12.345' }, { price: maxDecimalPlaces(2) }],
    ['tax_rate_id 99 (no such tax rate)', { tax_rate_id: 99 }, { tax_rate_id: doesNotExist(99) }],
    [
      'a revenue_account_code of 65 characters',
      { revenue_account_code: '4'.repeat(65) },
      { revenue_account_code: maxLength(64) },
    ],
  ]
  testEachRefusedPost(cases, { post, count, base: valid })

  test('PATCH judges the times on the resulting event; a refused change stores nothing', async () => {
    const e = await event()
    t.clock.advance(60_000)
    for (const [body, errors] of [
      [{ end_at: '2026-11-22T14:00:00Z', name: 'Moved' }, { end_at: endBeforeStart }],
      [{ start_at: '2026-11-22T17:00:00Z' }, { end_at: endBeforeStart }],
      [
        { start_at: 'noon', event_type_id: 999 },
        { event_type_id: doesNotExist(999), start_at: badDateTime },
      ],
    ] as const) {
      const res = await t.request('PATCH', `${PATH}${e.id}/`, { token: staff.events.token, body })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errors)
    }
    expect((await t.request('GET', `${PATH}${e.id}/`, { token: t.seed.staffToken })).body).toEqual(
      eventBody(e.id),
    )
  })

  test('bad filters are reported together', async () => {
    const res = await t.request(
      'GET',
      `${PATH}?gym_id=x&starts_after=tomorrow&starts_before=2026-11-22T08:00`,
      {
        token: t.seed.staffToken,
      },
    )
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      gym_id: notANumber,
      starts_after: ['Enter a valid date/time.'],
      starts_before: ['Enter a valid date/time.'],
    })
  })
})

describe('/api/events/ 403, 404 and 405', () => {
  test('without can_manage_events nobody writes', async () => {
    const e = await event()
    await expectEachForbidden(
      t,
      [t.seed.staffToken, staff.members.token],
      [
        ['POST', PATH, valid()],
        ['PUT', `${PATH}${e.id}/`, valid()],
        ['PATCH', `${PATH}${e.id}/`, valid()],
      ],
    )
    expect(await count()).toBe(1)
  })

  test('unknown ids are 404; DELETE is 405 (cancel with is_cancelled)', async () => {
    const calls = ['GET', 'PUT', 'PATCH'].map((method) => [method, `${PATH}999/`, valid()] as const)
    await expectEachNotFound(t, staff.events.token, calls)
    const e = await event()
    await expectEachNotAllowed(t, t.seed.adminToken, [['DELETE', `${PATH}${e.id}/`]])
  })
})

describe('/api/events/ success', () => {
  test('POST with the required fields: the type gives the gym and the name; times stored in UTC', async () => {
    const res = await t.request('POST', PATH, { token: staff.events.token, body: valid() })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(eventBody(res.body.id))
    expect((await t.request('GET', `${PATH}${res.body.id}/`, { token: t.seed.staffToken })).body).toEqual(
      res.body,
    )
  })

  test('POST with every field, at another gym', async () => {
    const uptown = await makeGym(t.db, { name: 'Uptown' })
    const taxRate = await makeTaxRate(t.db)
    const res = await t.request('POST', PATH, {
      token: t.seed.adminToken,
      body: {
        ...valid(),
        gym_id: uptown.id,
        name: '',
        start_at: '2026-11-22T18:00Z',
        end_at: '2026-11-22T19:00:00.5+00:00',
        includes_entry: false,
        is_cancelled: false,
        price: 25,
        tax_rate_id: taxRate.id,
        revenue_account_code: '4300-CLASSES',
      },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      eventBody(res.body.id, {
        gym_id: uptown.id,
        gym_name: 'Uptown',
        gym_url: `${ORIGIN}/api/gyms/${uptown.id}/`,
        name: '',
        start_at: '2026-11-22T18:00:00.000Z',
        end_at: '2026-11-22T19:00:00.500Z',
        includes_entry: false,
        price: '25.00',
        tax_rate_id: taxRate.id,
        revenue_account_code: '4300-CLASSES',
      }),
    )
  })

  test('PUT and PATCH; setting is_cancelled cancels the event', async () => {
    const e = await event()
    t.clock.advance(60_000)
    const put = await t.request('PUT', `${PATH}${e.id}/`, {
      token: staff.events.token,
      body: { ...valid(), name: 'Advanced Bouldering', end_at: '2026-11-22T10:00:00-07:00' },
    })
    expect(put.status).toBe(200)
    expect(put.body).toEqual(
      eventBody(e.id, {
        name: 'Advanced Bouldering',
        end_at: '2026-11-22T17:00:00.000Z',
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    const patch = await t.request('PATCH', `${PATH}${e.id}/`, {
      token: staff.events.token,
      body: { is_cancelled: true },
    })
    expect(patch.body).toEqual({ ...put.body, is_cancelled: true })
  })

  test('list in start order; filters by gym, type and start time (instants or organization-local dates)', async () => {
    const uptown = await makeGym(t.db, { name: 'Uptown' })
    const other = await makeEventType(t.db, { gym_id: uptown.id, name: 'Yoga' })
    const late = await event({ start_at: '2026-11-23T02:00:00.000Z', end_at: '2026-11-23T03:00:00.000Z' })
    const early = await event()
    const yoga = await makeEvent(t.db, {
      event_type_id: other.id,
      gym_id: uptown.id,
      name: 'Yoga',
      start_at: '2026-11-23T07:00:00.000Z',
      end_at: '2026-11-23T08:00:00.000Z',
    })
    const ids = listIds(t, PATH)
    expect(await ids()).toEqual([early.id, late.id, yoga.id])
    expect(await ids(`gym_id=${uptown.id}`)).toEqual([yoga.id])
    expect(await ids(`event_type_id=${intro.id}`)).toEqual([early.id, late.id])
    // 2026-11-22 in Denver runs from 07:00Z on the 22nd to 07:00Z on the 23rd.
    expect(await ids('starts_after=2026-11-22&starts_before=2026-11-23')).toEqual([early.id, late.id])
    expect(await ids('starts_after=2026-11-23')).toEqual([yoga.id])
    // starts_after is inclusive, starts_before exclusive; a "+" offset must be sent as %2B.
    expect(
      await ids('starts_after=2026-11-22T15:00:00%2B00:00&starts_before=2026-11-22T19:00:00-07:00'),
    ).toEqual([early.id])
    expect(await ids('starts_after=2026-11-22T15:00:00Z&starts_before=2026-11-22T19:00:01-07:00')).toEqual([
      early.id,
      late.id,
    ])
    expect(await ids('starts_after=2026-11-22T15:00:00.001Z')).toEqual([late.id, yoga.id])
    const page = await t.request(
      'GET',
      `${PATH}?gym_id=${t.seed.gym.id}&starts_before=2026-11-22T16:00:00Z`,
      {
        token: t.seed.staffToken,
      },
    )
    expect(page.body).toEqual(onePage([eventBody(early.id)]))
  })
})
