import { plainErrorLines, serverFailureLine } from './plain-words.ts'
import { csrfToken, forgetSession } from './session.ts'

/** A refused request: its status and the API's body (DRF's shapes, or the door's), in the desk's words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** The box's id for the request (its log line's `request_id`), when it said one. */
    readonly requestId: string | null = null,
  ) {
    super(
      status >= 500
        ? serverFailureLine(status, requestId)
        : plainErrorLines(body).join(' ') || `The appliance refused that (${status}).`,
    )
  }
}

let signedOut: (why: string) => void = () => {}

/** Who hears that the session ended (the app, which shows the login again). */
export function onSignedOut(listener: (why: string) => void): void {
  signedOut = listener
}

/** Methods that change nothing: the box asks no CSRF token for them. */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * One request to the API on the browser's session: the cookie goes by itself, and an unsafe request
 * carries the session's CSRF token in `X-CSRFToken`. A 401 (the session ended) sends the desk back
 * to the login; any other refusal throws an ApiError whose message is the API's own words.
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' }
  const csrf = SAFE.has(method) ? null : csrfToken()
  if (csrf !== null) headers['x-csrftoken'] = csrf
  if (body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  const parsed: unknown = text === '' ? null : parseJson(text)
  if (response.status === 401) {
    forgetSession()
    signedOut('Your session has ended: log in again.')
  }
  if (!response.ok) throw new ApiError(response.status, parsed, response.headers.get('x-request-id'))
  return parsed as T
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** A query string from the parameters that are set. */
export function query(params: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.set(name, String(value))
  return `?${search}`
}

/** What went wrong, for a message on the screen: the API's words, or that it could not be reached. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message
  // fetch rejects only when no answer came at all.
  return 'The appliance did not answer: check the network and try again.'
}
