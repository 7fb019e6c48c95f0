import { Elysia, t } from 'elysia'
import { changeWebhook, createWebhook, redeliverWebhookEvent, removeWebhook } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { docs, envelopeOf, named } from '../../http/docs.ts'
import { notFound } from '../../http/errors.ts'
import { defineFilters } from '../../http/filters.ts'
import { pageParams, paginate } from '../../http/pagination.ts'
import { requires } from '../../http/permissions.ts'
import { RecordId } from '../../http/record-id.ts'
import { getWebhook, listWebhookDeliveries, listWebhooks, webhookExists } from './queries.ts'
import { RedeliverBody, WebhookDeliveryOut, WebhookEventOut, WebhookOut, WebhookWrite } from './schema.ts'
import { serializeWebhook, serializeWebhookDelivery, serializeWebhookEvent } from './serializer.ts'

const TAG = 'Webhooks'

/**
 * /api/webhooks/: organization admins only. Besides the
 * collection, each webhook's delivery attempts and a redelivery action for one of its events.
 */
export const webhookRoutes = (deps: Deps) =>
  new Elysia()
    .use(
      collectionRoutes(deps, {
        path: '/api/webhooks',
        tag: TAG,
        noun: 'webhook',
        read: 'admin',
        write: 'admin',
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
              ok: { status: 202, schema: named('WebhookEvent', WebhookEventOut) },
              body: named('WebhookRedeliver', RedeliverBody),
              errors: [404],
              params: { id: "The webhook's id", webhook_event_id: "The event's webhook_event_id" },
            }),
          },
        ),
    )
