import type { Database as BunDatabase } from 'bun:sqlite'
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely'
import { definedChanges } from '../../db/changes.ts'
import type { Db } from '../../db/connection.ts'
import type { WebhookDeliveryTable, WebhookEventTable, WebhookTable } from '../../db/schema.ts'
import { prepared } from '../../db/statements.ts'

export type Webhook = Selectable<WebhookTable>
export type NewWebhook = Insertable<WebhookTable>
export type WebhookUpdate = Updateable<WebhookTable>

export type WebhookEventRow = Selectable<WebhookEventTable>
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable> & {
  event_status: WebhookEventRow['status']
}

export const countWebhooks = async (db: Db): Promise<number> =>
  Number(
    (
      await db
        .selectFrom('webhooks')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

export const listWebhooks = (db: Db, limit: number, offset: number): Promise<Webhook[]> =>
  db.selectFrom('webhooks').selectAll().orderBy('id').limit(limit).offset(offset).execute()

export const getWebhook = (db: Db, id: number): Promise<Webhook | undefined> =>
  db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst()

export async function webhookExists(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('webhooks').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
}

export async function insertWebhook(db: Db, webhook: NewWebhook): Promise<number> {
  const row = await db.insertInto('webhooks').values(webhook).returning('id').executeTakeFirstOrThrow()
  return row.id
}

export async function updateWebhook(db: Db, id: number, changes: WebhookUpdate): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('webhooks').set(set).where('id', '=', id).execute()
}

/** Its outbox rows and their attempts go with it (ON DELETE CASCADE). */
export async function deleteWebhook(db: Db, id: number): Promise<void> {
  await db.deleteFrom('webhooks').where('id', '=', id).execute()
}

export const countWebhookDeliveries = async (db: Db, webhookId: number): Promise<number> =>
  Number(
    (
      await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', 'e.id', 'd.webhook_event_id')
        .where('e.webhook_id', '=', webhookId)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

/** A webhook's attempts, newest first (ids grow with time). */
export const listWebhookDeliveries = (
  db: Db,
  webhookId: number,
  limit: number,
  offset: number,
): Promise<WebhookDeliveryRow[]> =>
  db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.webhook_event_id')
    .where('e.webhook_id', '=', webhookId)
    .select([
      'd.id',
      'd.webhook_event_id',
      'd.attempt',
      'd.attempted_at',
      'd.status_code',
      'd.error',
      'd.duration_ms',
      'd.response_body',
      'e.status as event_status',
    ])
    .orderBy('d.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute()

/** One of the webhook's events; undefined for no such event or another webhook's. */
export const getWebhookEvent = (
  db: Db,
  webhookId: number,
  eventId: number,
): Promise<WebhookEventRow | undefined> =>
  db
    .selectFrom('webhook_events')
    .selectAll()
    .where('id', '=', eventId)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst()

/** Back to pending, due at `nowIso`, with a new round of attempts. */
export async function resetWebhookEvent(db: Db, eventId: number, nowIso: string): Promise<void> {
  await db
    .updateTable('webhook_events')
    .set({ status: 'pending', attempts: 0, next_attempt_at: nowIso, delivered_at: null })
    .where('id', '=', eventId)
    .execute()
}

// The dispatcher's statements (core/webhooks/dispatcher.ts).

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
