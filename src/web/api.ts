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

/** Methods that change nothing: the box asks no CSRF token (nor PIN) for them. */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The staff member acting on one change in PIN mode. */
export interface ActingStaff {
  email: string
  pin: string
}

/** Asks who is acting (the PIN prompt); `problem` says why the last try was refused; null: cancelled. */
export type PinAsker = (problem: string | null) => Promise<ActingStaff | null>

let askPin: PinAsker | null = null

/** In PIN mode (the session says so), every change first asks who is acting through `asker`. */
export function setPinAsker(asker: PinAsker | null): void {
  askPin = asker
}

/** The changes that take no PIN: the door's scans, the kiosk's and logout. */
const NO_PIN = [
  /^\/api\/gym-endpoints\/(barcode|open-door)-check-in\//,
  /^\/api\/customers\/(check-in-by-barcode|\d+\/check-in)\/$/,
  /^\/api\/logout\/$/,
  /^\/api\/kiosk\/check-in\/$/,
]

/** The box's refusals of the PIN itself: asked again, in the prompt. */
const PIN_REFUSALS = new Set([
  'Wrong staff email or PIN.',
  'PIN mode needs both X-Staff-Email and X-Staff-PIN.',
])

/** A change not sent because nobody gave a PIN. */
export class PinCancelled extends ApiError {
  constructor() {
    super(0, { detail: 'Nothing was done: no staff PIN was given.' })
  }
}

/**
 * One request to the API on the browser's session: the cookie goes by itself, and an unsafe request
 * carries the session's CSRF token in `X-CSRFToken`. In PIN mode a change first asks who is acting
 * and sends their email and PIN; a wrong PIN (or a throttled one) is asked again. A 401 (the
 * session ended) sends the desk back to the login; any other refusal throws an ApiError whose
 * message is the API's own words. The body goes as JSON, or as multipart when it is a FormData
 * (a photo).
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' }
  const csrf = SAFE.has(method) ? null : csrfToken()
  if (csrf !== null) headers['x-csrftoken'] = csrf
  // A FormData body goes as multipart: the browser writes its content-type (with the boundary).
  const form = body instanceof FormData
  if (body !== undefined && !form) headers['content-type'] = 'application/json'
  const asker = SAFE.has(method) || NO_PIN.some((p) => p.test(path)) ? null : askPin
  let problem: string | null = null
  for (;;) {
    if (asker !== null) {
      const acting = await asker(problem)
      if (acting === null) throw new PinCancelled()
      headers['x-staff-email'] = acting.email
      headers['x-staff-pin'] = acting.pin
    }
    const response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    })
    const text = await response.text()
    const parsed: unknown = text === '' ? null : parseJson(text)
    if (response.status === 401) {
      forgetSession()
      signedOut('Your session has ended: log in again.')
    }
    const refusal = new ApiError(response.status, parsed, response.headers.get('x-request-id'))
    if (asker !== null && (response.status === 429 || PIN_REFUSALS.has(refusal.message))) {
      problem = refusal.message
      continue
    }
    if (!response.ok) throw refusal
    return parsed as T
  }
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
