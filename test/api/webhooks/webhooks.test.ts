import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { WebhookDispatcher } from '../../../src/core/webhooks/dispatcher.ts'
import { enqueueCheckInEvent } from '../../../src/core/webhooks/outbox.ts'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  blank,
  emptyPage,
  forbidden,
  invalidChoice,
  invalidToken,
  maxLength,
  methodNotAllowed,
  notFound,
  notNull,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { countRows, everyCanFlag, makeToken, makeUser } from '../../helpers/factories.ts'
import { expectUnauthenticated, useSeededApp } from '../../helpers/seeded.ts'
import {
  checkInEventData,
  expectedCheckInEvent,
  makeWebhook,
  startReceiver,
  type Receiver,
} from '../../helpers/webhook-factories.ts'

/**
 * /api/webhooks/: organization admins only, with each
 * webhook's delivery attempts and a redelivery action. Order: 401 -> 400 -> 403 -> 404/405 -> success.
 */

const t = useSeededApp()
const invalidUrl = ['Enter a valid URL.']
const HOOK_URL = 'https://hooks.example.com/belay'

function webhookBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/webhooks/${id}/`,
    event_type: 'check_in',
    webhook_url: HOOK_URL,
    secret: '',
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const admin = () => ({ token: t.seed.adminToken })
const webhookCount = () => countRows(t.db, 'webhooks')
const enqueue = (fields: Parameters<typeof checkInEventData>[0] = {}) =>
  t.deps.sqlite.transaction(() =>
    enqueueCheckInEvent(t.deps.sqlite, checkInEventData(fields), t.clock.now().toISOString()),
  )()
const dispatcher = () =>
  new WebhookDispatcher({ db: t.db, sqlite: t.deps.sqlite, clock: t.clock, log: t.deps.log })

describe('/api/webhooks/ 401', () => {
  const routes: Array<[string, string]> = [
    ['GET', '/api/webhooks/'],
    ['POST', '/api/webhooks/'],
    ['GET', '/api/webhooks/1/'],
    ['PUT', '/api/webhooks/1/'],
    ['PATCH', '/api/webhooks/1/'],
    ['DELETE', '/api/webhooks/1/'],
    ['GET', '/api/webhooks/1/deliveries/'],
    ['POST', '/api/webhooks/1/events/1/redeliver/'],
  ]
  for (const [method, path] of routes) {
    test(`${method} ${path} without a token is 401`, async () => {
      expectUnauthenticated(await t.request(method, path))
    })
    test(`${method} ${path} with an unknown token is 401 Invalid token`, async () => {
      expectUnauthenticated(await t.request(method, path, { token: 'f'.repeat(40) }), invalidToken)
    })
  }
})

describe('/api/webhooks/ 400', () => {
  const post = (body: unknown) => t.request('POST', '/api/webhooks/', { ...admin(), body })
  const ok = { event_type: 'check_in', webhook_url: HOOK_URL }

  const cases: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
    ['an empty body', {}, { event_type: required, webhook_url: required }],
    ['event_type missing', { webhook_url: HOOK_URL }, { event_type: required }],
    ['event_type check_out', { ...ok, event_type: 'check_out' }, { event_type: invalidChoice('check_out') }],
    ['event_type null', { ...ok, event_type: null }, { event_type: notNull }],
    ['webhook_url missing', { event_type: 'check_in' }, { webhook_url: required }],
    ['webhook_url blank', { ...ok, webhook_url: '' }, { webhook_url: blank }],
    [
      'webhook_url without a scheme',
      { ...ok, webhook_url: 'hooks.example.com/x' },
      { webhook_url: invalidUrl },
    ],
    ['webhook_url ftp', { ...ok, webhook_url: 'ftp://hooks.example.com/x' }, { webhook_url: invalidUrl }],
    ['webhook_url without a host', { ...ok, webhook_url: 'https://' }, { webhook_url: invalidUrl }],
    [
      'webhook_url with a space',
      { ...ok, webhook_url: 'https://hooks.example.com/a b' },
      { webhook_url: invalidUrl },
    ],
    ['webhook_url a number', { ...ok, webhook_url: 12 }, { webhook_url: invalidUrl }],
    ['secret of 256 characters', { ...ok, secret: 's'.repeat(256) }, { secret: maxLength(255) }],
    ['secret null', { ...ok, secret: null }, { secret: notNull }],
    [
      'every field wrong at once',
      { event_type: 'x', webhook_url: 'nope', secret: 's'.repeat(300) },
      { event_type: invalidChoice('x'), webhook_url: invalidUrl, secret: maxLength(255) },
    ],
  ]
  for (const [name, body, errors] of cases) {
    test(`POST with ${name} is 400 and creates nothing`, async () => {
      const res = await post(body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errors)
      expect(await webhookCount()).toBe(0)
    })
  }

  test('PUT needs every writable field; PATCH checks the ones sent; neither changes anything', async () => {
    const id = await makeWebhook(t.db, { webhook_url: HOOK_URL })
    const put = await t.request('PUT', `/api/webhooks/${id}/`, { ...admin(), body: { secret: 'x' } })
    expect(put.status).toBe(400)
    expect(put.body).toEqual({ event_type: required, webhook_url: required })
    const patch = await t.request('PATCH', `/api/webhooks/${id}/`, {
      ...admin(),
      body: { webhook_url: 'mailto:ops@example.com', event_type: 'all' },
    })
    expect(patch.status).toBe(400)
    expect(patch.body).toEqual({ event_type: invalidChoice('all'), webhook_url: invalidUrl })
    expect((await t.request('GET', `/api/webhooks/${id}/`, admin())).body).toEqual(webhookBody(id))
  })
})

describe('/api/webhooks/ 403', () => {
  const routes: Array<[string, string, unknown?]> = [
    ['GET', '/api/webhooks/'],
    ['POST', '/api/webhooks/', { event_type: 'check_in', webhook_url: HOOK_URL }],
    ['GET', '/api/webhooks/{id}/'],
    ['PUT', '/api/webhooks/{id}/', { event_type: 'check_in', webhook_url: HOOK_URL }],
    ['PATCH', '/api/webhooks/{id}/', { secret: 'x' }],
    ['DELETE', '/api/webhooks/{id}/'],
    ['GET', '/api/webhooks/{id}/deliveries/'],
    ['POST', '/api/webhooks/{id}/events/{event}/redeliver/'],
  ]
  for (const [method, template, body] of routes) {
    test(`${method} ${template}: staff without the admin flag (even with every can_* flag) get 403`, async () => {
      const id = await makeWebhook(t.db, { webhook_url: HOOK_URL })
      enqueue()
      const path = template.replace('{id}', String(id)).replace('{event}', '1')
      const allFlags = await makeToken(t.db, await makeUser(t.db, everyCanFlag))
      for (const token of [t.seed.staffToken, allFlags]) {
        const res = await t.request(method, path, { token, body })
        expect(res.status).toBe(403)
        expect(res.body).toEqual(forbidden)
      }
      expect(await webhookCount()).toBe(1)
      expect((await t.db.selectFrom('webhook_events').selectAll().executeTakeFirstOrThrow()).status).toBe(
        'pending',
      )
    })
  }
})

describe('/api/webhooks/ 404 and 405', () => {
  for (const [method, path] of [
    ['GET', '/api/webhooks/99/'],
    ['PUT', '/api/webhooks/99/'],
    ['PATCH', '/api/webhooks/99/'],
    ['DELETE', '/api/webhooks/99/'],
    ['GET', '/api/webhooks/99/deliveries/'],
    ['GET', '/api/webhooks/abc/'],
    ['POST', '/api/webhooks/99/events/1/redeliver/'],
  ] as const) {
    test(`${method} ${path} is 404`, async () => {
      const body = method === 'PUT' ? { event_type: 'check_in', webhook_url: HOOK_URL } : undefined
      const res = await t.request(method, path, { ...admin(), body })
      expect(res.status).toBe(404)
      expect(res.body).toEqual(notFound)
    })
  }

  test("redelivering an event that does not exist, or is another webhook's, is 404", async () => {
    const mine = await makeWebhook(t.db, { webhook_url: HOOK_URL })
    await makeWebhook(t.db, { webhook_url: HOOK_URL })
    enqueue() // event 1 for `mine`, event 2 for the other
    for (const eventId of [99, 2]) {
      const res = await t.request('POST', `/api/webhooks/${mine}/events/${eventId}/redeliver/`, admin())
      expect(res.status).toBe(404)
      expect(res.body).toEqual(notFound)
    }
  })

  test('POST on a webhook and GET on redeliver are 405', async () => {
    const id = await makeWebhook(t.db, { webhook_url: HOOK_URL })
    const post = await t.request('POST', `/api/webhooks/${id}/`, admin())
    expect(post.status).toBe(405)
    expect(post.body).toEqual(methodNotAllowed('POST'))
    const get = await t.request('GET', `/api/webhooks/${id}/events/1/redeliver/`, admin())
    expect(get.status).toBe(405)
    expect(get.body).toEqual(methodNotAllowed('GET'))
  })
})

describe('/api/webhooks/ success', () => {
  test('list: empty, then every webhook in id order', async () => {
    expect((await t.request('GET', '/api/webhooks/', admin())).body).toEqual(emptyPage)
    const a = await makeWebhook(t.db, { webhook_url: HOOK_URL, secret: 'a' })
    const b = await makeWebhook(t.db, { webhook_url: 'http://10.0.0.5:8080/in' })
    const res = await t.request('GET', '/api/webhooks/', admin())
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      onePage([webhookBody(a, { secret: 'a' }), webhookBody(b, { webhook_url: 'http://10.0.0.5:8080/in' })]),
    )
  })

  test('create: 201 with the whole webhook, secret included; secret defaults to ""', async () => {
    const res = await t.request('POST', '/api/webhooks/', {
      ...admin(),
      body: { event_type: 'check_in', webhook_url: HOOK_URL, secret: 'whsec_c2VjcmV0', id: 77 },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(webhookBody(1, { secret: 'whsec_c2VjcmV0' }))
    const bare = await t.request('POST', '/api/webhooks/', {
      ...admin(),
      body: { event_type: 'check_in', webhook_url: 'http://localhost:9000/hook' },
    })
    expect(bare.status).toBe(201)
    expect(bare.body).toEqual(webhookBody(2, { webhook_url: 'http://localhost:9000/hook' }))
    expect((await t.request('GET', '/api/webhooks/1/', admin())).body).toEqual(res.body)
  })

  test('PUT replaces and PATCH amends, with updated_at', async () => {
    const id = await makeWebhook(t.db, { webhook_url: HOOK_URL, secret: 'old' })
    t.clock.advance(60_000)
    const put = await t.request('PUT', `/api/webhooks/${id}/`, {
      ...admin(),
      body: { event_type: 'check_in', webhook_url: 'https://new.example.com/hook' },
    })
    expect(put.status).toBe(200)
    // PUT without secret leaves it: as in DRF, a field not sent is not written.
    expect(put.body).toEqual(
      webhookBody(id, {
        webhook_url: 'https://new.example.com/hook',
        secret: 'old',
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    const patch = await t.request('PATCH', `/api/webhooks/${id}/`, { ...admin(), body: { secret: '' } })
    expect(patch.status).toBe(200)
    expect(patch.body).toEqual(
      webhookBody(id, { webhook_url: 'https://new.example.com/hook', updated_at: ONE_MINUTE_LATER }),
    )
  })

  test('DELETE: 204, and its events (pending ones too) and attempts go with it', async () => {
    const gone = await makeWebhook(t.db, { webhook_url: HOOK_URL })
    const kept = await makeWebhook(t.db, { webhook_url: HOOK_URL })
    enqueue()
    await t.db
      .insertInto('webhook_deliveries')
      .values({
        webhook_event_id: 1,
        attempt: 1,
        attempted_at: START,
        status_code: 500,
        error: 'x',
        duration_ms: 3,
        response_body: '',
      })
      .execute()
    const res = await t.request('DELETE', `/api/webhooks/${gone}/`, admin())
    expect(res.status).toBe(204)
    expect(res.body).toBe('')
    expect((await t.request('GET', `/api/webhooks/${gone}/`, admin())).status).toBe(404)
    const events = await t.db.selectFrom('webhook_events').select(['id', 'webhook_id']).execute()
    expect(events).toEqual([{ id: 2, webhook_id: kept }])
    expect(await countRows(t.db, 'webhook_deliveries')).toBe(0)
  })
})

describe('deliveries and redelivery (a real receiver)', () => {
  let receiver: Receiver
  beforeEach(() => {
    receiver = startReceiver()
  })
  afterEach(() => receiver.stop())

  test("GET deliveries/: the webhook's attempts, newest first, paginated, with the event's status", async () => {
    const id = await makeWebhook(t.db, { webhook_url: receiver.url() })
    const other = await makeWebhook(t.db, { webhook_url: receiver.url('/other') })
    receiver.respond((request, n) =>
      request.path === '/hook' && n === 1
        ? new Response('{"error":"busy"}', { status: 500 })
        : new Response('ok'),
    )
    expect((await t.request('GET', `/api/webhooks/${id}/deliveries/`, admin())).body).toEqual(emptyPage)
    enqueue()
    const d = dispatcher()
    await d.runDue() // event 1 (ours) fails; event 2 (the other webhook's) is delivered
    t.clock.advance(5_000)
    await d.runDue() // event 1 delivered

    const attempt = (fields: Record<string, unknown>) => ({
      webhook_event_id: 1,
      duration_ms: expect.any(Number),
      event_status: 'delivered',
      ...fields,
    })
    const res = await t.request('GET', `/api/webhooks/${id}/deliveries/`, admin())
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      onePage([
        attempt({
          id: 3,
          attempt: 2,
          attempted_at: '2026-11-22T15:04:10.123Z',
          status_code: 200,
          error: null,
          response_body: 'ok',
        }),
        attempt({
          // Event 1's failure and event 2's delivery are recorded in whichever order their
          // receivers answered, so this attempt's id is 1 or 2; the retry, later, is 3.
          id: expect.any(Number),
          attempt: 1,
          attempted_at: START,
          status_code: 500,
          error: 'The receiver answered 500.',
          response_body: '{"error":"busy"}',
        }),
      ]),
    )
    const page = await t.request('GET', `/api/webhooks/${id}/deliveries/?page_size=1`, admin())
    expect(page.body).toMatchObject({
      count: 2,
      next: `${ORIGIN}/api/webhooks/${id}/deliveries/?page_size=1&page=2`,
      previous: null,
      results: [{ id: 3 }],
    })
    const others = await t.request('GET', `/api/webhooks/${other}/deliveries/`, admin())
    expect(others.body).toMatchObject({
      count: 1,
      results: [{ webhook_event_id: 2, status_code: 200 }],
    })
  })

  test('redeliver: 202 with the event due now; sent again with the same body and webhook-id', async () => {
    const id = await makeWebhook(t.db, { webhook_url: receiver.url(), secret: 'shh' })
    enqueue()
    const d = dispatcher()
    await d.runDue()
    expect(receiver.requests).toHaveLength(1)

    t.clock.advance(60_000)
    const res = await t.request('POST', `/api/webhooks/${id}/events/1/redeliver/`, admin())
    expect(res.status).toBe(202)
    expect(res.body).toEqual({
      webhook_event_id: 1,
      webhook_id: id,
      event_type: 'check_in',
      status: 'pending',
      attempts: 0,
      next_attempt_at: ONE_MINUTE_LATER,
      delivered_at: null,
      created_at: START,
    })

    expect(await d.runDue()).toBe(1)
    expect(receiver.requests).toHaveLength(2)
    const [first, again] = receiver.requests
    expect(again!.body).toBe(first!.body)
    expect(again!.headers['webhook-id']).toBe('msg_1')
    expect(first!.headers['webhook-id']).toBe('msg_1')
    expect(JSON.parse(again!.body)).toEqual({
      webhook_event_id: 1,
      event_type: 'check_in',
      secret: 'shh',
      event: expectedCheckInEvent,
    })
    const deliveries = await t.request('GET', `/api/webhooks/${id}/deliveries/`, admin())
    expect(
      deliveries.body.results.map((r: any) => [r.id, r.attempt, r.attempted_at, r.event_status]),
    ).toEqual([
      [2, 1, ONE_MINUTE_LATER, 'delivered'],
      [1, 1, START, 'delivered'],
    ])
  })

  test('redeliver a failed event: a new round of attempts', async () => {
    const id = await makeWebhook(t.db, { webhook_url: receiver.url() })
    await t.db
      .insertInto('webhook_events')
      .values({
        webhook_id: id,
        event_type: 'check_in',
        body: '{"webhook_event_id":1}',
        status: 'failed',
        attempts: 8,
        next_attempt_at: START,
        delivered_at: null,
        created_at: START,
      })
      .execute()
    const res = await t.request('POST', `/api/webhooks/${id}/events/1/redeliver/`, admin())
    expect(res.status).toBe(202)
    expect(res.body).toMatchObject({ status: 'pending', attempts: 0, next_attempt_at: START })
    await dispatcher().runDue()
    expect(receiver.requests.map((r) => r.body)).toEqual(['{"webhook_event_id":1}'])
    expect(await t.db.selectFrom('webhook_events').select(['status', 'attempts']).execute()).toEqual([
      { status: 'delivered', attempts: 1 },
    ])
  })
})
