import type { Insertable, Selectable, Updateable } from 'kysely'
import { definedChanges } from '../../db/changes.ts'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { WebhookDeliveryTable, WebhookEventTable, WebhookTable } from '../../db/schema.ts'

export type Webhook = Selectable<WebhookTable>
export type NewWebhook = Insertable<WebhookTable>
export type WebhookUpdate = Updateable<WebhookTable>

export type WebhookEventRow = Selectable<WebhookEventTable>
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable> & {
  event_status: WebhookEventRow['status']
}

export const listWebhooks = (db: Db): ListSource<Webhook> =>
  listFrom(db.selectFrom('webhooks'), {
    order: (query) => query.orderBy('id'),
    rows: (page) => page.selectAll().execute(),
  })

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

/** A webhook's attempts, newest first (ids grow with time). */
export const listWebhookDeliveries = (db: Db, webhookId: number): ListSource<WebhookDeliveryRow> =>
  listFrom(
    db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.webhook_event_id')
      .where('e.webhook_id', '=', webhookId),
    {
      order: (query) => query.orderBy('d.id', 'desc'),
      rows: (page) =>
        page
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
          .execute(),
    },
  )

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
