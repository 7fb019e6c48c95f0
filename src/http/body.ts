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
 * matching `multipartPaths` (file uploads), where file parts arrive as `File` values. An empty body
 * reads as `{}` so bodiless actions work and required fields are reported one by one.
 */
export async function parseBody(
  request: Request,
  formPaths: ReadonlySet<string>,
  multipartPaths: readonly RegExp[] = [],
): Promise<Record<string, unknown> | UnreadableBody> {
  const type = mediaType(request.headers.get('content-type'))
  const path = new URL(request.url).pathname.replace(/\/?$/, '/')
  const multipart = type === 'multipart/form-data' && multipartPaths.some((p) => p.test(path))
  const limit = multipart ? MAX_MULTIPART_BODY_BYTES : MAX_BODY_BYTES
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > limit) throw payloadTooLarge()
  if (multipart) return parseMultipart(request, limit)

  const text = await request.text()
  if (text.length > MAX_BODY_BYTES) throw payloadTooLarge()
  if (text.trim() === '') return {}

  try {
    if (type === 'application/json' || type.endsWith('+json')) return parseJsonObject(text)
    if (type === 'application/x-www-form-urlencoded' && formPaths.has(path)) {
      return formBody(new URLSearchParams(text))
    }
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

function parseJsonObject(text: string): Record<string, unknown> {
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
