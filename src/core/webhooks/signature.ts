import { createHmac } from 'node:crypto'

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com), so a receiver can verify with one of
 * its libraries: `v1,` + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>". A secret
 * of the form `whsec_<base64>` (what those libraries generate) keys the HMAC with its decoded bytes;
 * any other secret with its UTF-8 bytes.
 */
export function signingKey(secret: string): Buffer {
  return secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8')
}

export function webhookSignature(
  secret: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
): string {
  const mac = createHmac('sha256', signingKey(secret))
    .update(`${messageId}.${timestampSeconds}.${body}`, 'utf8')
    .digest('base64')
  return `v1,${mac}`
}

/** The same id on every attempt of an event, so receivers can de-duplicate on it. */
export const webhookMessageId = (webhookEventId: number) => `msg_${webhookEventId}`

/** The request headers for one attempt: Content-Type always, the signature headers with a secret. */
export function deliveryHeaders(
  webhookEventId: number,
  secret: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (secret === '') return headers
  const id = webhookMessageId(webhookEventId)
  headers['webhook-id'] = id
  headers['webhook-timestamp'] = String(timestampSeconds)
  headers['webhook-signature'] = webhookSignature(secret, id, timestampSeconds, body)
  return headers
}
