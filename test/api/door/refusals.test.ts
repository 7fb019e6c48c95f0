import { describe, expect, test } from 'bun:test'
import { START } from '../../helpers/app.ts'
import { invalidInteger, notNull } from '../../helpers/bodies.ts'
import { makeAlert, makeCustomer, makeDocument } from '../../helpers/customer-factories.ts'
import {
  admittedBody,
  barcodePath,
  makeDoorCustomer,
  makeMembershipFor,
  makePassFor,
  makeReservationNow,
  refusedBody,
  setOrganization,
  storedCheckIns,
  storedCheckInTotals,
  storedWebhookEvents,
} from '../../helpers/door-factories.ts'
import { makeGym } from '../../helpers/factories.ts'
import { expectAnswer, useSeededApp } from '../../helpers/seeded.ts'
import { makeWebhook } from '../../helpers/webhook-factories.ts'

/*
 * Barcode check-in's refusals: the 404s without customer
 * fields, the 400s with them, the duplicate window under concurrent scans, a bad body, and the
 * combine-same-day gyms. Every refusal stores nothing: no check-in, no outbox row, no count.
 * The fixed clock reads 2026-11-22T15:04:05.123Z, Sunday 08:04:05 in Denver.
 */

const t = useSeededApp()

const scan = (barcode: string, body?: unknown) =>
  t.request('POST', barcodePath(barcode), {
    token: t.seed.staffToken,
    ...(body === undefined ? {} : { body }),
  })

/** A customer (barcode "LYNN1", waiver, 4 earlier check-ins) with an ACT membership, and a webhook. */
async function member(fields: Parameters<typeof makeDoorCustomer>[2] = {}) {
  await makeWebhook(t.db, { webhook_url: 'http://127.0.0.1:9/hook' })
  const customer = await makeDoorCustomer(t.db, 'LYNN1', { check_in_count: 4, ...fields })
  await makeMembershipFor(t.db, customer.id)
  return customer
}

/** Nothing was written: no check-in, no webhook event, the customer's total as it was. */
async function expectNothingStored(customerId?: number, total = 4) {
  expect(await storedCheckIns(t.db)).toEqual([])
  expect(await storedWebhookEvents(t.db)).toEqual([])
  if (customerId !== undefined) {
    expect((await storedCheckInTotals(t.db, customerId)).check_in_count).toBe(total)
  }
}

describe('404: no customer fields', () => {
  test('an unknown barcode is customer_not_found', async () => {
    await member()
    const res = await scan('NOBODY')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'customer_not_found' })
    await expectNothingStored()
  })

  test('a barcode whose percent escapes are not UTF-8 (%ff, a lone %) is customer_not_found', async () => {
    await member()
    for (const barcode of ['%ff', '%', 'LYNN%E2%80']) {
      const res = await scan(barcode)
      expectAnswer({ barcode }, res, 404, { error: 'customer_not_found' })
    }
    await expectNothingStored()
  })

  test('a deactivated customer is customer_not_found, whatever they hold', async () => {
    const customer = await member({ is_active: 0 })
    const res = await scan('LYNN1')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'customer_not_found' })
    await expectNothingStored(customer.id)
  })

  test('a location_id that names no gym is invalid_location', async () => {
    const customer = await member()
    const res = await scan('LYNN1', { location_id: 9999 })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'invalid_location' })
    await expectNothingStored(customer.id)
  })
})

describe('400: a bad body', () => {
  test('location_id "abc" is a DRF field error', async () => {
    const customer = await member()
    const res = await scan('LYNN1', { location_id: 'abc' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ location_id: invalidInteger })
    await expectNothingStored(customer.id)
  })

  test('location_id null, 1.5 or true, and a body that is no object, are DRF errors', async () => {
    const customer = await member()
    const cases: Array<[unknown, unknown]> = [
      [{ location_id: null }, { location_id: notNull }],
      [{ location_id: 1.5 }, { location_id: invalidInteger }],
      [{ location_id: true }, { location_id: invalidInteger }],
      [[], { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] }],
    ]
    for (const [body, errors] of cases) expectAnswer({ body }, await scan('LYNN1', body), 400, errors)
    await expectNothingStored(customer.id)
  })

  test('location_id as a numeric string is taken, as DRF takes it', async () => {
    const customer = await member()
    const res = await scan('LYNN1', { location_id: String(t.seed.gym.id) })
    const [row] = await storedCheckIns(t.db)
    expect(res.body).toEqual(admittedBody(row!.id, customer, { check_in_count: 5 }))
  })

  test('malformed JSON is a parse error', async () => {
    const customer = await member()
    const res = await scan('LYNN1', '{"location_id":')
    expect(res.status).toBe(400)
    expect(Object.keys(res.body)).toEqual(['detail'])
    expect(res.body.detail).toStartWith('JSON parse error - ')
    await expectNothingStored(customer.id)
  })

  test('an empty object is the same as no body', async () => {
    const customer = await member()
    const res = await scan('LYNN1', {})
    const [row] = await storedCheckIns(t.db)
    expect(res.body).toEqual(admittedBody(row!.id, customer, { check_in_count: 5 }))
  })
})

describe('400 check_in_alerts', () => {
  test('an active alert that prevents check-in', async () => {
    const customer = await member()
    await makeAlert(t.db, customer.id, { alert_text: 'Unpaid balance', prevents_check_in: 1 })
    await makeAlert(t.db, customer.id, { alert_text: 'Check ID', prevents_check_in: 0 })
    const res = await scan('LYNN1')
    expect(res.status).toBe(400)
    expect(res.body).toEqual(refusedBody('check_in_alerts', customer, ['Unpaid balance']))
    await expectNothingStored(customer.id)
  })

  test('the built-in "No waiver", with no email on file (customer_email null)', async () => {
    const customer = await member({ waiver: false, email: null })
    const res = await scan('LYNN1')
    expect(res.status).toBe(400)
    expect(res.body).toEqual(refusedBody('check_in_alerts', customer, ['No waiver']))
    expect(res.body.customer_email).toBeNull()
    await expectNothingStored(customer.id)
  })

  test('every preventing alert, the customer\'s first, then "No waiver"', async () => {
    const customer = await member({ waiver: false })
    await makeAlert(t.db, customer.id, { alert_text: 'Unpaid balance', prevents_check_in: 1 })
    await makeAlert(t.db, customer.id, { alert_text: 'Banned', prevents_check_in: 1 })
    const res = await scan('LYNN1')
    expect(res.status).toBe(400)
    expect(res.body).toEqual(
      refusedBody('check_in_alerts', customer, ['Unpaid balance', 'Banned', 'No waiver']),
    )
  })

  test('an expired waiver, or a document that is no waiver, is "No waiver"', async () => {
    const customer = await member({ waiver: false })
    await makeDocument(t.db, customer.id, { expiration_date: '2026-11-21' })
    await makeDocument(t.db, customer.id, { name: 'Photo ID', kind: 'other' })
    const res = await scan('LYNN1')
    expect(res.body).toEqual(refusedBody('check_in_alerts', customer, ['No waiver']))
  })

  test('a waiver expiring today is usable through the end of the local day', async () => {
    const customer = await member({ waiver: false })
    await makeDocument(t.db, customer.id, { expiration_date: '2026-11-22' })
    // 23:59 in Denver on the 22nd is already the 23rd in UTC.
    t.clock.set('2026-11-23T06:59:00.000Z')
    expect((await scan('LYNN1')).status).toBe(200)
    t.clock.set('2026-11-23T07:00:00.000Z')
    const res = await scan('LYNN1')
    expect(res.status).toBe(400)
    expect(res.body).toEqual(refusedBody('check_in_alerts', customer, ['No waiver']))
  })

  test('waiver_required false lets a customer without a waiver in', async () => {
    await setOrganization(t.db, { waiver_required: 0 })
    const customer = await member({ waiver: false })
    const res = await scan('LYNN1')
    const [row] = await storedCheckIns(t.db)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(admittedBody(row!.id, customer, { check_in_count: 5 }))
  })
})

describe('400 no_entry_method', () => {
  test('a customer who holds nothing', async () => {
    const customer = await makeDoorCustomer(t.db, 'LYNN1', { check_in_count: 4 })
    const res = await scan('LYNN1')
    expect(res.status).toBe(400)
    expect(res.body).toEqual(refusedBody('no_entry_method', customer))
    await expectNothingStored(customer.id)
  })

  test('only unavailable methods: ended, frozen, outside access hours, used up, expired, no-entry event', async () => {
    const customer = await makeDoorCustomer(t.db, 'LYNN1', { check_in_count: 4 })
    await makeMembershipFor(t.db, customer.id, { membership: { status: 'CAN' } })
    await makeMembershipFor(t.db, customer.id, { membership: { status: 'FRZ' } })
    await makeMembershipFor(t.db, customer.id, { membership: { status: 'PAF' } })
    const other = await makeCustomer(t.db, { first_name: 'Beth', last_name: 'Rodden' })
    // An active group membership on which this member alone is frozen.
    await makeMembershipFor(t.db, other.id, {
      membership: { members: [{ customer_id: other.id }, { customer_id: customer.id, is_frozen: true }] },
    })
    // Sunday 08:04 in Denver: a weekday-mornings membership does not open the door.
    await makeMembershipFor(t.db, customer.id, {
      type: {
        name: 'Weekday Mornings',
        access_hours: JSON.stringify([{ day: 'MON', start: '06:00', end: '10:00' }]),
      },
    })
    await makeMembershipFor(t.db, customer.id, {
      type: { name: 'Ten Weeks', purchase_type: 'PRE', interval: '' },
      membership: { start_date: '2026-09-01', end_date: '2026-11-21' },
    })
    await makePassFor(t.db, customer.id, { entries_remaining: 0 })
    await makePassFor(t.db, customer.id, { expiry_date: '2026-11-21' })
    await makeReservationNow(t.db, customer.id, t.seed.gym.id, { reservation: { includes_entry: 0 } })

    const res = await scan('LYNN1')

    expect(res.status).toBe(400)
    expect(res.body).toEqual(refusedBody('no_entry_method', customer))
    await expectNothingStored(customer.id)
  })
})

describe('400 duplicate_check_in: 5 minutes per customer and location', () => {
  test('a second scan within 5 minutes at the same gym records nothing; after 5 minutes it is let in', async () => {
    const customer = await member()
    const first = await scan('LYNN1')
    expect(first.status).toBe(200)

    t.clock.advance(4 * 60_000 + 59_000)
    const again = await scan('LYNN1')
    expect(again.status).toBe(400)
    expect(again.body).toEqual(refusedBody('duplicate_check_in', customer))
    expect(await storedCheckIns(t.db)).toHaveLength(1)
    expect(await storedWebhookEvents(t.db)).toHaveLength(1)
    expect((await storedCheckInTotals(t.db, customer.id)).check_in_count).toBe(5)

    t.clock.set(new Date(Date.parse(START) + 5 * 60_000 + 1))
    const later = await scan('LYNN1')
    const rows = await storedCheckIns(t.db)
    expect(later.status).toBe(200)
    expect(later.body).toEqual(admittedBody(rows[1]!.id, customer, { check_in_count: 6 }))
    expect(rows).toHaveLength(2)
  })

  test('at another gym the customer is let in at once', async () => {
    const customer = await member()
    const north = await makeGym(t.db, { name: 'Boulder Barn North' })
    expect((await scan('LYNN1')).status).toBe(200)
    const res = await scan('LYNN1', { location_id: north.id })
    const rows = await storedCheckIns(t.db)
    expect(res.body).toEqual(admittedBody(rows[1]!.id, customer, { check_in_count: 6 }))
    expect(rows.map((r) => r.gym_id)).toEqual([t.seed.gym.id, north.id])
  })

  test('two simultaneous scans of one barcode record exactly one check-in', async () => {
    const customer = await member()
    await makePassFor(t.db, customer.id)
    const responses = await Promise.all([scan('LYNN1'), scan('LYNN1')])

    const rows = await storedCheckIns(t.db)
    expect(rows).toHaveLength(1)
    const byStatus = responses.map((r) => r.status).sort()
    expect(byStatus).toEqual([200, 400])
    const ok = responses.find((r) => r.status === 200)!
    const refused = responses.find((r) => r.status === 400)!
    expect(ok.body).toEqual(admittedBody(rows[0]!.id, customer, { check_in_count: 5 }))
    expect(refused.body).toEqual(refusedBody('duplicate_check_in', customer))
    expect(await storedWebhookEvents(t.db)).toHaveLength(1)
    expect((await storedCheckInTotals(t.db, customer.id)).check_in_count).toBe(5)
    // The membership let them in: the pass they also hold is untouched.
    const pass = await t.db
      .selectFrom('customer_entry_passes')
      .select('entries_remaining')
      .executeTakeFirstOrThrow()
    expect(pass.entries_remaining).toBe(10)
  })

  test('two simultaneous scans on an entry pass take one entry', async () => {
    const customer = await makeDoorCustomer(t.db, 'LYNN1')
    await makePassFor(t.db, customer.id, { entries_remaining: 2 })
    const responses = await Promise.all([scan('LYNN1'), scan('LYNN1')])
    expect(responses.map((r) => r.status).sort()).toEqual([200, 400])
    const pass = await t.db
      .selectFrom('customer_entry_passes')
      .select('entries_remaining')
      .executeTakeFirstOrThrow()
    expect(pass.entries_remaining).toBe(1)
    expect(await storedCheckIns(t.db)).toHaveLength(1)
  })
})

describe('a combine_same_day_check_ins gym: one check-in per customer per local day', () => {
  test('a later scan the same local day answers 200 with the earlier check-in and records nothing', async () => {
    await t.db.updateTable('gyms').set({ combine_same_day_check_ins: 1 }).execute()
    const customer = await makeDoorCustomer(t.db, 'LYNN1', { check_in_count: 0 })
    await makePassFor(t.db, customer.id, { entries_remaining: 5 })
    await makeWebhook(t.db, { webhook_url: 'http://127.0.0.1:9/hook' })

    const first = await scan('LYNN1')
    const [row] = await storedCheckIns(t.db)
    const earlier = admittedBody(row!.id, customer, {
      entry_method: 'ENT',
      entry_method_description: '10-Punch Card (4 remaining)',
      milestones: '1st check-in',
      check_in_count: 1,
    })
    expect(first.body).toEqual(earlier)

    // 17:30 in Denver, already the next day in UTC: still the same local day.
    t.clock.set('2026-11-23T00:30:00.000Z')
    const second = await scan('LYNN1')
    expect(second.status).toBe(200)
    expect(second.body).toEqual(earlier)
    expect(await storedCheckIns(t.db)).toHaveLength(1)
    expect(await storedWebhookEvents(t.db)).toHaveLength(1)
    expect(await storedCheckInTotals(t.db, customer.id)).toEqual({
      check_in_count: 1,
      first_check_in_timestamp: START,
    })
    const pass = await t.db
      .selectFrom('customer_entry_passes')
      .select('entries_remaining')
      .executeTakeFirstOrThrow()
    expect(pass.entries_remaining).toBe(4)

    // Local midnight in Denver: a new day, a new check-in.
    t.clock.set('2026-11-23T07:00:00.000Z')
    const nextDay = await scan('LYNN1')
    const rows = await storedCheckIns(t.db)
    expect(nextDay.body).toEqual(
      admittedBody(rows[1]!.id, customer, {
        entry_method: 'ENT',
        entry_method_description: '10-Punch Card (3 remaining)',
        check_in_count: 2,
      }),
    )
    expect(rows.map((r) => r.local_date)).toEqual(['2026-11-22', '2026-11-23'])
  })
})
