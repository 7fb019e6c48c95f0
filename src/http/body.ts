import {
  ApiError,
  messages,
  parseError,
  payloadTooLarge,
  unsupportedMediaType,
  ValidationError,
} from './errors.ts'
import { jsonTypeName } from '../lib/json.ts'

export const MAX_BODY_BYTES = 1024 * 1024

/** The largest file one multipart upload may carry (a scanned waiver); a larger one gets 413. */
export const MAX_UPLOAD_BYTES = 10 * MAX_BODY_BYTES

/** A whole multipart body: the file plus room for the form fields and part headers. */
export const MAX_MULTIPART_BODY_BYTES = MAX_UPLOAD_BYTES + MAX_BODY_BYTES

/**
 * What the server itself will read before cutting the connection with a bare 413. It is larger than
 * MAX_MULTIPART_BODY_BYTES so that an oversized body (up to this) still gets the DRF-shaped 413 from
 * parseBody.
 */
export const BODY_READ_LIMIT_BYTES = 16 * MAX_BODY_BYTES

const mediaType = (header: string | null) => (header ?? '').split(';')[0]!.trim().toLowerCase()

/**
 * A body that could not be read as a JSON object. DRF parses lazily, so a bad body is reported only
 * once authentication and the permission check have passed: the parser returns this, and
 * `checkBody` throws the error it carries when the handler reads the body.
 */
export class UnreadableBody {
  constructor(readonly error: ApiError) {}
}

/**
 * Bodies that came from an HTML-style form (form-encoded or multipart) rather than JSON. A form
 * cannot send null, so DRF reads an empty form value of a nullable field as null; a use case that
 * has such a field asks here whether to apply that rule.
 */
const formBodies = new WeakSet<object>()

export const isFormBody = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && formBodies.has(body)

function formBody(entries: Iterable<[string, unknown]>): Record<string, unknown> {
  // Object.fromEntries keeps the last value of a repeated name, as Django's QueryDict.get does.
  const body = Object.fromEntries(entries)
  formBodies.add(body)
  return body
}

/**
 * The one request-body parser. JSON objects everywhere; form-encoded bodies only on the paths that
 * accept them (get-token, as DRF's ObtainAuthToken does); multipart/form-data only on the paths
 * matching `multipartPaths` (file uploads), where file parts arrive as `File` values; a `text/csv`
 * body only on the paths matching `csvPaths`, where it reads as the file part `file` would. An empty
 * body reads as `{}` so bodiless actions work and required fields are reported one by one.
 */
export async function parseBody(
  request: Request,
  formPaths: ReadonlySet<string>,
  multipartPaths: readonly RegExp[] = [],
  csvPaths: readonly RegExp[] = [],
): Promise<Record<string, unknown> | UnreadableBody> {
  const type = mediaType(request.headers.get('content-type'))
  const path = new URL(request.url).pathname.replace(/\/?$/, '/')
  const multipart = type === 'multipart/form-data' && multipartPaths.some((p) => p.test(path))
  const csv = type === 'text/csv' && csvPaths.some((p) => p.test(path))
  const limit = multipart ? MAX_MULTIPART_BODY_BYTES : csv ? MAX_UPLOAD_BYTES : MAX_BODY_BYTES
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > limit) throw payloadTooLarge()
  if (multipart) return parseMultipart(request, limit)
  if (csv) {
    const file = await request.blob()
    if (file.size > limit) throw payloadTooLarge()
    return { file }
  }

  const bytes = await request.arrayBuffer()
  if (bytes.byteLength > MAX_BODY_BYTES) throw payloadTooLarge()

  try {
    if (type === 'application/json' || type.endsWith('+json')) {
      const text = decodeUtf8(bytes, 'JSON')
      return text.trim() === '' ? {} : parseJsonObject(text)
    }
    const isForm = type === 'application/x-www-form-urlencoded' && formPaths.has(path)
    const text = isForm ? decodeUtf8(bytes, 'Form') : new TextDecoder().decode(bytes)
    if (text.trim() === '') return {}
    if (isForm) return formBody(formEntries(text))
    throw unsupportedMediaType(type)
  } catch (error) {
    if (error instanceof ApiError) return new UnreadableBody(error)
    throw error
  }
}

async function parseMultipart(
  request: Request,
  limit: number,
): Promise<Record<string, unknown> | UnreadableBody> {
  const bytes = await request.arrayBuffer()
  if (bytes.byteLength > limit) throw payloadTooLarge()
  if (bytes.byteLength === 0) return formBody([])
  let parts: Array<[string, string | Blob]>
  try {
    const headers = { 'content-type': request.headers.get('content-type')! }
    const form = await new Response(bytes, { headers }).formData()
    parts = [...(form.entries() as Iterable<[string, string | Blob]>)]
  } catch (e) {
    const reason = (e as Error).message || 'Invalid multipart body'
    return new UnreadableBody(new ApiError(400, { detail: `Multipart form parse error - ${reason}` }))
  }
  const entries: Array<[string, unknown]> = []
  for (const [name, value] of parts) {
    if (value instanceof Blob && value.size > MAX_UPLOAD_BYTES) throw payloadTooLarge()
    entries.push([name, value])
  }
  return formBody(entries)
}

/** How deep objects and lists may nest in a JSON body; no field of the API needs more than a few. */
export const MAX_JSON_DEPTH = 64

/**
 * The body as text, refusing bytes that are not UTF-8 rather than storing U+FFFD in their place
 * (DRF's parsers decode strictly and answer a parse error).
 */
function decodeUtf8(bytes: ArrayBuffer, format: 'JSON' | 'Form'): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    throw parseError('The body is not valid UTF-8.', format)
  }
}

/**
 * A form-encoded body's fields, refusing percent escapes that do not spell UTF-8 (`password=%ff`),
 * which URLSearchParams would read as U+FFFD. A `%` not followed by two hex digits stays text.
 */
function formEntries(text: string): Array<[string, string]> {
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' ').replace(/%(?![0-9a-fA-F]{2})/g, '%25'))
    } catch {
      throw parseError('The body is not valid UTF-8.', 'Form')
    }
  }
  return text
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const eq = pair.indexOf('=')
      return eq < 0 ? [decode(pair), ''] : [decode(pair.slice(0, eq)), decode(pair.slice(eq + 1))]
    })
}

/**
 * Whether a JSON text opens more than `limit` objects or lists inside one another. Checked before
 * parsing: a deep enough value exhausts the stack in the parser or, later, in validation.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // a backslash escapes the next character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return false
}

function parseJsonObject(text: string): Record<string, unknown> {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw parseError(`Objects and lists nest deeper than ${MAX_JSON_DEPTH} levels.`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    throw parseError((e as Error).message.replace(/^JSON Parse error: /, ''))
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ValidationError({
      non_field_errors: [messages.invalidBody(jsonTypeName(value))],
    })
  }
  return value as Record<string, unknown>
}
