import { describe, expect, test } from 'bun:test'
import { START } from '../../helpers/app.ts'
import {
  barcodePath,
  makeDoorCustomer,
  makeMembershipFor,
  makePassFor,
  storedCheckIns,
  storedWebhookEvents,
} from '../../helpers/door-factories.ts'
import { makeGym } from '../../helpers/factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'
import { makeWebhook } from '../../helpers/webhook-factories.ts'

/*
 * The webhook outbox rows a barcode check-in writes in its own transaction: one pending row per check_in webhook, holding the exact body every delivery attempt sends.
 * Delivery itself: webhook-dispatcher tests. Refusals write none: door-refusals.test.ts.
 * The fixed clock reads 2026-11-22T15:04:05.123Z, Sunday 08:04:05 in Denver (MST, -07:00).
 */

const t = useSeededApp()

const scan = (barcode: string, body?: unknown) =>
  t.request('POST', barcodePath(barcode), {
    token: t.seed.staffToken,
    ...(body === undefined ? {} : { body }),
  })

/** A customer (barcode "LYNN1") with a waiver, an ACT Monthly Adult membership and 4 earlier check-ins. */
async function member(fields: Parameters<typeof makeDoorCustomer>[2] = {}) {
  const customer = await makeDoorCustomer(t.db, 'LYNN1', { check_in_count: 4, ...fields })
  await makeMembershipFor(t.db, customer.id)
  return { customer }
}

describe('webhooks: one outbox row per check_in webhook, in the check-in transaction', () => {
  test('each webhook gets a pending row holding the exact documented body', async () => {
    const { customer } = await member({ first_name: 'Alex', last_name: 'Honnold', birthday: '1985-08-17' })
    const plain = await makeWebhook(t.db, { webhook_url: 'http://127.0.0.1:9/a' })
    const signed = await makeWebhook(t.db, { webhook_url: 'http://127.0.0.1:9/b', secret: 's3cret' })

    const res = await scan('LYNN1')

    const [row] = await storedCheckIns(t.db)
    const event = {
      id: row!.id,
      customer_id: customer.id,
      customer_first_name: 'Alex',
      customer_last_name: 'Honnold',
      customer_birthday: '1985-08-17',
      customer_email: 'lynn@example.com',
      check_in_datetime: '2026-11-22T08:04:05-07:00',
      entry_method: 'MEM',
      entry_method_description: 'Monthly Adult',
      location_id: t.seed.gym.id,
      location_name: 'Boulder Barn Downtown',
      check_in_count: 5,
    }
    expect(res.status).toBe(200)
    const events = await storedWebhookEvents(t.db)
    expect(events.map(({ id, ...rest }) => rest)).toEqual([
      {
        webhook_id: plain,
        event_type: 'check_in',
        body: { webhook_event_id: events[0]!.id, event_type: 'check_in', secret: '', event },
        status: 'pending',
        attempts: 0,
        next_attempt_at: START,
        delivered_at: null,
        created_at: START,
      },
      {
        webhook_id: signed,
        event_type: 'check_in',
        body: { webhook_event_id: events[1]!.id, event_type: 'check_in', secret: 's3cret', event },
        status: 'pending',
        attempts: 0,
        next_attempt_at: START,
        delivered_at: null,
        created_at: START,
      },
    ])
    // The body's keys are in the reference's order, as the receiver reads them.
    const raw = await t.db.selectFrom('webhook_events').select('body').orderBy('id').executeTakeFirstOrThrow()
    expect(Object.keys(JSON.parse(raw.body))).toEqual(['webhook_event_id', 'event_type', 'secret', 'event'])
    expect(Object.keys(JSON.parse(raw.body).event)).toEqual(Object.keys(event))
  })

  test("an entry-pass check-in's event, at another gym and zone, with no email", async () => {
    const customer = await makeDoorCustomer(t.db, 'LYNN1', { email: null })
    await makePassFor(t.db, customer.id)
    const tokyo = await makeGym(t.db, { name: 'Boulder Barn Tokyo', time_zone: 'Asia/Tokyo' })
    await makeWebhook(t.db, { webhook_url: 'http://127.0.0.1:9/a' })

    await scan('LYNN1', { location_id: tokyo.id })

    const [row] = await storedCheckIns(t.db)
    const [stored] = await storedWebhookEvents(t.db)
    expect(stored!.body.event).toEqual({
      id: row!.id,
      customer_id: customer.id,
      customer_first_name: 'Lynn',
      customer_last_name: 'Hill',
      customer_birthday: '1961-01-03',
      customer_email: null,
      check_in_datetime: '2026-11-23T00:04:05+09:00',
      entry_method: 'ENT',
      entry_method_description: '10-Punch Card (9 remaining)',
      location_id: tokyo.id,
      location_name: 'Boulder Barn Tokyo',
      check_in_count: 1,
    })
  })

  test('no webhook configured: no outbox row', async () => {
    await member()
    expect((await scan('LYNN1')).status).toBe(200)
    expect(await storedWebhookEvents(t.db)).toEqual([])
  })
})
