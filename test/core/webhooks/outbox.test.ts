import { describe, expect, test } from 'bun:test'
import { DateTime } from 'luxon'
import { enqueueCheckInEvent } from '../../../src/core/webhooks/outbox.ts'
import { localDateTimeWithOffset } from '../../../src/lib/local-time.ts'
import { START } from '../../helpers/app.ts'
import { checkInEventData, expectedCheckInEvent, makeWebhook } from '../../helpers/webhook-factories.ts'
import { useWebhookOutbox } from '../../helpers/webhook-outbox.ts'

/**
 * The outbox the check-in transaction writes into: one row per check_in webhook with
 * the exact body, inside the caller's transaction. Delivery: webhook-dispatcher.test.ts.
 */

const w = useWebhookOutbox()

describe('the outbox', () => {
  test('writes one pending row per check_in webhook with the exact body, due now', async () => {
    const first = await makeWebhook(w.db, { webhook_url: w.receiver.url('/a'), secret: 's3cret' })
    const second = await makeWebhook(w.db, { webhook_url: w.receiver.url('/b') })
    w.enqueue()
    const rows = await w.events()
    expect(rows.map(({ body: _, ...row }) => row)).toEqual([
      {
        id: 1,
        webhook_id: first,
        event_type: 'check_in',
        status: 'pending',
        attempts: 0,
        next_attempt_at: START,
        delivered_at: null,
        created_at: START,
      },
      {
        id: 2,
        webhook_id: second,
        event_type: 'check_in',
        status: 'pending',
        attempts: 0,
        next_attempt_at: START,
        delivered_at: null,
        created_at: START,
      },
    ])
    expect(rows[0]!.body).toBe(
      JSON.stringify({
        webhook_event_id: 1,
        event_type: 'check_in',
        secret: 's3cret',
        event: expectedCheckInEvent,
      }),
    )
    expect(JSON.parse(rows[1]!.body)).toEqual({
      webhook_event_id: 2,
      event_type: 'check_in',
      secret: '',
      event: expectedCheckInEvent,
    })
  })

  test('writes nothing when no webhook is configured', async () => {
    w.enqueue()
    expect(await w.events()).toEqual([])
  })

  test("rolls back with the caller's transaction (it never commits on its own)", async () => {
    await makeWebhook(w.db, { webhook_url: w.receiver.url() })
    expect(() =>
      w.sqlite.transaction(() => {
        enqueueCheckInEvent(w.sqlite, checkInEventData(), START)
        throw new Error('the check-in failed after enqueueing')
      })(),
    ).toThrow('the check-in failed after enqueueing')
    expect(await w.events()).toEqual([])
  })

  test('never reuses an event id, even after its webhook and events are deleted', async () => {
    const first = await makeWebhook(w.db, { webhook_url: w.receiver.url() })
    w.enqueue()
    await w.db.deleteFrom('webhooks').where('id', '=', first).execute()
    await makeWebhook(w.db, { webhook_url: w.receiver.url() })
    w.enqueue()
    expect((await w.events()).map((e) => [e.id, JSON.parse(e.body).webhook_event_id])).toEqual([[2, 2]])
  })

  const offsets: Array<[string, string, string, string]> = [
    ['winter, Denver (MST)', '2026-11-22T15:04:05.123Z', 'America/Denver', '2026-11-22T08:04:05-07:00'],
    ['summer, Denver (MDT)', '2026-07-04T18:00:00.999Z', 'America/Denver', '2026-07-04T12:00:00-06:00'],
    ['UTC', '2026-11-22T15:04:05.000Z', 'UTC', '2026-11-22T15:04:05+00:00'],
    ['previous local day', '2026-11-23T02:30:00.000Z', 'America/Denver', '2026-11-22T19:30:00-07:00'],
    ['half-hour zone', '2026-11-22T15:04:05.000Z', 'Asia/Kolkata', '2026-11-22T20:34:05+05:30'],
    ['the last second of MDT', '2026-11-01T07:59:59.999Z', 'America/Denver', '2026-11-01T01:59:59-06:00'],
    ['the first second of MST', '2026-11-01T08:00:00.000Z', 'America/Denver', '2026-11-01T01:00:00-07:00'],
    ['the first second of MDT', '2026-03-08T09:00:00.000Z', 'America/Denver', '2026-03-08T03:00:00-06:00'],
    [
      'Lord Howe (30-minute DST)',
      '2026-01-15T00:00:00.000Z',
      'Australia/Lord_Howe',
      '2026-01-15T11:00:00+11:00',
    ],
  ]
  for (const [name, instant, zone, expected] of offsets) {
    test(`check_in_datetime is the location's wall clock with its offset: ${name}`, () => {
      expect(localDateTimeWithOffset(instant, zone)).toBe(expected)
    })
  }

  test('check_in_datetime agrees with luxon, also for instants a minute apart across a DST change', () => {
    const zones = ['America/Denver', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC']
    const starts = ['2026-11-01T07:58:30.500Z', '2026-03-29T00:58:59.000Z', '2026-04-04T14:58:00.000Z']
    for (const zone of zones) {
      for (const start of starts) {
        for (let minute = 0; minute < 4; minute++) {
          const instant = new Date(Date.parse(start) + minute * 60_000).toISOString()
          const expected = DateTime.fromISO(instant, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ")
          expect({ zone, instant, text: localDateTimeWithOffset(instant, zone) }).toEqual({
            zone,
            instant,
            text: expected,
          })
        }
      }
    }
  })
})
