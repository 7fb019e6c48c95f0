import { describe, expect, test } from 'bun:test'
import { START } from '../../helpers/app.ts'
import { doesNotExist, forbidden, notFound } from '../../helpers/bodies.ts'
import { makeAlert, makeDocument } from '../../helpers/customer-factories.ts'
import {
  barcodePath,
  makeDoorCustomer,
  makeMembershipFor,
  makePassFor,
  setOrganization,
  storedCheckIns,
  storedCheckInTotals,
  storedWebhookEvents,
} from '../../helpers/door-factories.ts'
import { testEachNeedsTokenApart, useSeededApp, useStaff } from '../../helpers/seeded.ts'
import { makeWebhook } from '../../helpers/webhook-factories.ts'

/*
 * The desk's check-ins by the door's rules: by customer id and by barcode. The same decision and
 * record as barcode check-in, answered with the check-in record, or why not in full. The fixed
 * clock reads 2026-11-22T15:04:05.123Z, Sunday 08:04:05 in Denver.
 */

const t = useSeededApp()
const staff = useStaff(t, 'members', 'allButMembers')

const byIdPath = (id: number) => `/api/customers/${id}/check-in/`
const BY_BARCODE = '/api/customers/check-in-by-barcode/'
const byId = (id: number, body: unknown = {}, token = staff.members.token) =>
  t.request('POST', byIdPath(id), { token, body })

testEachNeedsTokenApart(t, [
  ['POST', byIdPath(1)],
  ['POST', BY_BARCODE],
])

type Customer = Awaited<ReturnType<typeof makeDoorCustomer>>

const who = (c: Customer) => ({
  customer_id: c.id,
  customer_first_name: c.first_name,
  customer_last_name: c.last_name,
  customer_email: c.email,
  customer_birthday: c.birthday,
  customer_profile_image_url: photoOf(c),
})

/** The photo link the card shows: the box's own path made absolute, null without one. */
const photoOf = (c: Customer) =>
  c.profile_image_url === ''
    ? null
    : c.profile_image_url.startsWith('/')
      ? `http://localhost${c.profile_image_url}`
      : c.profile_image_url

/** A refusal's whole body. */
const refusal = (c: Customer, error: string, reasons: { code: string; detail: string }[], extra = {}) => ({
  error,
  detail: reasons.map((r) => (/[.!?]$/.test(r.detail) ? r.detail : `${r.detail}.`)).join(' '),
  reasons,
  ...extra,
  ...who(c),
})

/** The 201 body for a check-in now at the seed's gym. */
function admitted(id: number, c: Customer, fields: Record<string, unknown>) {
  return {
    id,
    url: `http://localhost/api/check-ins/${id}/`,
    customer_id: c.id,
    customer_url: `http://localhost/api/customers/${c.id}/`,
    customer_first_name: c.first_name,
    customer_last_name: c.last_name,
    customer_birthday: c.birthday,
    customer_email: c.email,
    check_in_datetime: '2026-11-22T08:04:05',
    check_out_datetime: null,
    visit_duration_minutes: 0,
    entry_method: 'MEM',
    entry_method_description: 'Monthly Adult',
    location_id: t.seed.gym.id,
    location_url: `http://localhost/api/gyms/${t.seed.gym.id}/`,
    location_name: t.seed.gym.name,
    free_entry_reason: '',
    free_entry_granting_user_id: null,
    free_entry_granting_user_first_name: null,
    free_entry_granting_user_last_name: null,
    converted_from_free_entry: false,
    milestone_list: [],
    check_in_count: 5,
    created_at: START,
    updated_at: START,
    customer_profile_image_url: photoOf(c),
    customer_alerts: [],
    reservations: [],
    notices: [],
    ...fields,
  }
}

describe('POST /api/customers/<id>/check-in/', () => {
  test('a user without can_manage_members gets 403; an unknown or deactivated customer 404', async () => {
    const c = await makeDoorCustomer(t.db, 'D1')
    const res = await byId(c.id, {}, staff.allButMembers.token)
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: forbidden })
    const inactive = await makeDoorCustomer(t.db, 'D2', { is_active: 0 })
    for (const id of [inactive.id, 999]) {
      const missing = await byId(id)
      expect({ status: missing.status, body: missing.body }).toEqual({ status: 404, body: notFound })
    }
    const nowhere = await byId(c.id, { location_id: 999 })
    expect({ status: nowhere.status, body: nowhere.body }).toEqual({
      status: 400,
      body: { location_id: doesNotExist(999) },
    })
  })

  test('admits as the door does: the record, the count, the milestone and the same webhook', async () => {
    await makeWebhook(t.db, { webhook_url: 'http://127.0.0.1:9/hook' })
    await setOrganization(t.db, { milestones: [1, 5, 10] })
    const c = await makeDoorCustomer(t.db, 'D3', { check_in_count: 4 })
    await makeMembershipFor(t.db, c.id)
    await makeAlert(t.db, c.id, { alert_text: 'Owes for a chalk bag', color_hex: '1F6FEB' })
    const res = await byId(c.id)
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      admitted(res.body.id, c, {
        milestone_list: ['5th check-in'],
        customer_alerts: [
          {
            alert_text: 'Owes for a chalk bag',
            created_date: expect.any(String),
            color_hex: '1F6FEB',
            prevents_check_in: false,
          },
        ],
      }),
    )
    const [row] = await storedCheckIns(t.db)
    expect(row).toMatchObject({ entry_method: 'MEM', checked_in_by_id: staff.members.id, check_in_count: 5 })
    expect(await storedCheckInTotals(t.db, c.id)).toEqual({
      check_in_count: 5,
      first_check_in_timestamp: START,
    })

    // The same check_in webhook body a barcode check-in enqueues (test/api/door/webhooks.test.ts).
    const events = await storedWebhookEvents(t.db)
    expect(events.map((e) => ({ event_type: e.event_type, status: e.status, body: e.body }))).toEqual([
      {
        event_type: 'check_in',
        status: 'pending',
        body: {
          webhook_event_id: events[0]!.id,
          event_type: 'check_in',
          secret: '',
          event: {
            id: row!.id,
            customer_id: c.id,
            customer_first_name: c.first_name,
            customer_last_name: c.last_name,
            customer_birthday: c.birthday,
            customer_email: c.email,
            check_in_datetime: '2026-11-22T08:04:05-07:00',
            entry_method: 'MEM',
            entry_method_description: 'Monthly Adult',
            location_id: t.seed.gym.id,
            location_name: t.seed.gym.name,
            check_in_count: 5,
          },
        },
      },
    ])
  })

  test('a second check-in within the window is the amber duplicate, with since when', async () => {
    // With the box's own photo: both answers link it, for the card.
    const c = await makeDoorCustomer(t.db, 'D5', { profile_image_url: '/api/customers/77/photo/' })
    expect(photoOf(c)).toBe('http://localhost/api/customers/77/photo/')
    await makeMembershipFor(t.db, c.id)
    const first = await byId(c.id)
    expect(first.status).toBe(201)
    expect(first.body.customer_profile_image_url).toBe('http://localhost/api/customers/77/photo/')
    t.clock.advance(5 * 60_000)
    const again = await byId(c.id)
    expect({ status: again.status, body: again.body }).toEqual({
      status: 400,
      body: {
        error: 'duplicate_check_in',
        detail: 'Already inside since 08:04.',
        reasons: [],
        inside_since: '2026-11-22T08:04:05',
        ...who(c),
      },
    })
    t.clock.advance(1)
    expect((await byId(c.id)).status).toBe(201)
    expect(await storedCheckIns(t.db)).toHaveLength(2)
  })

  test('ten simultaneous check-ins of one customer record exactly one', async () => {
    const c = await makeDoorCustomer(t.db, 'D6')
    await makePassFor(t.db, c.id)
    const answers = await Promise.all(Array.from({ length: 10 }, () => byId(c.id)))
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(9).fill(400)])
    expect(new Set(answers.filter((a) => a.status === 400).map((a) => a.body.error))).toEqual(
      new Set(['duplicate_check_in']),
    )
    expect(await storedCheckIns(t.db)).toHaveLength(1)
    const pass = await t.db
      .selectFrom('customer_entry_passes')
      .select('entries_remaining')
      .executeTakeFirstOrThrow()
    expect(pass.entries_remaining).toBe(9)
  })
})

describe('why not, in words', () => {
  const cases: [
    string,
    (c: Customer) => Promise<unknown>,
    string,
    { code: string; detail: string; [k: string]: string }[],
  ][] = [
    [
      'nothing at all',
      async () => {},
      'no_entry_method',
      [{ code: 'no_entry_method', detail: 'No membership, entry pass or event booking.' }],
    ],
    [
      'a frozen membership',
      (c) => makeMembershipFor(t.db, c.id, { membership: { status: 'FRZ' } }),
      'no_entry_method',
      [{ code: 'membership_frozen', detail: 'Monthly Adult is frozen.' }],
    ],
    [
      'a member frozen on their own',
      (c) =>
        makeMembershipFor(t.db, c.id, { membership: { members: [{ customer_id: c.id, is_frozen: true }] } }),
      'no_entry_method',
      [{ code: 'membership_frozen', detail: 'Monthly Adult is frozen.' }],
    ],
    [
      'outside access hours (Sunday 08:04)',
      (c) =>
        makeMembershipFor(t.db, c.id, {
          type: {
            name: 'Off-Peak',
            access_hours: JSON.stringify([
              { day: 'MON', start: '06:00', end: '16:00' },
              { day: 'TUE', start: '06:00', end: '16:00' },
              { day: 'SUN', start: '12:00', end: '18:00' },
            ]),
          },
        }),
      'no_entry_method',
      [
        {
          code: 'outside_access_hours',
          detail: 'Off-Peak lets in Mon, Tue 06:00–16:00; Sun 12:00–18:00 only.',
          hours: 'Mon, Tue 06:00–16:00; Sun 12:00–18:00',
        },
      ],
    ],
    [
      'a prepaid membership past its end',
      (c) =>
        makeMembershipFor(t.db, c.id, {
          type: { name: '3 Months', purchase_type: 'PRE' },
          membership: { end_date: '2026-11-15' },
        }),
      'no_entry_method',
      [{ code: 'membership_ended', detail: '3 Months ended on 2026-11-15.', date: '2026-11-15' }],
    ],
    [
      'an ended membership',
      (c) => makeMembershipFor(t.db, c.id, { membership: { status: 'END', end_date: '2026-10-31' } }),
      'no_entry_method',
      [{ code: 'membership_ended', detail: 'Monthly Adult ended on 2026-10-31.', date: '2026-10-31' }],
    ],
    [
      'a membership not started',
      (c) => makeMembershipFor(t.db, c.id, { membership: { start_date: '2026-12-01' } }),
      'no_entry_method',
      [{ code: 'membership_not_started', detail: 'Monthly Adult starts on 2026-12-01.', date: '2026-12-01' }],
    ],
    [
      'a failed renewal',
      (c) => makeMembershipFor(t.db, c.id, { membership: { status: 'PAF' } }),
      'no_entry_method',
      [{ code: 'membership_payment_failed', detail: 'Monthly Adult: the last payment failed.' }],
    ],
    [
      'a pass used up',
      (c) => makePassFor(t.db, c.id, { entries_remaining: 0 }),
      'no_entry_method',
      [{ code: 'pass_used_up', detail: '10-Punch Card is used up.' }],
    ],
    [
      'a pass expired',
      (c) => makePassFor(t.db, c.id, { expiry_date: '2026-11-21' }),
      'no_entry_method',
      [{ code: 'pass_expired', detail: '10-Punch Card expired on 2026-11-21.', date: '2026-11-21' }],
    ],
    [
      'an alert, then an expired waiver',
      async (c) => {
        await makeAlert(t.db, c.id, { alert_text: 'Belay test needed', prevents_check_in: 1 })
        await t.db.deleteFrom('customer_documents').where('customer_id', '=', c.id).execute()
        await makeDocument(t.db, c.id, { expiration_date: '2026-11-01' })
        await makeDocument(t.db, c.id, { expiration_date: '2026-10-01' })
      },
      'check_in_alerts',
      [
        { code: 'alert', detail: 'Belay test needed' },
        { code: 'waiver_expired', detail: 'Waiver expired on 2026-11-01.', date: '2026-11-01' },
      ],
    ],
    [
      'no waiver at all',
      (c) => t.db.deleteFrom('customer_documents').where('customer_id', '=', c.id).execute(),
      'check_in_alerts',
      [{ code: 'no_waiver', detail: 'No signed waiver.' }],
    ],
  ]
  for (const [name, given, error, reasons] of cases) {
    test(`${name}: ${error}, recording nothing`, async () => {
      await makeWebhook(t.db, { webhook_url: 'http://127.0.0.1:9/hook' })
      const c = await makeDoorCustomer(t.db, 'W1')
      await given(c)
      const res = await byId(c.id)
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: refusal(c, error, reasons),
      })
      // The door's own answer is unchanged: its code alone.
      const door = await t.request('POST', barcodePath('W1'), { token: t.seed.staffToken })
      expect(door.body.error).toBe(error)
      expect(door.body.reasons).toBeUndefined()
      expect(await storedCheckIns(t.db)).toEqual([])
      expect(await storedWebhookEvents(t.db)).toEqual([])
    })
  }
})

describe('notices with an admission', () => {
  test("the pass's last entry", async () => {
    const c = await makeDoorCustomer(t.db, 'N1')
    await makePassFor(t.db, c.id, { entries_remaining: 1 })
    const res = await byId(c.id)
    expect(res.body.notices).toEqual([{ code: 'last_entry', detail: 'Last entry on this pass' }])
    expect(res.body.entry_method_description).toBe('10-Punch Card (0 remaining)')
  })

  test('a prepaid membership ending within 7 days; not one ending later, nor a recurring one', async () => {
    const soon = await makeDoorCustomer(t.db, 'N2')
    await makeMembershipFor(t.db, soon.id, {
      type: { name: '3 Months', purchase_type: 'PRE' },
      membership: { end_date: '2026-11-29' },
    })
    expect((await byId(soon.id)).body.notices).toEqual([
      { code: 'membership_ends', detail: 'Membership ends 2026-11-29' },
    ])
    const later = await makeDoorCustomer(t.db, 'N3')
    await makeMembershipFor(t.db, later.id, {
      type: { name: '3 Months', purchase_type: 'PRE' },
      membership: { end_date: '2026-11-30' },
    })
    expect((await byId(later.id)).body.notices).toEqual([])
    const recurring = await makeDoorCustomer(t.db, 'N4')
    await makeMembershipFor(t.db, recurring.id, { membership: { end_date: '2026-11-25' } })
    expect((await byId(recurring.id)).body.notices).toEqual([])
  })
})

describe('POST /api/customers/check-in-by-barcode/', () => {
  const byBarcode = (body: unknown) => t.request('POST', BY_BARCODE, { token: t.seed.staffToken, body })

  test('checks in by barcode as by id; an unknown barcode is 404 in words; a barcode is required', async () => {
    const c = await makeDoorCustomer(t.db, 'B 1/%')
    await makeMembershipFor(t.db, c.id)
    const res = await byBarcode({ barcode: 'B 1/%' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      admitted(res.body.id, c, { check_in_count: 1, milestone_list: ['1st check-in'] }),
    )
    const again = await byBarcode({ barcode: 'B 1/%' })
    expect(again.body.error).toBe('duplicate_check_in')
    const unknown = await byBarcode({ barcode: 'NOBODY' })
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: 404,
      body: { error: 'customer_not_found', detail: 'No active customer has this barcode.' },
    })
    const none = await byBarcode({})
    expect({ status: none.status, body: none.body }).toEqual({
      status: 400,
      body: { barcode: ['This field is required.'] },
    })
  })
})
