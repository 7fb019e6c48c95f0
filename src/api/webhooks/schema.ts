import { FormatRegistry, Type as t } from '@sinclair/typebox'
import { messages } from '../../http/errors.ts'
import { field, out } from '../../http/fields.ts'
import { choices } from '../../lib/choices.ts'

export const WEBHOOK_EVENT_TYPES = choices({ check_in: 'Check-in' })
export const SECRET_MAX_LENGTH = 255
export const WEBHOOK_URL_MAX_LENGTH = 2048

/**
 * An absolute http(s) URL with a host, as Django's URLValidator takes it for those schemes: the
 * dispatcher must be able to POST to it, so ftp: or a bare path is refused at the door.
 */
export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value) || !/^https?:\/\//i.test(value)) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}
FormatRegistry.Set('http-url', isHttpUrl)

export const WebhookWrite = t.Object({
  event_type: field.choice(WEBHOOK_EVENT_TYPES, { description: 'The event sent: check_in' }),
  webhook_url: t.String({
    minLength: 1,
    maxLength: WEBHOOK_URL_MAX_LENGTH,
    format: 'http-url',
    'x-drf-message': messages.url,
    description: 'Receiving URL, http:// or https://',
  }),
  secret: t.Optional(
    field.text({
      blank: true,
      maxLength: SECRET_MAX_LENGTH,
      description:
        'Sent in every body and, when set, signs each request (Standard Webhooks); a whsec_<base64> secret signs with its decoded bytes',
    }),
  ),
})

export const WebhookOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    event_type: t.String(),
    webhook_url: t.String({ format: 'uri' }),
    secret: t.String(),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      'Where to send each check-in as it happens, optionally signed with `secret` (Standard',
      'Webhooks). Creating one says how events are sent and retried.',
    ].join(' '),
  },
)

const EVENT_STATUS = t.Union([t.Literal('pending'), t.Literal('delivered'), t.Literal('failed')])

export const WebhookDeliveryOut = t.Object({
  id: out.id(),
  webhook_event_id: t.Integer(),
  attempt: t.Integer({ description: 'Which attempt of its event this was, from 1' }),
  attempted_at: out.datetime(),
  status_code: t.Union([t.Integer(), t.Null()], {
    description: "The receiver's status; null when no response came",
  }),
  error: t.Union([t.String(), t.Null()], {
    description: 'Why the attempt failed without a 2xx; null when it succeeded',
  }),
  duration_ms: t.Integer(),
  response_body: t.String({ description: 'The first 1 KiB of the response body' }),
  event_status: EVENT_STATUS,
})

export const WebhookEventOut = t.Object({
  webhook_event_id: t.Integer(),
  webhook_id: t.Integer(),
  event_type: t.String(),
  status: EVENT_STATUS,
  attempts: t.Integer({
    description: 'Attempts made in the current round (a redelivery starts a new round)',
  }),
  next_attempt_at: out.datetime(),
  delivered_at: t.Union([out.datetime(), t.Null()]),
  created_at: out.datetime(),
})

/** Redelivery takes no fields (any sent are ignored). */
export const RedeliverBody = t.Object({})
