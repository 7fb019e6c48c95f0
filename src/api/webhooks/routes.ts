import { Elysia, t } from 'elysia'
import { changeWebhook, createWebhook, redeliverWebhookEvent, removeWebhook } from './rules.ts'
import { DELIVERY_TIMEOUT_MS, RETRY_DELAYS_MS } from '../../core/webhooks/dispatcher.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { docs, envelopeOf, named, paragraphs } from '../../http/docs.ts'
import { notFound } from '../../http/errors.ts'
import { defineFilters } from '../../http/filters.ts'
import { pageParams, paginate } from '../../http/pagination.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { RecordId } from '../../http/record-id.ts'
import { getWebhook, listWebhookDeliveries, listWebhooks, webhookExists } from './queries.ts'
import { RedeliverBody, WebhookDeliveryOut, WebhookEventOut, WebhookOut, WebhookWrite } from './schema.ts'
import { serializeWebhook, serializeWebhookDelivery, serializeWebhookEvent } from './serializer.ts'

const TAG = 'Webhooks'

/**
 * /api/webhooks/: organization admins only. Besides the
 * collection, each webhook's delivery attempts and a redelivery action for one of its events.
 */
/** 300000 -> '5 min': a delay as the docs page says it. */
function inWords(ms: number): string {
  const seconds = ms / 1000
  if (seconds < 60) return `${seconds} s`
  if (seconds < 3600) return `${seconds / 60} min`
  return `${seconds / 3600} h`
}

/** How a webhook's events are sent: what the docs page says beside the webhook itself. */
const DELIVERY = paragraphs(
  [
    'Each committed check-in queues one event per webhook, in the same transaction, with the exact',
    'body to send: `webhook_event_id`, `event_type`, `secret`, and `event`, the check-in (`id`,',
    '`customer_id`, `customer_first_name`, `customer_last_name`, `customer_birthday`,',
    '`customer_email`, `check_in_datetime`, `entry_method`, `entry_method_description`,',
    "`location_id`, `location_name`, `check_in_count`; `check_in_datetime` is the gym's wall-clock",
    'time with its offset, to the second). A worker sends them outside any transaction: `POST`,',
    'JSON, and with a secret the Standard Webhooks headers (`webhook-id` `msg_<webhook_event_id>`,',
    "`webhook-timestamp`, `webhook-signature` `v1,<base64 HMAC-SHA256>`, keyed by the secret's",
    "bytes or a `whsec_` secret's decoded bytes). Without a secret no `webhook-*` headers are sent.",
  ],
  [
    'Any 2xx is delivered; anything else (a 3xx too: redirects are not followed; no answer within',
    `${inWords(DELIVERY_TIMEOUT_MS)}) is retried after ${RETRY_DELAYS_MS.map(inWords).join(', ')}, then marked`,
    "failed. One webhook's events go out in order: a later event waits while an earlier one is",
    'retrying. Delivery is at least once: a crash between sending and recording sends again with',
    'the same `webhook-id`.',
  ],
)

export const webhookRoutes = (deps: Deps) =>
  new Elysia()
    .use(
      collectionRoutes(deps, {
        path: '/api/webhooks',
        tag: TAG,
        noun: 'webhook',
        read: 'admin',
        write: 'admin',
        descriptions: {
          list: 'Ordered by id.',
          create: DELIVERY,
          remove: "Drops the webhook's queued events and their attempts. Answers 204 with no body.",
        },
        filters: defineFilters({}),
        output: WebhookOut,
        list: ({ deps }) => listWebhooks(deps.db),
        get: ({ deps }, id) => getWebhook(deps.db, id),
        serialize: serializeWebhook,
        create: { body: WebhookWrite, run: ({ deps }, body) => createWebhook(deps, body) },
        replace: { body: WebhookWrite, run: ({ deps }, row, body) => changeWebhook(deps, row, body) },
        remove: { run: ({ deps }, row) => removeWebhook(deps, row) },
      }),
    )
    .use(
      new Elysia({ prefix: '/api/webhooks' })
        .use(authenticated(deps))
        .get(
          '/:id/deliveries/',
          async ({ params, request, query, urls }) => {
            if (!(await webhookExists(deps.db, params.id))) throw notFound()
            return paginate(
              request,
              query,
              urls,
              listWebhookDeliveries(deps.db, params.id),
              serializeWebhookDelivery,
            )
          },
          {
            params: t.Object({ id: RecordId() }),
            ...requires('admin'),
            ...docs({
              tag: TAG,
              summary: "List a webhook's delivery attempts, newest first",
              description: whoMay(
                'admin',
                [
                  "Every attempt to send the webhook's events, newest first: `status_code`, `error`,",
                  "`duration_ms`, the first 1 KiB of the answer and its event's `event_status`.",
                ].join(' '),
              ),
              ok: { status: 200, schema: envelopeOf(named('WebhookDelivery', WebhookDeliveryOut)) },
              errors: [404],
              params: { id: "The webhook's id" },
              query: t.Object(pageParams),
            }),
          },
        )
        .post(
          '/:id/events/:webhook_event_id/redeliver/',
          async ({ params, set }) => {
            const event = await redeliverWebhookEvent(deps, params.id, params.webhook_event_id)
            if (event === undefined) throw notFound()
            // Accepted: the dispatcher sends it shortly; its attempts show under deliveries/.
            set.status = 202
            return serializeWebhookEvent(event)
          },
          {
            params: t.Object({ id: RecordId(), webhook_event_id: RecordId() }),
            ...requires('admin'),
            ...docs({
              tag: TAG,
              summary: 'Send one event again (same webhook_event_id and webhook-id), due now',
              description: whoMay(
                'admin',
                [
                  'No body, or `{}`. Queues the event again now, with its attempts counted afresh, and',
                  "answers 202 with the event's state; the attempts show under `deliveries/`. 404 for an",
                  "event that is not this webhook's.",
                ].join(' '),
              ),
              ok: { status: 202, schema: named('WebhookEvent', WebhookEventOut) },
              body: named('WebhookRedeliver', RedeliverBody),
              errors: [404],
              params: { id: "The webhook's id", webhook_event_id: "The event's webhook_event_id" },
            }),
          },
        ),
    )
