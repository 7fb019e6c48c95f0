import type { Urls } from '../../http/urls.ts'
import type { Webhook, WebhookDeliveryRow, WebhookEventRow } from './queries.ts'

export function serializeWebhook(webhook: Webhook, urls: Urls) {
  return {
    id: webhook.id,
    url: urls.abs('/api/webhooks', webhook.id),
    event_type: webhook.event_type,
    webhook_url: webhook.webhook_url,
    secret: webhook.secret,
    created_at: webhook.created_at,
    updated_at: webhook.updated_at,
  }
}

/** One delivery attempt; `error` and `status_code` are null when they do not apply. */
export function serializeWebhookDelivery(delivery: WebhookDeliveryRow) {
  return {
    id: delivery.id,
    webhook_event_id: delivery.webhook_event_id,
    attempt: delivery.attempt,
    attempted_at: delivery.attempted_at,
    status_code: delivery.status_code,
    error: delivery.error === '' ? null : delivery.error,
    duration_ms: delivery.duration_ms,
    response_body: delivery.response_body,
    event_status: delivery.event_status,
  }
}

/** An outbox row's delivery state (its body is what the receiver gets; it is not repeated here). */
export function serializeWebhookEvent(event: WebhookEventRow) {
  return {
    webhook_event_id: event.id,
    webhook_id: event.webhook_id,
    event_type: event.event_type,
    status: event.status,
    attempts: event.attempts,
    next_attempt_at: event.next_attempt_at,
    delivered_at: event.delivered_at,
    created_at: event.created_at,
  }
}
