import { describe, expect, test } from 'bun:test'
import { START, type TestResponse } from '../../helpers/app.ts'
import { invalidInteger } from '../../helpers/bodies.ts'
import { makeAlert } from '../../helpers/customer-factories.ts'
import { diskFull, fillDiskOnInsertInto } from '../../helpers/disk-full.ts'
import {
  barcodePath,
  makeDoorCustomer,
  makeMembershipFor,
  makePassFor,
  openDoorPath,
  storedCheckIns,
  storedCheckInTotals,
  storedWebhookEvents,
} from '../../helpers/door-factories.ts'
import { makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import { expectEachNotAllowed, testEachNeedsTokenApart, useSeededApp } from '../../helpers/seeded.ts'
import { makeWebhook } from '../../helpers/webhook-factories.ts'

/*
 * POST /api/gym-endpoints/open-door-check-in/<barcode>/: the same
 * check-in as barcode check-in, answered for a door controller: 200 with an empty body opens the
 * door, any 4xx does not, and the body is plain text to display. The fixed clock reads
 * 2026-11-22T15:04:05.123Z, Sunday 08:04:05 in Denver.
 */

const t = useSeededApp()

const open = (barcode: string, body?: unknown, token = t.seed.staffToken) =>
  t.request('POST', openDoorPath(barcode), { token, ...(body === undefined ? {} : { body }) })

const NO_ENTRY =
  'You do not have an available entry method. Please ensure you have an active membership, entry pass, or event booking.'

/** Status, content type and the whole text body at once. */
function expectText(res: TestResponse, status: number, text: string) {
  expect({ status: res.status, type: res.headers.get('content-type'), body: res.body }).toEqual({
    status,
    type: 'text/plain; charset=utf-8',
    body: text,
  })
}

/** A customer (barcode "LYNN1", waiver, 4 earlier check-ins) with an ACT membership, and a webhook. */
async function member(fields: Parameters<typeof makeDoorCustomer>[2] = {}) {
  await makeWebhook(t.db, { webhook_url: 'http://127.0.0.1:9/hook' })
  const customer = await makeDoorCustomer(t.db, 'LYNN1', { check_in_count: 4, ...fields })
  await makeMembershipFor(t.db, customer.id)
  return customer
}

async function expectNothingStored() {
  expect(await storedCheckIns(t.db)).toEqual([])
  expect(await storedWebhookEvents(t.db)).toEqual([])
}

describe('authentication and methods', () => {
  testEachNeedsTokenApart(t, [['POST', openDoorPath('LYNN1')]])

  test('GET, PUT, PATCH and DELETE are 405', async () => {
    const path = openDoorPath('LYNN1')
    await expectEachNotAllowed(t, t.seed.staffToken, [
      ['GET', path],
      ['PUT', path, {}],
      ['PATCH', path, {}],
      ['DELETE', path],
    ])
    await expectNothingStored()
  })
})

describe('200: open the door', () => {
  test('a member: an empty text body, and the check-in is recorded with its webhook event', async () => {
    const customer = await member()
    const res = await open('LYNN1')
    expectText(res, 200, '')
    const rows = await storedCheckIns(t.db)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      customer_id: customer.id,
      gym_id: t.seed.gym.id,
      entry_method: 'MEM',
      entry_method_description: 'Monthly Adult',
      check_in_count: 5,
      checked_in_by_id: t.seed.staff.id,
      created_at: START,
    })
    const events = await storedWebhookEvents(t.db)
    expect(events.map((e) => e.body.event)).toEqual([
      {
        id: rows[0]!.id,
        customer_id: customer.id,
        customer_first_name: 'Lynn',
        customer_last_name: 'Hill',
        customer_birthday: '1961-01-03',
        customer_email: 'lynn@example.com',
        check_in_datetime: '2026-11-22T08:04:05-07:00',
        entry_method: 'MEM',
        entry_method_description: 'Monthly Adult',
        location_id: t.seed.gym.id,
        location_name: 'Boulder Barn Downtown',
        check_in_count: 5,
      },
    ])
    expect((await storedCheckInTotals(t.db, customer.id)).check_in_count).toBe(5)
  })

  test('an entry pass: one entry taken', async () => {
    const customer = await makeDoorCustomer(t.db, 'LYNN1')
    await makePassFor(t.db, customer.id, { entries_remaining: 2 })
    expectText(await open('LYNN1'), 200, '')
    const pass = await t.db
      .selectFrom('customer_entry_passes')
      .select('entries_remaining')
      .executeTakeFirstOrThrow()
    expect(pass.entries_remaining).toBe(1)
    expect((await storedCheckIns(t.db)).map((r) => r.entry_method_description)).toEqual([
      '10-Punch Card (1 remaining)',
    ])
  })

  test('a duplicate scan within the window opens again and records nothing new', async () => {
    const customer = await member()
    expectText(await open('LYNN1'), 200, '')
    t.clock.advance(60_000)
    expectText(await open('LYNN1'), 200, '')
    expect(await storedCheckIns(t.db)).toHaveLength(1)
    expect(await storedWebhookEvents(t.db)).toHaveLength(1)
    expect((await storedCheckInTotals(t.db, customer.id)).check_in_count).toBe(5)
  })

  test('two simultaneous scans both open the door and record one check-in', async () => {
    await member()
    const [a, b] = await Promise.all([open('LYNN1'), open('LYNN1')])
    expectText(a!, 200, '')
    expectText(b!, 200, '')
    expect(await storedCheckIns(t.db)).toHaveLength(1)
    expect(await storedWebhookEvents(t.db)).toHaveLength(1)
  })

  test("with two gyms and no location_id, the check-in is at the user's default gym", async () => {
    await member()
    const north = await makeGym(t.db, { name: 'Boulder Barn North' })
    const northDoor = await makeUser(t.db, { default_gym_id: north.id })
    expectText(await open('LYNN1', undefined, await makeToken(t.db, northDoor)), 200, '')
    expectText(await open('LYNN1', { location_id: t.seed.gym.id }, await makeToken(t.db, northDoor)), 200, '')
    expect((await storedCheckIns(t.db)).map((r) => r.gym_id)).toEqual([north.id, t.seed.gym.id])
  })
})

describe('4xx: the door stays shut, with the text to display', () => {
  test('404 for an unknown barcode', async () => {
    await member()
    expectText(await open('NOBODY'), 404, 'Unknown or deactivated customer account.')
    await expectNothingStored()
  })

  test('404 for a barcode whose percent escapes are not UTF-8 (%ff, a lone %)', async () => {
    await member()
    for (const barcode of ['%ff', '%', 'LYNN%E2%80']) {
      expectText(await open(barcode), 404, 'Unknown or deactivated customer account.')
    }
    await expectNothingStored()
  })

  test('404 for a deactivated customer', async () => {
    await member({ is_active: 0 })
    expectText(await open('LYNN1'), 404, 'Unknown or deactivated customer account.')
    await expectNothingStored()
  })

  test('400 naming the alert that prevents check-in', async () => {
    const customer = await member()
    await makeAlert(t.db, customer.id, { alert_text: 'Unpaid balance', prevents_check_in: 1 })
    expectText(
      await open('LYNN1'),
      400,
      'The following alert is preventing you from checking in: Unpaid balance.',
    )
    await expectNothingStored()
  })

  test('400 naming the built-in "No waiver"', async () => {
    await member({ waiver: false })
    expectText(await open('LYNN1'), 400, 'The following alert is preventing you from checking in: No waiver.')
    await expectNothingStored()
  })

  test('400 without an available entry method', async () => {
    const customer = await makeDoorCustomer(t.db, 'LYNN1')
    await makeMembershipFor(t.db, customer.id, { membership: { status: 'FRZ' } })
    expectText(await open('LYNN1'), 400, NO_ENTRY)
    await expectNothingStored()
  })

  test('a bad body is the DRF field error, as on every endpoint', async () => {
    await member()
    const res = await open('LYNN1', { location_id: 'abc' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ location_id: invalidInteger })
    await expectNothingStored()
  })

  test('a location_id that names no gym is a 404', async () => {
    await member()
    const res = await open('LYNN1', { location_id: 9999 })
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    await expectNothingStored()
  })
})

describe('503: a full disk keeps the door shut', () => {
  const NOT_RECORDED = 'The check-in could not be recorded. Please see the front desk.'

  test('a check-in that cannot be saved is not a 200, and nothing of it is stored; once space is freed the scan opens', async () => {
    const customer = await member()
    // The outbox row is the check-in's last write: the row, count and event all go together.
    const freeSpace = fillDiskOnInsertInto(t.deps.sqlite, 'webhook_events')
    const res = await open('LYNN1')
    expectText(res, 503, NOT_RECORDED)
    expect(res.headers.get('retry-after')).toBe('60')
    await expectNothingStored()
    expect((await storedCheckInTotals(t.db, customer.id)).check_in_count).toBe(4)

    freeSpace()
    expectText(await open('LYNN1'), 200, '')
    expect(await storedCheckIns(t.db)).toHaveLength(1)
    expect((await storedCheckInTotals(t.db, customer.id)).check_in_count).toBe(5)
  })

  test('barcode check-in answers the DRF 503 body', async () => {
    await member()
    fillDiskOnInsertInto(t.deps.sqlite, 'webhook_events')
    const res = await t.request('POST', barcodePath('LYNN1'), { token: t.seed.staffToken })
    expect([res.status, res.body, res.headers.get('retry-after')]).toEqual([503, diskFull, '60'])
    await expectNothingStored()
  })
})
