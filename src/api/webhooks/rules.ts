import type { Static } from 'elysia'
import {
  deleteWebhook,
  getWebhookEvent,
  insertWebhook,
  resetWebhookEvent,
  updateWebhook,
  type Webhook,
  type WebhookEventRow,
} from './queries.ts'
import type { WebhookWrite } from './schema.ts'
import type { Deps } from '../../deps.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { notifyOutbox } from '../../core/webhooks/wake.ts'

type WebhookInput = Static<typeof WebhookWrite>

export async function createWebhook(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<WebhookInput>,
): Promise<number> {
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return insertWebhook(deps.db, {
    event_type: input.event_type,
    webhook_url: input.webhook_url,
    secret: input.secret ?? '',
    created_at: now,
    updated_at: now,
  })
}

/**
 * PUT/PATCH. Events already in the outbox keep the body they were written with (its `secret`
 * included); the new URL and secret apply to every attempt from now on, so a receiver that moved
 * or rotated its secret gets the backlog at the new place, signed with the new secret.
 */
export async function changeWebhook(
  deps: Pick<Deps, 'db' | 'clock'>,
  webhook: Webhook,
  body: CheckedBody<Partial<WebhookInput>>,
): Promise<void> {
  const input = body.valid()
  await updateWebhook(deps.db, webhook.id, {
    event_type: input.event_type,
    webhook_url: input.webhook_url,
    secret: input.secret,
    updated_at: deps.clock.now().toISOString(),
  })
}

/** The webhook and its whole outbox (pending events too: nobody is left to receive them). */
export async function removeWebhook(deps: Pick<Deps, 'db'>, webhook: Webhook): Promise<void> {
  await deleteWebhook(deps.db, webhook.id)
}

/**
 * Sends one event again, with the same body and the same webhook-id, so the receiver can tell it is
 * a repeat. Whatever its state (pending, delivered or failed), it becomes pending, due now, with a
 * new round of attempts. As the oldest pending event of its webhook it goes before later ones, so
 * per-webhook order holds. Undefined when the webhook has no such event.
 */
export async function redeliverWebhookEvent(
  deps: Pick<Deps, 'db' | 'clock' | 'sqlite'>,
  webhookId: number,
  eventId: number,
): Promise<WebhookEventRow | undefined> {
  const event = await getWebhookEvent(deps.db, webhookId, eventId)
  if (event === undefined) return undefined
  await resetWebhookEvent(deps.db, event.id, deps.clock.now().toISOString())
  notifyOutbox(deps.sqlite)
  return getWebhookEvent(deps.db, webhookId, eventId)
}
