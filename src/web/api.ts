import { storedToken, storeToken } from './session.ts'

/** A refused request: its status and the API's body (DRF's shapes, or the door's). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(errorMessages(body).join(' ') || `The server answered ${status}.`)
  }
}

let signedOut: (why: string) => void = () => {}

/** Who hears that the token stopped working (the app, which shows the login again). */
export function onSignedOut(listener: (why: string) => void): void {
  signedOut = listener
}

/**
 * One request to the API with the tab's token. A 401 forgets the token and sends the desk back to
 * the login; any other refusal throws an ApiError whose message is the API's own words.
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' }
  const token = storedToken()
  if (token !== null) headers.authorization = `Token ${token}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  const parsed: unknown = text === '' ? null : parseJson(text)
  if (response.status === 401 && token !== null) {
    storeToken(null)
    signedOut('Your session has ended: log in again.')
  }
  if (!response.ok) throw new ApiError(response.status, parsed)
  return parsed as T
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * A DRF error body in words: `detail`, or each field's messages (a field's name before them,
 * except for the object-level `non_field_errors`), or a bare string.
 */
export function errorMessages(body: unknown): string[] {
  if (typeof body === 'string') return [body]
  if (body === null || typeof body !== 'object') return []
  if ('detail' in body && typeof body.detail === 'string') return [body.detail]
  return Object.entries(body).flatMap(([field, messages]) =>
    (Array.isArray(messages) ? messages : []).map((m) =>
      field === 'non_field_errors' ? String(m) : `${field}: ${String(m)}`,
    ),
  )
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
