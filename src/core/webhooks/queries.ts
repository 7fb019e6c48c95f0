import type { Database as BunDatabase } from 'bun:sqlite'
import { sql, type Insertable, type Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { WebhookDeliveryTable, WebhookEventTable } from '../../db/schema.ts'
import { prepared } from '../../db/statements.ts'

/*
 * The dispatcher's statements (dispatcher.ts): which events are due, and recording each attempt;
 * and the backlog that /healthz and /metrics watch. The outbox's own inserts are in outbox.ts,
 * beside the body they write.
 */

type WebhookEventRow = Selectable<WebhookEventTable>

/** An event ready to send, with where and how to send it (the webhook's current URL and secret). */
export interface DueWebhookEvent {
  id: number
  webhook_id: number
  body: string
  webhook_url: string
  secret: string
}

/**
 * Each webhook's oldest pending event, when it is due: a webhook's later events wait behind it, so
 * they go out in order. Driven from `webhooks` (CROSS JOIN keeps it the outer loop), each head is one
 * probe of the (status, webhook_id, id) index, however long a backlog grows.
 */
export async function listDueWebhookEvents(db: Db, nowIso: string): Promise<DueWebhookEvent[]> {
  const result = await sql<DueWebhookEvent>`
    SELECT e.id, e.webhook_id, e.body, w.webhook_url, w.secret
    FROM webhooks w
    CROSS JOIN webhook_events e ON e.id = (
      SELECT p.id FROM webhook_events p
      WHERE p.status = 'pending' AND p.webhook_id = w.id
      ORDER BY p.id LIMIT 1
    )
    WHERE e.next_attempt_at <= ${nowIso}
    ORDER BY e.id`.execute(db)
  return result.rows
}

/** How far behind delivery is: events still pending, and how long the oldest has waited. */
export interface OutboxBacklog {
  pending: number
  /** Whole seconds since the oldest pending event was written; null when none is pending. */
  oldestAgeSeconds: number | null
}

export async function getOutboxBacklog(db: Db, now: Date): Promise<OutboxBacklog> {
  const outbox = await db
    .selectFrom('webhook_events')
    .where('status', '=', 'pending')
    .select((eb) => [eb.fn.countAll<number>().as('pending'), eb.fn.min('created_at').as('oldest')])
    .executeTakeFirstOrThrow()
  return {
    pending: Number(outbox.pending),
    oldestAgeSeconds:
      outbox.oldest === null
        ? null
        : Math.max(0, Math.floor((now.getTime() - Date.parse(outbox.oldest)) / 1000)),
  }
}

/*
 * Recording an attempt: synchronous statements on the raw connection, run inside the connection's
 * group commit (db/group-commit.ts) like the door's, so recording never waits for the disk on the
 * server's thread.
 */

/** The event as it is now (it may have been redelivered or deleted while the attempt was out). */
export const getWebhookEventState = (sqlite: BunDatabase, id: number) =>
  prepared<Pick<WebhookEventRow, 'id' | 'webhook_id' | 'status' | 'attempts'>, [number]>(
    sqlite,
    'SELECT id, webhook_id, status, attempts FROM webhook_events WHERE id = ?',
  ).get(id) ?? undefined

export function insertWebhookDelivery(sqlite: BunDatabase, d: Insertable<WebhookDeliveryTable>): void {
  prepared(
    sqlite,
    `INSERT INTO webhook_deliveries
       (webhook_event_id, attempt, attempted_at, status_code, error, duration_ms, response_body)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    d.webhook_event_id,
    d.attempt,
    d.attempted_at,
    d.status_code ?? null,
    d.error,
    d.duration_ms,
    d.response_body,
  )
}

/** The event after an attempt: its count, and its new status with when it was delivered or is due. */
export function recordWebhookEventAttempt(
  sqlite: BunDatabase,
  id: number,
  after: {
    attempts: number
    status: WebhookEventRow['status']
    delivered_at?: string
    next_attempt_at?: string
  },
): void {
  prepared(
    sqlite,
    `UPDATE webhook_events SET attempts = ?, status = ?,
       delivered_at = COALESCE(?, delivered_at), next_attempt_at = COALESCE(?, next_attempt_at)
     WHERE id = ?`,
  ).run(after.attempts, after.status, after.delivered_at ?? null, after.next_attempt_at ?? null, id)
}
