import type { Db } from '../../src/db/connection.ts'
import type { CheckInEventData } from '../../src/core/webhooks/outbox.ts'
import { START } from './app.ts'

/** A webhook row, straight into the database. */
export async function makeWebhook(
  db: Db,
  fields: { webhook_url: string; secret?: string; created_at?: string },
): Promise<number> {
  const row = await db
    .insertInto('webhooks')
    .values({
      event_type: 'check_in',
      webhook_url: fields.webhook_url,
      secret: fields.secret ?? '',
      created_at: fields.created_at ?? START,
      updated_at: fields.created_at ?? START,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** An outbox event still waiting to be delivered, written at `createdAt`, for a new webhook. */
export async function makePendingEvent(db: Db, createdAt: string): Promise<void> {
  const webhookId = await makeWebhook(db, { webhook_url: 'http://127.0.0.1:9/hook' })
  await db
    .insertInto('webhook_events')
    .values({
      webhook_id: webhookId,
      event_type: 'check_in',
      body: '{}',
      status: 'pending',
      attempts: 0,
      next_attempt_at: createdAt,
      created_at: createdAt,
    })
    .execute()
}

/** What the check-in transaction hands the outbox, for check-in `id` at START in Denver. */
export function checkInEventData(fields: Partial<CheckInEventData> = {}): CheckInEventData {
  return {
    id: 41,
    customer_id: 7,
    customer_first_name: 'Alex',
    customer_last_name: 'Honnold',
    customer_birthday: '1985-08-17',
    customer_email: 'alex@example.com',
    checked_in_at: START,
    time_zone: 'America/Denver',
    entry_method: 'MEM',
    entry_method_description: 'Monthly Unlimited',
    location_id: 1,
    location_name: 'Boulder Barn Downtown',
    check_in_count: 12,
    ...fields,
  }
}

/** The `event` object `checkInEventData()` becomes (START is 08:04:05 in Denver, MST). */
export const expectedCheckInEvent = {
  id: 41,
  customer_id: 7,
  customer_first_name: 'Alex',
  customer_last_name: 'Honnold',
  customer_birthday: '1985-08-17',
  customer_email: 'alex@example.com',
  check_in_datetime: '2026-11-22T08:04:05-07:00',
  entry_method: 'MEM',
  entry_method_description: 'Monthly Unlimited',
  location_id: 1,
  location_name: 'Boulder Barn Downtown',
  check_in_count: 12,
}

export interface ReceivedRequest {
  method: string
  path: string
  headers: Record<string, string>
  body: string
}

type Responder = (request: ReceivedRequest, n: number) => Response | Promise<Response>

/**
 * A real HTTP receiver on a free port (Bun.serve, port 0) that records every request and answers
 * as told (200 "ok" unless `respond` says otherwise).
 */
export function startReceiver() {
  const requests: ReceivedRequest[] = []
  let responder: Responder = () => new Response('ok')
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const received: ReceivedRequest = {
        method: request.method,
        path: new URL(request.url).pathname,
        headers: Object.fromEntries(request.headers.entries()),
        body: await request.text(),
      }
      requests.push(received)
      return responder(received, requests.length)
    },
  })
  return {
    requests,
    url: (path = '/hook') => `http://127.0.0.1:${server.port}${path}`,
    respond(next: Responder) {
      responder = next
    },
    stop: () => server.stop(true),
  }
}

export type Receiver = ReturnType<typeof startReceiver>

/** Resolves once `check` holds; fails the test after `ms` (a deadline, not a timing assertion). */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in time')
    await Bun.sleep(5)
  }
}

/** A promise the test settles by hand: a receiver that answers only when told. */
export function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { opened, open }
}
