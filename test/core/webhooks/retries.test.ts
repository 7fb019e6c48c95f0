import { describe, expect, spyOn, test } from 'bun:test'
import { afterAttempt, MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../../src/core/webhooks/dispatcher.ts'
import { GroupCommit } from '../../../src/db/group-commit.ts'
import { START } from '../../helpers/app.ts'
import { gate, makeWebhook, startReceiver } from '../../helpers/webhook-factories.ts'
import { useWebhookOutbox } from '../../helpers/webhook-outbox.ts'

/**
 * Failed deliveries: anything but a 2xx, a timeout or a refused connection is
 * retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; the 8th failure is final. The clock is
 * driven by hand; the receiver is real.
 */

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

const w = useWebhookOutbox()

describe('failures and retries', () => {
  test('a 500 is retried on the backoff schedule; 8 attempts in all, then failed', async () => {
    await makeWebhook(w.db, { webhook_url: w.receiver.url() })
    w.receiver.respond(() => new Response('down for maintenance', { status: 500 }))
    w.enqueue()
    const d = w.dispatcher()
    expect(RETRY_DELAYS_MS).toEqual([
      5 * SECOND,
      5 * MINUTE,
      30 * MINUTE,
      2 * HOUR,
      5 * HOUR,
      10 * HOUR,
      10 * HOUR,
    ])
    expect(MAX_ATTEMPTS).toBe(8)

    const attemptTimes: string[] = []
    for (let attempt = 1; attempt <= 8; attempt++) {
      attemptTimes.push(w.clock.now().toISOString())
      expect(await d.runDue()).toBe(1)
      const event = (await w.events())[0]!
      expect(event.attempts).toBe(attempt)
      if (attempt === 8) break
      const delay = RETRY_DELAYS_MS[attempt - 1]!
      expect(event).toMatchObject({
        status: 'pending',
        next_attempt_at: new Date(w.clock.now().getTime() + delay).toISOString(),
      })
      // Not a moment early...
      w.clock.advance(delay - 1)
      expect(await d.runDue()).toBe(0)
      // ...and on time.
      w.clock.advance(1)
    }

    expect((await w.events())[0]).toMatchObject({ status: 'failed', attempts: 8, delivered_at: null })
    w.clock.advance(48 * HOUR)
    expect(await d.runDue()).toBe(0)
    expect(w.receiver.requests).toHaveLength(8)
    // The same body and webhook event id on every attempt.
    expect(new Set(w.receiver.requests.map((r) => r.body)).size).toBe(1)
    expect(await w.deliveries()).toEqual(
      attemptTimes.map((attemptedAt, i) => ({
        id: i + 1,
        webhook_event_id: 1,
        attempt: i + 1,
        attempted_at: attemptedAt,
        status_code: 500,
        error: 'The receiver answered 500.',
        duration_ms: expect.any(Number),
        response_body: 'down for maintenance',
      })),
    )
  })

  test('a retry that succeeds delivers the event', async () => {
    await makeWebhook(w.db, { webhook_url: w.receiver.url() })
    w.receiver.respond((_, n) => new Response(n === 1 ? 'oops' : 'ok', { status: n === 1 ? 503 : 200 }))
    w.enqueue()
    const d = w.dispatcher()
    await d.runDue()
    w.clock.advance(5 * SECOND)
    await d.runDue()
    expect((await w.events())[0]).toMatchObject({
      status: 'delivered',
      attempts: 2,
      delivered_at: '2026-11-22T15:04:10.123Z',
    })
    expect((await w.deliveries()).map((d) => [d.attempt, d.status_code])).toEqual([
      [1, 503],
      [2, 200],
    ])
  })

  test('an attempt the disk would not record is recorded once it does, not sent again', async () => {
    await makeWebhook(w.db, { webhook_url: w.receiver.url() })
    w.enqueue()
    const diskFull = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })
    const commit = spyOn(GroupCommit.prototype, 'run').mockImplementationOnce(() => Promise.reject(diskFull))
    try {
      await w.dispatcher({ recordRetryMs: 1 }).runDue()
    } finally {
      commit.mockRestore()
    }
    expect(w.receiver.requests).toHaveLength(1)
    expect((await w.events())[0]).toMatchObject({ status: 'delivered', attempts: 1 })
    expect((await w.deliveries()).map((d) => [d.attempt, d.status_code])).toEqual([[1, 200]])
  })

  test('a 3xx is a failure and the redirect is not followed', async () => {
    await makeWebhook(w.db, { webhook_url: w.receiver.url('/old') })
    w.receiver.respond((request) =>
      request.path === '/old'
        ? new Response('moved', { status: 302, headers: { location: w.receiver.url('/new') } })
        : new Response('ok'),
    )
    w.enqueue()
    await w.dispatcher().runDue()
    expect(w.receiver.requests.map((r) => r.path)).toEqual(['/old'])
    expect((await w.events())[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      next_attempt_at: '2026-11-22T15:04:10.123Z',
    })
    expect((await w.deliveries())[0]).toMatchObject({
      status_code: 302,
      error: 'The receiver answered 302; redirects are not followed.',
      response_body: 'moved',
    })
  })

  test('a receiver that does not answer in time is a failed attempt with no status code', async () => {
    await makeWebhook(w.db, { webhook_url: w.receiver.url() })
    const never = gate()
    w.receiver.respond(async () => {
      await never.opened
      return new Response('too late')
    })
    w.enqueue()
    await w.dispatcher({ timeoutMs: 100 }).runDue()
    never.open()
    expect((await w.events())[0]).toMatchObject({ status: 'pending', attempts: 1 })
    expect((await w.deliveries())[0]).toMatchObject({
      status_code: null,
      error: 'No response within 0.1 s.',
      response_body: '',
    })
  })

  test('a receiver that refuses connections is a failed attempt with the error', async () => {
    const closed = startReceiver()
    const url = closed.url()
    closed.stop()
    await makeWebhook(w.db, { webhook_url: url })
    w.enqueue()
    await w.dispatcher().runDue()
    const [delivery] = await w.deliveries()
    expect(delivery).toMatchObject({ status_code: null, response_body: '' })
    expect(delivery!.error).toStartWith('The request failed: ')
    expect((await w.events())[0]).toMatchObject({ status: 'pending', attempts: 1 })
  })

  test('afterAttempt: the state an attempt leaves the event in', () => {
    const now = new Date(START)
    const at = (ms: number) => new Date(now.getTime() + ms).toISOString()
    const cases: Array<[string, number, boolean, ReturnType<typeof afterAttempt>]> = [
      ['delivered on the first attempt', 1, true, { status: 'delivered', delivered_at: START }],
      ['delivered on the last attempt', 8, true, { status: 'delivered', delivered_at: START }],
      ['attempt 1 failed', 1, false, { status: 'pending', next_attempt_at: at(5 * SECOND) }],
      ['attempt 2 failed', 2, false, { status: 'pending', next_attempt_at: at(5 * MINUTE) }],
      ['attempt 3 failed', 3, false, { status: 'pending', next_attempt_at: at(30 * MINUTE) }],
      ['attempt 4 failed', 4, false, { status: 'pending', next_attempt_at: at(2 * HOUR) }],
      ['attempt 5 failed', 5, false, { status: 'pending', next_attempt_at: at(5 * HOUR) }],
      ['attempt 6 failed', 6, false, { status: 'pending', next_attempt_at: at(10 * HOUR) }],
      ['attempt 7 failed', 7, false, { status: 'pending', next_attempt_at: at(10 * HOUR) }],
      ['attempt 8 failed: for good', 8, false, { status: 'failed' }],
    ]
    for (const [name, attempt, delivered, expected] of cases) {
      expect({ name, next: afterAttempt(attempt, { delivered }, now) }).toEqual({ name, next: expected })
    }
  })
})
