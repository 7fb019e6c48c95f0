import { parseError, payloadTooLarge, unsupportedMediaType, ValidationError, messages } from './errors.ts'
import { jsonTypeName } from './validation.ts'

export const MAX_BODY_BYTES = 1024 * 1024

const mediaType = (header: string | null) => (header ?? '').split(';')[0]!.trim().toLowerCase()

/**
 * The one request-body parser. JSON objects everywhere; form-encoded bodies only on the paths that
 * accept them (get-token, as DRF's ObtainAuthToken does). An empty body reads as `{}` so bodiless
 * actions work and required fields are reported one by one.
 */
export async function parseBody(
  request: Request,
  formPaths: ReadonlySet<string>,
): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > MAX_BODY_BYTES) throw payloadTooLarge()
  const text = await request.text()
  if (text.length > MAX_BODY_BYTES) throw payloadTooLarge()
  if (text.trim() === '') return {}

  const type = mediaType(request.headers.get('content-type'))
  if (type === 'application/json' || type.endsWith('+json')) return parseJsonObject(text)
  if (type === 'application/x-www-form-urlencoded') {
    const path = new URL(request.url).pathname.replace(/\/?$/, '/')
    if (formPaths.has(path)) return Object.fromEntries(new URLSearchParams(text))
  }
  throw unsupportedMediaType(type)
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
