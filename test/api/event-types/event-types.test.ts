import { beforeEach, describe, expect, test } from 'bun:test'
import type { EventType } from '../../../src/db/schema.ts'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  invalidToken,
  forbidden,
  notFound,
  methodNotAllowed,
  invalidPage,
  required,
  blank,
  invalidBoolean,
  invalidChoice,
  maxValue,
  minValue,
  doesNotExist,
  cannotChange,
  notANumber,
  emptyPage,
  onePage,
} from '../../helpers/bodies.ts'
import {
  countRows,
  makeEventCategory,
  makeEventType,
  makeGym,
  makeToken,
  makeUser,
} from '../../helpers/factories.ts'
import { expectUnauthenticated, useSeededApp } from '../../helpers/seeded.ts'

const t = useSeededApp()

/** A user with can_manage_events only. */
let eventsToken: string
/** A user with can_manage_members only. */
let membersToken: string

beforeEach(async () => {
  eventsToken = await makeToken(t.db, await makeUser(t.db, { can_manage_events: 1 }))
  membersToken = await makeToken(t.db, await makeUser(t.db, { can_manage_members: 1 }))
})

/** The whole record the API should answer for an event type in the seeded gym (no scheduler path). */
function eventTypeBody(id: number, fields: Record<string, unknown> = {}) {
  const gymId = (fields.gym_id as number | undefined) ?? t.seed.gym.id
  return {
    id,
    url: `${ORIGIN}/api/event-types/${id}/`,
    name: 'Intro to Bouldering',
    gym_id: gymId,
    gym_name: 'Boulder Barn Downtown',
    gym_url: `${ORIGIN}/api/gyms/${gymId}/`,
    status: 'ACT',
    capacity: null,
    late_booking_window_minutes: 15,
    is_listed: true,
    max_reservations_per_day_for_customer: null,
    waitlist_promotion_cutoff_hours: 2,
    booking_horizon_days: 28,
    schedule_type: 'recurring',
    category_ids: [],
    created_at: START,
    updated_at: START,
    questions_url: `${ORIGIN}/api/event-types/${id}/questions/`,
    schedules_url: `${ORIGIN}/api/event-types/${id}/schedules/`,
    service_scheduler_url: `${ORIGIN}/scheduler/${gymId}/event-types/${id}/`,
    ...fields,
  }
}

const eventTypeCount = () => countRows(t.db, 'event_types')

const valid = () => ({ name: 'Youth Team', gym_id: t.seed.gym.id, status: 'DRA' })

describe('/api/event-types/ 401', () => {
  const routes: Array<[string, string]> = [
    ['GET', '/api/event-types/'],
    ['GET', '/api/event-types/1/'],
    ['POST', '/api/event-types/'],
    ['PUT', '/api/event-types/1/'],
    ['PATCH', '/api/event-types/1/'],
    ['GET', '/api/event-types/1/questions/'],
    ['GET', '/api/event-types/1/schedules/'],
  ]

  for (const [method, path] of routes) {
    test(`${method} ${path} without a token is 401`, async () => {
      const res = await t.request(method, path, method === 'GET' ? {} : { body: { name: '' } })
      expectUnauthenticated(res)
    })

    test(`${method} ${path} with an unknown token is 401 Invalid token`, async () => {
      const res = await t.request(method, path, {
        token: '0'.repeat(40),
        ...(method === 'GET' ? {} : { body: { name: '' } }),
      })
      expectUnauthenticated(res, invalidToken)
    })
  }
})

describe('/api/event-types/ 400', () => {
  const post = (body: unknown) => t.request('POST', '/api/event-types/', { token: eventsToken, body })

  test('POST with an empty body reports name, gym_id and status at once', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      name: required,
      gym_id: required,
      status: required,
    })
    expect(await eventTypeCount()).toBe(0)
  })

  const cases: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
    ['a blank name', { name: '' }, { name: blank }],
    ['status XYZ', { status: 'XYZ' }, { status: invalidChoice('XYZ') }],
    ['status in lower case', { status: 'act' }, { status: invalidChoice('act') }],
    ['an unknown gym_id', { gym_id: 999 }, { gym_id: doesNotExist(999) }],
    ['capacity 0', { capacity: 0 }, { capacity: minValue(1) }],
    ['capacity 1001', { capacity: 1001 }, { capacity: maxValue(1000) }],
    [
      'late_booking_window_minutes 60',
      { late_booking_window_minutes: 60 },
      { late_booking_window_minutes: maxValue(59) },
    ],
    ['is_listed "x"', { is_listed: 'x' }, { is_listed: invalidBoolean }],
    ['schedule_type "weekly"', { schedule_type: 'weekly' }, { schedule_type: invalidChoice('weekly') }],
    [
      'category_ids 7',
      { category_ids: 7 },
      { category_ids: ['Expected a list of items but got type "int".'] },
    ],
    ['an unknown category id', { category_ids: [999] }, { category_ids: doesNotExist(999) }],
  ]

  for (const [name, change, errors] of cases) {
    test(`POST with ${name} is 400 and creates nothing`, async () => {
      const res = await post({ ...valid(), ...change })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errors)
      expect(await eventTypeCount()).toBe(0)
    })
  }

  test('several failing fields are reported in one body', async () => {
    const res = await post({ name: '', gym_id: t.seed.gym.id, status: 'XYZ', capacity: 1001 })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      name: blank,
      status: invalidChoice('XYZ'),
      capacity: maxValue(1000),
    })
  })

  test('an unknown gym_id is reported together with the other failing fields', async () => {
    const res = await post({ name: '', gym_id: 999, status: 'XYZ' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      name: blank,
      gym_id: doesNotExist(999),
      status: invalidChoice('XYZ'),
    })
  })

  test('a changed gym_id is reported together with the other failing fields', async () => {
    const other = await makeGym(t.db, { name: 'Uptown' })
    const et = await makeEventType(t.db)
    const res = await t.request('PATCH', `/api/event-types/${et.id}/`, {
      token: eventsToken,
      body: { gym_id: other.id, capacity: 0 },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ gym_id: cannotChange, capacity: minValue(1) })
  })

  test('PUT needs name, gym_id and status', async () => {
    const et = await makeEventType(t.db)
    const res = await t.request('PUT', `/api/event-types/${et.id}/`, { token: eventsToken, body: {} })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      name: required,
      gym_id: required,
      status: required,
    })
  })

  test('PUT and PATCH with a different gym_id are 400 and move nothing', async () => {
    const other = await makeGym(t.db, { name: 'Uptown' })
    const et = await makeEventType(t.db)
    t.clock.advance(60000)
    for (const [method, body] of [
      ['PUT', { ...valid(), gym_id: other.id }],
      ['PATCH', { gym_id: other.id, name: 'Moved' }],
    ] as const) {
      const res = await t.request(method, `/api/event-types/${et.id}/`, { token: eventsToken, body })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ gym_id: cannotChange })
    }
    const read = await t.request('GET', `/api/event-types/${et.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(eventTypeBody(et.id))
  })

  test('PATCH with a bad value changes nothing', async () => {
    const et = await makeEventType(t.db)
    t.clock.advance(60000)
    const res = await t.request('PATCH', `/api/event-types/${et.id}/`, {
      token: eventsToken,
      body: { name: 'Renamed', late_booking_window_minutes: 60 },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ late_booking_window_minutes: maxValue(59) })
    const read = await t.request('GET', `/api/event-types/${et.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(eventTypeBody(et.id))
  })

  test('a non-numeric gym_id filter is 400', async () => {
    const res = await t.request('GET', '/api/event-types/?gym_id=abc', { token: t.seed.staffToken })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ gym_id: notANumber })
  })
})

describe('/api/event-types/ category_ids 400', () => {
  test('unknown and removed categories are each named, with the other failing fields', async () => {
    const youth = await makeEventCategory(t.db)
    const removed = await makeEventCategory(t.db, { name: 'Old', is_removed: 1 })
    const res = await t.request('POST', '/api/event-types/', {
      token: eventsToken,
      body: { ...valid(), capacity: 0, category_ids: [youth.id, 999, removed.id, 999] },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      capacity: minValue(1),
      category_ids: [...doesNotExist(999), ...doesNotExist(removed.id)],
    })
    expect(await eventTypeCount()).toBe(0)
    expect(await countRows(t.db, 'event_type_categories')).toBe(0)
  })

  test('an event type cannot be filed anew under a removed category, and a refused PATCH keeps its categories', async () => {
    const youth = await makeEventCategory(t.db)
    const removed = await makeEventCategory(t.db, { name: 'Old', is_removed: 1 })
    const et = await makeEventType(t.db)
    const filed = await t.request('PATCH', `/api/event-types/${et.id}/`, {
      token: eventsToken,
      body: { category_ids: [youth.id] },
    })
    expect(filed.status).toBe(200)
    const res = await t.request('PATCH', `/api/event-types/${et.id}/`, {
      token: eventsToken,
      body: { category_ids: [removed.id], name: 'Renamed' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ category_ids: doesNotExist(removed.id) })
    const read = await t.request('GET', `/api/event-types/${et.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(filed.body)
  })
})

describe('/api/event-types/ 403', () => {
  test('a staff user without flags, or with only can_manage_members, cannot write', async () => {
    const et = await makeEventType(t.db)
    for (const token of [t.seed.staffToken, membersToken]) {
      for (const [method, path] of [
        ['POST', '/api/event-types/'],
        ['PUT', `/api/event-types/${et.id}/`],
        ['PATCH', `/api/event-types/${et.id}/`],
      ] as const) {
        for (const body of [valid(), { name: '' }]) {
          const res = await t.request(method, path, { token, body })
          expect(res.status).toBe(403)
          expect(res.body).toEqual(forbidden)
        }
      }
    }
    expect(await eventTypeCount()).toBe(1)
    const read = await t.request('GET', `/api/event-types/${et.id}/`, { token: membersToken })
    expect(read.body).toEqual(eventTypeBody(et.id))
  })
})

describe('/api/event-types/ 404 and 405', () => {
  test('GET, PUT and PATCH of an unknown id are 404', async () => {
    for (const method of ['GET', 'PUT', 'PATCH']) {
      const res = await t.request(method, '/api/event-types/999/', {
        token: eventsToken,
        ...(method === 'GET' ? {} : { body: valid() }),
      })
      expect(res.status).toBe(404)
      expect(res.body).toEqual(notFound)
    }
  })

  test('questions and schedules of an unknown event type are 404', async () => {
    for (const name of ['questions', 'schedules']) {
      const res = await t.request('GET', `/api/event-types/999/${name}/`, { token: t.seed.staffToken })
      expect(res.status).toBe(404)
      expect(res.body).toEqual(notFound)
    }
  })

  test('DELETE is 405', async () => {
    const et = await makeEventType(t.db)
    const res = await t.request('DELETE', `/api/event-types/${et.id}/`, { token: t.seed.adminToken })
    expect(res.status).toBe(405)
    expect(res.body).toEqual(methodNotAllowed('DELETE'))
    expect(await eventTypeCount()).toBe(1)
  })
})

describe('/api/event-types/ success', () => {
  test('any staff user reads the list and a record', async () => {
    const et = await makeEventType(t.db)
    const list = await t.request('GET', '/api/event-types/', { token: t.seed.staffToken })
    expect(list.status).toBe(200)
    expect(list.body).toEqual(onePage([eventTypeBody(et.id)]))
    const read = await t.request('GET', `/api/event-types/${et.id}/`, { token: t.seed.staffToken })
    expect(read.status).toBe(200)
    expect(read.body).toEqual(eventTypeBody(et.id))
  })

  test('POST by a can_manage_events user creates with defaults', async () => {
    const res = await t.request('POST', '/api/event-types/', { token: eventsToken, body: valid() })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(eventTypeBody(res.body.id, { name: 'Youth Team', status: 'DRA' }))
    const read = await t.request('GET', `/api/event-types/${res.body.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(res.body)
  })

  test('POST by an admin with every field, including a negative booking window', async () => {
    const res = await t.request('POST', '/api/event-types/', {
      token: t.seed.adminToken,
      body: { ...valid(), status: 'RET', capacity: 1000, late_booking_window_minutes: -30, is_listed: false },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      eventTypeBody(res.body.id, {
        name: 'Youth Team',
        status: 'RET',
        capacity: 1000,
        late_booking_window_minutes: -30,
        is_listed: false,
      }),
    )
  })

  test('boundary values 1 and 59 are accepted', async () => {
    const res = await t.request('POST', '/api/event-types/', {
      token: eventsToken,
      body: { ...valid(), capacity: 1, late_booking_window_minutes: 59 },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      eventTypeBody(res.body.id, {
        name: 'Youth Team',
        status: 'DRA',
        capacity: 1,
        late_booking_window_minutes: 59,
      }),
    )
  })

  test('POST with a schedule type and categories answers them, categories ascending and once each', async () => {
    const youth = await makeEventCategory(t.db)
    const fitness = await makeEventCategory(t.db, { name: 'Fitness' })
    const res = await t.request('POST', '/api/event-types/', {
      token: eventsToken,
      body: { ...valid(), schedule_type: 'multi_part', category_ids: [fitness.id, youth.id, fitness.id] },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      eventTypeBody(res.body.id, {
        name: 'Youth Team',
        status: 'DRA',
        schedule_type: 'multi_part',
        category_ids: [youth.id, fitness.id],
      }),
    )
    const read = await t.request('GET', `/api/event-types/${res.body.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(res.body)
  })

  test('category_ids sent replaces the categories; left out, they stay; [] clears them', async () => {
    const youth = await makeEventCategory(t.db)
    const fitness = await makeEventCategory(t.db, { name: 'Fitness' })
    const community = await makeEventCategory(t.db, { name: 'Community' })
    const et = await makeEventType(t.db)
    const patch = (body: Record<string, unknown>) =>
      t.request('PATCH', `/api/event-types/${et.id}/`, { token: eventsToken, body })
    expect((await patch({ category_ids: [youth.id, fitness.id] })).body.category_ids).toEqual([
      youth.id,
      fitness.id,
    ])
    expect((await patch({ category_ids: [community.id, youth.id] })).body.category_ids).toEqual([
      youth.id,
      community.id,
    ])
    const put = await t.request('PUT', `/api/event-types/${et.id}/`, {
      token: eventsToken,
      body: { ...valid(), schedule_type: 'rolling' },
    })
    expect(put.body).toEqual(
      eventTypeBody(et.id, {
        name: 'Youth Team',
        status: 'DRA',
        schedule_type: 'rolling',
        category_ids: [youth.id, community.id],
      }),
    )
    expect((await patch({ category_ids: [] })).body.category_ids).toEqual([])
    expect(await countRows(t.db, 'event_type_categories')).toBe(0)
  })

  test('a category removed after the event type was filed under it stays listed, and may be sent back', async () => {
    const youth = await makeEventCategory(t.db)
    const fitness = await makeEventCategory(t.db, { name: 'Fitness' })
    const et = await makeEventType(t.db)
    await t.request('PATCH', `/api/event-types/${et.id}/`, {
      token: eventsToken,
      body: { category_ids: [youth.id, fitness.id] },
    })
    const removed = await t.request('DELETE', `/api/event-categories/${youth.id}/`, { token: eventsToken })
    expect(removed.status).toBe(204)
    const list = await t.request('GET', '/api/event-types/', { token: t.seed.staffToken })
    expect(list.body).toEqual(onePage([eventTypeBody(et.id, { category_ids: [youth.id, fitness.id] })]))
    const read = await t.request('GET', `/api/event-types/${et.id}/`, { token: t.seed.staffToken })
    const sentBack = await t.request('PUT', `/api/event-types/${et.id}/`, {
      token: eventsToken,
      body: {
        name: read.body.name,
        gym_id: read.body.gym_id,
        status: read.body.status,
        category_ids: read.body.category_ids,
      },
    })
    expect(sentBack.status).toBe(200)
    expect(sentBack.body.category_ids).toEqual([youth.id, fitness.id])
  })

  test('service_scheduler_url uses the gym scheduler path when it has one', async () => {
    const gym = await makeGym(t.db, { name: 'Uptown', scheduler_url_path: 'uptown' })
    const et = await makeEventType(t.db, { gym_id: gym.id })
    const res = await t.request('GET', `/api/event-types/${et.id}/`, { token: t.seed.staffToken })
    expect(res.body).toEqual(
      eventTypeBody(et.id, {
        gym_id: gym.id,
        gym_name: 'Uptown',
        service_scheduler_url: `${ORIGIN}/scheduler/uptown/event-types/${et.id}/`,
      }),
    )
  })

  test('PUT with the same gym_id replaces and moves updated_at only', async () => {
    const et = await makeEventType(t.db, { capacity: 20 })
    t.clock.advance(60000)
    const res = await t.request('PUT', `/api/event-types/${et.id}/`, {
      token: eventsToken,
      body: { name: 'Advanced', gym_id: t.seed.gym.id, status: 'RET', late_booking_window_minutes: 0 },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      eventTypeBody(et.id, {
        name: 'Advanced',
        status: 'RET',
        capacity: 20,
        late_booking_window_minutes: 0,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
  })

  test('PATCH with the same gym_id updates the sent fields', async () => {
    const et = await makeEventType(t.db, { capacity: 20 })
    t.clock.advance(60000)
    const res = await t.request('PATCH', `/api/event-types/${et.id}/`, {
      token: eventsToken,
      body: { gym_id: t.seed.gym.id, is_listed: false, capacity: null },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      eventTypeBody(et.id, { is_listed: false, capacity: null, updated_at: ONE_MINUTE_LATER }),
    )
  })

  test('questions_url and schedules_url answer empty envelopes', async () => {
    const et = await makeEventType(t.db)
    const body = (await t.request('GET', `/api/event-types/${et.id}/`, { token: t.seed.staffToken })).body
    for (const key of ['questions_url', 'schedules_url']) {
      const url: string = body[key]
      const res = await t.request('GET', url.slice(ORIGIN.length), { token: t.seed.staffToken })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(emptyPage)
    }
  })
})

describe('/api/event-types/ filters', () => {
  let other: Awaited<ReturnType<typeof makeGym>>
  let dra: EventType
  let act: EventType
  let ret: EventType
  let otherAct: EventType

  beforeEach(async () => {
    other = await makeGym(t.db, { name: 'Uptown' })
    dra = await makeEventType(t.db, { name: 'Draft', status: 'DRA' })
    act = await makeEventType(t.db, { name: 'Active', status: 'ACT' })
    ret = await makeEventType(t.db, { name: 'Retired', status: 'RET' })
    otherAct = await makeEventType(t.db, { name: 'Other', status: 'ACT', gym_id: other.id })
  })

  const body = (et: EventType) =>
    eventTypeBody(et.id, {
      name: et.name,
      status: et.status,
      gym_id: et.gym_id,
      gym_name: et.gym_id === other.id ? 'Uptown' : 'Boulder Barn Downtown',
    })

  const list = async (query: string) => {
    const res = await t.request('GET', `/api/event-types/?${query}`, { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    return res.body
  }

  test('gym_id is exact', async () => {
    expect(await list(`gym_id=${other.id}`)).toEqual(onePage([body(otherAct)]))
    expect(await list('gym_id=999')).toEqual(emptyPage)
  })

  test('status=act matches ACT only, case-insensitively', async () => {
    expect(await list('status=act')).toEqual(onePage([body(act), body(otherAct)]))
  })

  test('status=r is a substring match (DRA and RET)', async () => {
    expect(await list('status=r')).toEqual(onePage([body(dra), body(ret)]))
  })

  test('gym_id and status combine', async () => {
    expect(await list(`gym_id=${t.seed.gym.id}&status=ACT`)).toEqual(onePage([body(act)]))
  })

  test('an empty filter value and unknown parameters are ignored', async () => {
    const all = await list('status=&colour=blue')
    expect(all.count).toBe(4)
    expect(all.results).toEqual([body(dra), body(act), body(ret), body(otherAct)])
  })

  test('next and previous keep the filters', async () => {
    const first = await list(`gym_id=${t.seed.gym.id}&page_size=2`)
    expect(first).toEqual({
      count: 3,
      next: `${ORIGIN}/api/event-types/?gym_id=${t.seed.gym.id}&page_size=2&page=2`,
      previous: null,
      results: [body(dra), body(act)],
    })
    const second = await list(`gym_id=${t.seed.gym.id}&page_size=2&page=2`)
    expect(second).toEqual({
      count: 3,
      next: null,
      previous: `${ORIGIN}/api/event-types/?gym_id=${t.seed.gym.id}&page_size=2`,
      results: [body(ret)],
    })
  })

  test('a page past the end is 404 Invalid page', async () => {
    const res = await t.request('GET', `/api/event-types/?gym_id=${other.id}&page=2`, {
      token: t.seed.staffToken,
    })
    expect(res.status).toBe(404)
    expect(res.body).toEqual(invalidPage)
  })
})
