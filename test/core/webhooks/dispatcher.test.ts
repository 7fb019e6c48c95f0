import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { createHmac, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WebhookDispatcher } from '../../../src/core/webhooks/dispatcher.ts'
import { enqueueCheckInEvent } from '../../../src/core/webhooks/outbox.ts'
import { silentLogger } from '../../../src/lib/log.ts'
import { START } from '../../helpers/app.ts'
import {
  checkInEventData,
  expectedCheckInEvent,
  gate,
  makeWebhook,
  waitFor,
} from '../../helpers/webhook-factories.ts'
import { openMigrated, useWebhookOutbox } from '../../helpers/webhook-outbox.ts'

/**
 * The webhook dispatcher against a real local receiver: the exact body, Standard
 * Webhooks signatures, per-webhook order, concurrency across webhooks, stopping, and a restart in
 * the middle of a backoff. Retries and failures: webhook-retries.test.ts.
 */

const SECOND = 1000
const HOUR = 60 * 60 * SECOND
const START_SECONDS = Math.floor(Date.parse(START) / 1000)

const w = useWebhookOutbox()

const hmac = (key: Buffer, signed: string) => createHmac('sha256', key).update(signed).digest('base64')

describe('delivery', () => {
  test('POSTs the stored body byte for byte as application/json and marks it delivered', async () => {
    const id = await makeWebhook(w.db, { webhook_url: w.receiver.url('/in') })
    w.enqueue({ customer_email: null, customer_first_name: 'Zoë "Z"' })
    expect(await w.dispatcher().runDue()).toBe(1)

    const [event] = await w.events()
    expect(w.receiver.requests).toHaveLength(1)
    const request = w.receiver.requests[0]!
    expect(request.method).toBe('POST')
    expect(request.path).toBe('/in')
    expect(request.headers['content-type']).toBe('application/json')
    expect(request.body).toBe(event!.body)
    expect(JSON.parse(request.body)).toEqual({
      webhook_event_id: event!.id,
      event_type: 'check_in',
      secret: '',
      event: { ...expectedCheckInEvent, customer_email: null, customer_first_name: 'Zoë "Z"' },
    })
    // No secret, no signature headers.
    expect(request.headers['webhook-id']).toBeUndefined()
    expect(request.headers['webhook-signature']).toBeUndefined()

    expect(await w.eventRow(event!.id)).toMatchObject({
      webhook_id: id,
      status: 'delivered',
      attempts: 1,
      delivered_at: START,
    })
    const [delivery] = await w.deliveries()
    expect(delivery).toEqual({
      id: 1,
      webhook_event_id: event!.id,
      attempt: 1,
      attempted_at: START,
      status_code: 200,
      error: '',
      duration_ms: expect.any(Number),
      response_body: 'ok',
    })
  })

  test('a plain secret signs with its UTF-8 bytes (Standard Webhooks), verifiable by the receiver', async () => {
    const secret = 'pässwörd with spaces'
    await makeWebhook(w.db, { webhook_url: w.receiver.url(), secret })
    w.enqueue()
    await w.dispatcher().runDue()

    const { headers, body } = w.receiver.requests[0]!
    expect(headers['webhook-id']).toBe('msg_1')
    expect(headers['webhook-timestamp']).toBe(String(START_SECONDS))
    const signed = `msg_1.${START_SECONDS}.${body}`
    expect(headers['webhook-signature']).toBe(`v1,${hmac(Buffer.from(secret, 'utf8'), signed)}`)
    expect(JSON.parse(body).secret).toBe(secret)
  })

  test('a whsec_ secret signs with its base64-decoded bytes', async () => {
    const key = randomBytes(24)
    const secret = `whsec_${key.toString('base64')}`
    await makeWebhook(w.db, { webhook_url: w.receiver.url(), secret })
    w.enqueue()
    await w.dispatcher().runDue()

    const { headers, body } = w.receiver.requests[0]!
    const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`
    expect(headers['webhook-signature']).toBe(`v1,${hmac(key, signed)}`)
    // ...and not with the secret's text, which a receiver's library would not accept.
    expect(headers['webhook-signature']).not.toBe(`v1,${hmac(Buffer.from(secret, 'utf8'), signed)}`)
  })

  test('keeps the first 1 KiB of the response body', async () => {
    await makeWebhook(w.db, { webhook_url: w.receiver.url() })
    w.receiver.respond(() => new Response('é'.repeat(600) + 'x'.repeat(2000), { status: 201 }))
    w.enqueue()
    await w.dispatcher().runDue()
    const [delivery] = await w.deliveries()
    expect(delivery).toMatchObject({ status_code: 201, error: '' })
    // 1024 bytes of two-byte characters: 512 of them, none of the 'x's.
    expect(delivery!.response_body).toBe('é'.repeat(512))
    expect((await w.events())[0]!.status).toBe('delivered')
  })

  test('any 2xx is delivered (204 with no body)', async () => {
    await makeWebhook(w.db, { webhook_url: w.receiver.url() })
    w.receiver.respond(() => new Response(null, { status: 204 }))
    w.enqueue()
    await w.dispatcher().runDue()
    expect((await w.events())[0]).toMatchObject({ status: 'delivered', attempts: 1 })
    expect((await w.deliveries())[0]).toMatchObject({ status_code: 204, response_body: '', error: '' })
  })
})

describe('order and concurrency', () => {
  test("a webhook's later events wait while an earlier one is retrying; other webhooks do not", async () => {
    const slow = await makeWebhook(w.db, { webhook_url: w.receiver.url('/a') })
    const other = await makeWebhook(w.db, { webhook_url: w.receiver.url('/b') })
    let failFirst = true
    w.receiver.respond((request) => {
      if (request.path === '/a' && failFirst) {
        failFirst = false
        return new Response('busy', { status: 500 })
      }
      return new Response('ok')
    })
    for (const id of [101, 102, 103]) w.enqueue({ id })
    const d = w.dispatcher()
    const sentTo = (path: string) =>
      w.receiver.requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body).event.id)

    expect(await d.runDue()).toBe(2) // /a's 101 fails, /b's 101 goes
    expect(await d.runDue()).toBe(1) // /b's 102
    expect(await d.runDue()).toBe(1) // /b's 103
    expect(await d.runDue()).toBe(0) // /a waits behind its 101, due in 5 s
    expect(sentTo('/a')).toEqual([101])
    expect(sentTo('/b')).toEqual([101, 102, 103])

    w.clock.advance(5 * SECOND)
    while ((await d.runDue()) > 0) {}
    expect(sentTo('/a')).toEqual([101, 101, 102, 103])
    const rows = await w.events()
    expect(rows.filter((e) => e.webhook_id === slow).map((e) => e.status)).toEqual([
      'delivered',
      'delivered',
      'delivered',
    ])
    expect(rows.filter((e) => e.webhook_id === other).every((e) => e.status === 'delivered')).toBe(true)
  })

  test('an event that failed for good no longer blocks the next one', async () => {
    await makeWebhook(w.db, { webhook_url: w.receiver.url() })
    w.receiver.respond((request) =>
      JSON.parse(request.body).event.id === 1 ? new Response('no', { status: 400 }) : new Response('ok'),
    )
    w.enqueue({ id: 1 })
    w.enqueue({ id: 2 })
    const d = w.dispatcher({ retryDelaysMs: [SECOND] })
    expect(await d.runDue()).toBe(1)
    expect(await d.runDue()).toBe(0)
    w.clock.advance(SECOND)
    expect(await d.runDue()).toBe(1) // attempt 2 of 2: failed for good
    expect(await d.runDue()).toBe(1) // the next event goes at once
    expect((await w.events()).map((e) => [JSON.parse(e.body).event.id, e.status, e.attempts])).toEqual([
      [1, 'failed', 2],
      [2, 'delivered', 1],
    ])
  })

  test('one slow receiver does not stall the others (the running worker)', async () => {
    await makeWebhook(w.db, { webhook_url: w.receiver.url('/slow') })
    await makeWebhook(w.db, { webhook_url: w.receiver.url('/fast') })
    const slowAnswer = gate()
    w.receiver.respond(async (request) => {
      if (request.path === '/slow') await slowAnswer.opened
      return new Response('ok')
    })
    w.enqueue({ id: 1 })
    w.enqueue({ id: 2 })
    w.dispatcher({ pollIntervalMs: 10 }).start()
    // Both of /fast's events are delivered while /slow's first request is still unanswered.
    await waitFor(async () => (await w.events()).filter((e) => e.status === 'delivered').length === 2)
    expect(w.receiver.requests.filter((r) => r.path === '/slow')).toHaveLength(1)
    expect((await w.events()).filter((e) => e.status === 'delivered').map((e) => e.webhook_id)).toEqual([
      2, 2,
    ])
    slowAnswer.open()
    await waitFor(async () => (await w.events()).every((e) => e.status === 'delivered'))
  })

  test('an enqueue wakes the running worker: no waiting for the next poll', async () => {
    await makeWebhook(w.db, { webhook_url: w.receiver.url() })
    w.dispatcher({ pollIntervalMs: HOUR }).start()
    await Bun.sleep(20) // the first poll has run and found nothing
    w.enqueue()
    await waitFor(async () => (await w.events())[0]?.status === 'delivered')
  })

  test('stopping abandons a request in flight: it stays pending, unrecorded, and goes again later', async () => {
    await makeWebhook(w.db, { webhook_url: w.receiver.url() })
    const never = gate()
    w.receiver.respond(async () => {
      await never.opened
      return new Response('ok')
    })
    w.enqueue()
    const first = w.dispatcher({ pollIntervalMs: 10 })
    first.start()
    await waitFor(() => w.receiver.requests.length === 1)
    await first.stop()
    expect((await w.events())[0]).toMatchObject({ status: 'pending', attempts: 0 })
    expect(await w.deliveries()).toEqual([])
    never.open()
    w.receiver.respond(() => new Response('ok'))
    await w.dispatcher().runDue()
    expect((await w.events())[0]).toMatchObject({ status: 'delivered', attempts: 1 })
  })

  test('a webhook deleted while its event is in flight: nothing recorded, nothing breaks', async () => {
    const id = await makeWebhook(w.db, { webhook_url: w.receiver.url() })
    const answer = gate()
    w.receiver.respond(async () => {
      await answer.opened
      return new Response('ok')
    })
    w.enqueue()
    const d = w.dispatcher()
    const run = d.runDue()
    await waitFor(() => w.receiver.requests.length === 1)
    await w.db.deleteFrom('webhooks').where('id', '=', id).execute()
    answer.open()
    expect(await run).toBe(1)
    expect(await w.events()).toEqual([])
    expect(await w.deliveries()).toEqual([])
  })
})

describe('restarts', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'belay-webhooks-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  test('a restart in the middle of a backoff waits for the stored time, then delivers', async () => {
    const path = join(dir, 'belay.sqlite3')
    const before = await openMigrated(path)
    await makeWebhook(before.db, { webhook_url: w.receiver.url() })
    before.sqlite.transaction(() => enqueueCheckInEvent(before.sqlite, checkInEventData(), START))()
    w.receiver.respond((_, n) => new Response(n === 1 ? 'restarting' : 'ok', { status: n === 1 ? 502 : 200 }))
    const first = new WebhookDispatcher({
      db: before.db,
      sqlite: before.sqlite,
      clock: w.clock,
      log: silentLogger,
    })
    expect(await first.runDue()).toBe(1)
    await first.stop()
    await before.close()

    // A new process on the same file, 4 s into the 5 s backoff: the running worker must wait.
    const after = await openMigrated(path)
    try {
      w.clock.advance(4 * SECOND)
      const second = new WebhookDispatcher({
        db: after.db,
        sqlite: after.sqlite,
        clock: w.clock,
        log: silentLogger,
        pollIntervalMs: 5,
      })
      w.track(second)
      second.start()
      const event = () => after.db.selectFrom('webhook_events').selectAll().executeTakeFirstOrThrow()
      // Many polls go by (each re-reads the outbox) without a request.
      const polledAt = w.receiver.requests.length
      await Bun.sleep(100)
      expect(w.receiver.requests.length).toBe(polledAt)
      expect(w.receiver.requests).toHaveLength(1)
      expect(await event()).toMatchObject({
        status: 'pending',
        attempts: 1,
        next_attempt_at: '2026-11-22T15:04:10.123Z',
      })

      w.clock.advance(SECOND)
      await waitFor(async () => (await event()).status === 'delivered')
      expect(w.receiver.requests).toHaveLength(2)
      expect(w.receiver.requests[1]!.body).toBe(w.receiver.requests[0]!.body)
      expect(await event()).toMatchObject({ attempts: 2, delivered_at: '2026-11-22T15:04:10.123Z' })
      const attempts = await after.db
        .selectFrom('webhook_deliveries')
        .select(['attempt', 'status_code'])
        .execute()
      expect(attempts).toEqual([
        { attempt: 1, status_code: 502 },
        { attempt: 2, status_code: 200 },
      ])
      await second.stop()
    } finally {
      await after.close()
    }
  })
})
