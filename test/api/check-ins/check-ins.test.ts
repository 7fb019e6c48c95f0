import { describe, expect, test } from 'bun:test'
import { getCheckIn } from '../../../src/api/check-ins/queries.ts'
import { START } from '../../helpers/app.ts'
import { invalidBoolean, notANumber } from '../../helpers/bodies.ts'
import {
  bethFields,
  checkOutPath,
  LIST,
  ofCustomer,
  one,
  useCheckInHistory,
} from '../../helpers/check-in-history.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import {
  barcodePath,
  makeDoorCustomer,
  makeMembershipFor,
  storedWebhookEvents,
} from '../../helpers/door-factories.ts'
import { makeGym, makeUser } from '../../helpers/factories.ts'
import { makeWebhook } from '../../helpers/webhook-factories.ts'
import {
  expectEachAnswer,
  expectEachForbidden,
  expectEachNotAllowed,
  expectEachNotFound,
  testEachNeedsTokenApart,
} from '../../helpers/seeded.ts'

/*
 * The check-in history: authentication, bad filters, permissions, 404/405, the
 * record itself and check-out. The list's order and filters are in check-ins-filters.test.ts.
 */

const h = useCheckInHistory()
const { t, staff, checkIn, record, ids } = h

async function badQuery(query: string, path = LIST) {
  const res = await t.request('GET', `${path}?${query}`, { token: staff.members.token })
  return { status: res.status, body: res.body }
}

describe('check-ins: 401', () => {
  testEachNeedsTokenApart(
    t,
    [
      ['GET', LIST],
      ['GET', '/api/check-ins/1/'],
      ['POST', '/api/check-ins/1/check-out/'],
      ['GET', '/api/customers/1/check-ins/'],
      ['GET', '/api/customers/1/check-ins/1/'],
    ],
    { setUp: () => checkIn() },
  )
})

describe('check-ins: 400 on a bad filter', () => {
  const choice = (value: string) => [`Select a valid choice. ${value} is not one of the available choices.`]
  const cases: Array<[string, string, Record<string, string[]>]> = [
    [
      'check_in_date_min not a date',
      'check_in_date_min=22-11-2026',
      { check_in_date_min: ['Enter a valid date.'] },
    ],
    [
      'check_in_date_min not a real day',
      'check_in_date_min=2026-02-30',
      { check_in_date_min: ['Enter a valid date.'] },
    ],
    [
      'check_in_date_max not a date',
      'check_in_date_max=today',
      { check_in_date_max: ['Enter a valid date.'] },
    ],
    ['this_calendar_day not a boolean', 'this_calendar_day=yes', { this_calendar_day: invalidBoolean }],
    ['has_checked_out not a boolean', 'has_checked_out=2', { has_checked_out: invalidBoolean }],
    ['customer_id not a number', 'customer_id=lynn', { customer_id: notANumber }],
    ['location_id not a number', 'location_id=x', { location_id: notANumber }],
    ['entry_method not a method', 'entry_method=XYZ', { entry_method: choice('XYZ') }],
    ['entry_method in lower case', 'entry_method=mem', { entry_method: choice('mem') }],
  ]
  for (const [name, query, errors] of cases) {
    test(`${name}: 400 on that filter`, async () => {
      await checkIn()
      expect(await badQuery(query)).toEqual({ status: 400, body: errors })
    })
  }

  test('every bad filter at once, in the filter order', async () => {
    const query =
      'entry_method=NOPE&location_id=x&customer_id=x&has_checked_out=x&this_calendar_day=x' +
      '&check_in_date_max=x&check_in_date_min=x'
    expect(await badQuery(query)).toEqual({
      status: 400,
      body: {
        check_in_date_min: ['Enter a valid date.'],
        check_in_date_max: ['Enter a valid date.'],
        this_calendar_day: invalidBoolean,
        has_checked_out: invalidBoolean,
        customer_id: notANumber,
        location_id: notANumber,
        entry_method: choice('NOPE'),
      },
    })
  })

  test("the customer's list checks its filters too (customer_id is not one of them)", async () => {
    expect(await badQuery('entry_method=X&check_in_date_min=x&customer_id=x', ofCustomer(h.lynn))).toEqual({
      status: 400,
      body: { check_in_date_min: ['Enter a valid date.'], entry_method: choice('X') },
    })
  })

  test('empty values and unknown parameters are ignored', async () => {
    const a = await checkIn()
    expect(await ids('entry_method=&check_in_date_min=&has_checked_out=&colour=red')).toEqual([a.id])
  })
})

describe('check-ins: 403', () => {
  test('a user without can_manage_members may not read or check out, even with every other flag', async () => {
    const a = await checkIn()
    const calls = [
      ['GET', LIST],
      ['GET', one(a.id)],
      ['POST', checkOutPath(a.id), {}],
      ['GET', ofCustomer(h.lynn)],
      ['GET', `${ofCustomer(h.lynn)}${a.id}/`],
    ] as const
    await expectEachForbidden(t, [t.seed.staffToken, staff.allButMembers.token], calls)
    expect((await getCheckIn(t.db, a.id))!.check_out_at).toBeNull()
  })

  test('permission is checked before the filters', async () => {
    const res = await t.request('GET', `${LIST}?entry_method=X`, { token: t.seed.staffToken })
    expect(res.status).toBe(403)
  })
})

describe('check-ins: 404 and 405', () => {
  test("an unknown check-in, an unknown customer, and another customer's check-in are 404", async () => {
    const a = await checkIn()
    await expectEachNotFound(t, staff.members.token, [
      ['GET', one(a.id + 1)],
      ['POST', checkOutPath(a.id + 1), {}],
      ['GET', '/api/check-ins/x/'],
      ['GET', ofCustomer(h.beth + 100)],
      ['GET', `${ofCustomer(h.beth + 100)}${a.id}/`],
      ['GET', `${ofCustomer(h.beth)}${a.id}/`],
    ])
  })

  test('a page past the end is 404 Invalid page.', async () => {
    await checkIn()
    await expectEachAnswer(t, staff.members.token, [['GET', `${LIST}?page=2`]], 404, {
      detail: 'Invalid page.',
    })
  })

  test('the history is read-only: no create, replace, update or remove', async () => {
    const a = await checkIn()
    await expectEachNotAllowed(t, staff.members.token, [
      ['POST', LIST, {}],
      ['PUT', one(a.id), {}],
      ['PATCH', one(a.id), {}],
      ['DELETE', one(a.id)],
      ['GET', checkOutPath(a.id)],
      ['POST', ofCustomer(h.lynn), {}],
      ['DELETE', `${ofCustomer(h.lynn)}${a.id}/`],
    ])
  })
})

describe('check-ins: the record', () => {
  test('a membership check-in, read by a can_manage_members user and by an admin', async () => {
    const a = await checkIn({ milestone_list: '["1st check-in"]' })
    for (const token of [staff.members.token, t.seed.adminToken]) {
      const res = await t.request('GET', one(a.id), { token })
      expect({ status: res.status, body: res.body }).toEqual({
        status: 200,
        body: record(a.id, { milestone_list: ['1st check-in'] }),
      })
    }
  })

  test('a free entry names its granting user; a customer without email has null', async () => {
    const granter = await makeUser(t.db, { first_name: 'Alex', last_name: 'Honnold', can_manage_members: 1 })
    const a = await checkIn({
      customer_id: h.beth,
      entry_method: 'FRE',
      entry_method_description: 'Free entry',
      free_entry_reason: 'Route setter',
      free_entry_granting_user_id: granter.id,
      converted_from_free_entry: 1,
      check_in_count: 12,
      milestone_list: '["10th check-in","Birthday"]',
    })
    const res = await t.request('GET', one(a.id), { token: staff.members.token })
    expect(res.body).toEqual(
      record(a.id, {
        customer_id: h.beth,
        ...bethFields,
        entry_method: 'FRE',
        entry_method_description: 'Free entry',
        free_entry_reason: 'Route setter',
        free_entry_granting_user_id: granter.id,
        free_entry_granting_user_first_name: 'Alex',
        free_entry_granting_user_last_name: 'Honnold',
        converted_from_free_entry: true,
        check_in_count: 12,
        milestone_list: ['10th check-in', 'Birthday'],
      }),
    )
  })

  test('a migrated check-in may have no count; an email stored as "" reads as null', async () => {
    const c = await makeCustomer(t.db, { email: '' })
    const a = await checkIn({
      customer_id: c.id,
      entry_method: 'MIG',
      entry_method_description: '',
      check_in_count: null,
    })
    const res = await t.request('GET', one(a.id), { token: staff.members.token })
    expect(res.body).toMatchObject({ customer_email: null, entry_method: 'MIG', check_in_count: null })
  })

  test("local times are the LOCATION's wall clock to the second, without offset", async () => {
    const boston = await makeGym(t.db, { name: 'Boston Bouldering', time_zone: 'America/New_York' })
    const a = await checkIn({
      gym_id: boston.id,
      at: '2026-11-22T06:00:59.999Z',
      check_out_at: '2026-11-22T07:31:00.000Z',
      updated_at: '2026-11-22T07:31:00.000Z',
    })
    const res = await t.request('GET', one(a.id), { token: staff.members.token })
    expect(res.body).toEqual(
      record(a.id, {
        location_id: boston.id,
        location_name: 'Boston Bouldering',
        check_in_datetime: '2026-11-22T01:00:59',
        check_out_datetime: '2026-11-22T02:31:00',
        visit_duration_minutes: 90,
        created_at: '2026-11-22T06:00:59.999Z',
        updated_at: '2026-11-22T07:31:00.000Z',
      }),
    )
  })

  test('on the night clocks fall back, the local times follow the offset in force', async () => {
    // 2026-11-01 in Denver: 01:30 happens at 07:30Z (MDT) and again at 08:30Z (MST).
    const mdt = await checkIn({ at: '2026-11-01T07:30:00.000Z', check_out_at: '2026-11-01T08:30:00.000Z' })
    const res = await t.request('GET', one(mdt.id), { token: staff.members.token })
    expect(res.body).toMatchObject({
      check_in_datetime: '2026-11-01T01:30:00',
      check_out_datetime: '2026-11-01T01:30:00',
      visit_duration_minutes: 60,
    })
  })

  test('visit_duration_minutes counts whole minutes to now and grows while checked in', async () => {
    const a = await checkIn({ at: '2026-11-22T13:34:05.124Z' }) // 90 minutes less 1 ms before START
    const minutes = async () =>
      (await t.request('GET', one(a.id), { token: staff.members.token })).body.visit_duration_minutes
    expect(await minutes()).toBe(89)
    t.clock.advance(1)
    expect(await minutes()).toBe(90)
    t.clock.advance(59_999)
    expect(await minutes()).toBe(90)
    t.clock.advance(1)
    expect(await minutes()).toBe(91)
    t.clock.advance(3 * 3_600_000)
    expect(await minutes()).toBe(271)
    expect(await ids()).toEqual([a.id])
    const listed = await t.request('GET', LIST, { token: staff.members.token })
    expect(listed.body.results[0].visit_duration_minutes).toBe(271)
  })

  test('a check-in in the future of the clock (a clock stepped back) lasts 0 minutes, not less', async () => {
    const a = await checkIn({ at: '2026-11-22T16:00:00.000Z' })
    const res = await t.request('GET', one(a.id), { token: staff.members.token })
    expect(res.body.visit_duration_minutes).toBe(0)
  })

  test('the door reads the same check-in as the API', async () => {
    // What the door read inside its check-in transaction is the webhook event it wrote there.
    await makeWebhook(t.db, { webhook_url: 'http://127.0.0.1:9/hook' })
    const beth = await makeDoorCustomer(t.db, 'BETH1', {
      first_name: 'Beth',
      last_name: 'Rodden',
      birthday: '1980-05-06',
      email: null,
    })
    await makeMembershipFor(t.db, beth.id)
    expect((await t.request('POST', barcodePath('BETH1'), { token: t.seed.staffToken })).status).toBe(200)
    const [stored] = await storedWebhookEvents(t.db)
    const { check_in_datetime, ...event } = (stored!.body as { event: Record<string, unknown> }).event
    const res = await t.request('GET', one(event.id as number), { token: staff.members.token })
    expect(event).toEqual(Object.fromEntries(Object.keys(event).map((key) => [key, res.body[key]])))
    expect(event).toMatchObject({ customer_first_name: 'Beth', customer_email: null })
    // The location's zone (America/Denver, -07:00 in November) gives both their local time.
    expect(check_in_datetime).toBe(`${res.body.check_in_datetime}-07:00`)
  })
})

describe('POST /api/check-ins/<id>/check-out/', () => {
  test('records now as the check-out and answers the whole record', async () => {
    const a = await checkIn({ at: '2026-11-22T14:00:00.000Z' })
    t.clock.advance(60_000)
    const res = await t.request('POST', checkOutPath(a.id), { token: staff.members.token })
    const checkedOut = record(a.id, {
      check_in_datetime: '2026-11-22T07:00:00',
      check_out_datetime: '2026-11-22T08:05:05',
      visit_duration_minutes: 65,
      created_at: '2026-11-22T14:00:00.000Z',
      updated_at: '2026-11-22T15:05:05.123Z',
    })
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: checkedOut })
    expect((await getCheckIn(t.db, a.id))!.check_out_at).toBe('2026-11-22T15:05:05.123Z')
    // The visit no longer grows.
    t.clock.advance(3_600_000)
    expect((await t.request('GET', one(a.id), { token: staff.members.token })).body).toEqual(checkedOut)
    expect(await ids('has_checked_out=true')).toEqual([a.id])
  })

  test('an admin may check out; a JSON body is accepted and ignored', async () => {
    const a = await checkIn()
    const res = await t.request('POST', checkOutPath(a.id), {
      token: t.seed.adminToken,
      body: { check_out_at: 'x' },
    })
    expect(res.status).toBe(200)
    expect(res.body.check_out_datetime).toBe('2026-11-22T08:04:05')
  })

  test('twice is 400 and keeps the first check-out time', async () => {
    const a = await checkIn({
      check_out_at: '2026-11-22T15:00:00.000Z',
      updated_at: '2026-11-22T15:00:00.000Z',
    })
    t.clock.advance(60_000)
    const res = await t.request('POST', checkOutPath(a.id), { token: staff.members.token })
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { non_field_errors: ['This check-in is already checked out.'] },
    })
    const stored = (await getCheckIn(t.db, a.id))!
    expect([stored.check_out_at, stored.updated_at]).toEqual([
      '2026-11-22T15:00:00.000Z',
      '2026-11-22T15:00:00.000Z',
    ])
  })

  test('two desks at once: one wins, the other is told it is already checked out', async () => {
    const a = await checkIn()
    const [first, second] = await Promise.all([
      t.request('POST', checkOutPath(a.id), { token: staff.members.token }),
      t.request('POST', checkOutPath(a.id), { token: t.seed.adminToken }),
    ])
    expect([first.status, second.status].sort()).toEqual([200, 400])
  })
})
