/**
 * One HTTP attempt at delivering a webhook event. It never throws: every way an attempt can end is
 * an `AttemptResult`, which the dispatcher records. No database work happens here.
 */

/** How much of a response body is kept with the attempt: enough to see a receiver's error text. */
export const RESPONSE_BODY_LIMIT_BYTES = 1024
const ERROR_TEXT_LIMIT = 1024

export interface AttemptResult {
  /** a 2xx answer */
  delivered: boolean
  /** null when no response came */
  statusCode: number | null
  /** why it failed ('' when delivered) */
  error: string
  durationMs: number
  responseBody: string
}

export interface SendOptions {
  timeoutMs: number
  /** aborted when the dispatcher stops: the attempt is abandoned, not recorded */
  stopSignal: AbortSignal
}

/** Reads at most `limit` bytes of the body, then lets the rest go; a broken body yields what came. */
async function bodyPrefix(response: Response, limit: number): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < limit) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } catch {
    // a body cut short (timeout, reset) still counts for what arrived
  } finally {
    reader.cancel().catch(() => {})
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, limit))
}

function failureText(status: number): string {
  if (status >= 300 && status < 400) return `The receiver answered ${status}; redirects are not followed.`
  return `The receiver answered ${status}.`
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const code = (error as { code?: unknown }).code
  return `${code ? `${String(code)}: ` : ''}${error.message}`.slice(0, ERROR_TEXT_LIMIT)
}

/**
 * POSTs `body` as it is. Any 2xx is delivered; a 3xx is a failure (`redirect: 'manual'`: a receiver
 * that moved must be reconfigured, and a redirect must not carry a signed body elsewhere).
 * Returns null when `stopSignal` aborted it.
 */
export async function sendWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<AttemptResult | null> {
  const controller = new AbortController()
  let timedOut = false
  const timeout = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, options.timeoutMs)
  const onStop = () => controller.abort()
  options.stopSignal.addEventListener('abort', onStop)
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: controller.signal,
    })
    const responseBody = await bodyPrefix(response, RESPONSE_BODY_LIMIT_BYTES)
    const delivered = response.status >= 200 && response.status < 300
    return {
      delivered,
      statusCode: response.status,
      error: delivered ? '' : failureText(response.status),
      durationMs: elapsed(),
      responseBody,
    }
  } catch (error) {
    if (options.stopSignal.aborted && !timedOut) return null
    return {
      delivered: false,
      statusCode: null,
      error: timedOut
        ? `No response within ${options.timeoutMs / 1000} s.`
        : `The request failed: ${errorText(error)}`,
      durationMs: elapsed(),
      responseBody: '',
    }
  } finally {
    clearTimeout(timeout)
    options.stopSignal.removeEventListener('abort', onStop)
  }
}
