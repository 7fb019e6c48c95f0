import {
  ApiError,
  jsonTypeName,
  messages,
  parseError,
  payloadTooLarge,
  unsupportedMediaType,
  ValidationError,
} from './errors.ts'

export const MAX_BODY_BYTES = 1024 * 1024

/**
 * What the server itself will read before cutting the connection with a bare 413. It is larger than
 * MAX_BODY_BYTES so that an oversized body (up to this) still gets the DRF-shaped 413 from parseBody.
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
 * The one request-body parser. JSON objects everywhere; form-encoded bodies only on the paths that
 * accept them (get-token, as DRF's ObtainAuthToken does). An empty body reads as `{}` so bodiless
 * actions work and required fields are reported one by one.
 */
export async function parseBody(
  request: Request,
  formPaths: ReadonlySet<string>,
): Promise<Record<string, unknown> | UnreadableBody> {
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > MAX_BODY_BYTES) throw payloadTooLarge()
  const text = await request.text()
  if (text.length > MAX_BODY_BYTES) throw payloadTooLarge()
  if (text.trim() === '') return {}

  const type = mediaType(request.headers.get('content-type'))
  try {
    if (type === 'application/json' || type.endsWith('+json')) return parseJsonObject(text)
    if (type === 'application/x-www-form-urlencoded') {
      const path = new URL(request.url).pathname.replace(/\/?$/, '/')
      if (formPaths.has(path)) return Object.fromEntries(new URLSearchParams(text))
    }
    throw unsupportedMediaType(type)
  } catch (error) {
    if (error instanceof ApiError) return new UnreadableBody(error)
    throw error
  }
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
      non_field_errors: [messages.invalidBody(value === null ? 'NoneType' : jsonTypeName(value))],
    })
  }
  return value as Record<string, unknown>
}
