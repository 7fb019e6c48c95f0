import { t, type TSchema } from 'elysia'

/**
 * OpenAPI `detail` for a route. Response schemas go here as documentation only: Elysia would
 * otherwise validate every response at run time, which costs time on every request and turns a
 * serializer slip into a 500 at the front desk. Tests check the serializers instead.
 */
const errorBody = t.Object({ detail: t.String() })
const fieldErrors = t.Record(t.String(), t.Array(t.String()), { description: 'DRF field errors' })

interface ResponseDoc {
  description: string
  content?: Record<string, { schema: any }>
}

const json = (schema: TSchema, description: string): ResponseDoc => ({
  description,
  content: { 'application/json': { schema } },
})

export interface DocOptions {
  tag: string
  summary: string
  /** Success status and body; `null` body for 204. */
  ok: { status: number; schema: TSchema | null }
  /** The request body's schema: validated by `checkBody` in the handler, documented here. */
  body?: TSchema
  /** Public endpoints (get-token, healthz) carry no security requirement. */
  public?: boolean
  errors?: number[]
  /** Error bodies that are not DRF's (the door's): status -> schema. */
  errorBodies?: Record<number, TSchema>
}

export function docs(o: DocOptions) {
  const responses: Record<string, ResponseDoc> = {
    [o.ok.status]: o.ok.schema ? json(o.ok.schema, 'Success') : { description: 'No content' },
  }
  for (const status of o.errors ?? []) {
    const own = o.errorBodies?.[status]
    responses[status] = own
      ? json(own, errorText[status] ?? 'Error')
      : status === 400
        ? json(fieldErrors, 'Invalid input')
        : json(errorBody, errorText[status] ?? 'Error')
  }
  if (!o.public) {
    responses[401] = json(errorBody, 'No or invalid token')
    responses[403] = json(errorBody, 'Lacks the permission')
  }
  return {
    detail: {
      tags: [o.tag],
      summary: o.summary,
      security: o.public ? [] : [{ Token: [] }],
      ...(o.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: o.body } } } }
        : {}),
      responses,
    },
  }
}

const errorText: Record<number, string> = {
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Body too large',
  415: 'Unsupported media type',
  429: 'Throttled',
}

/** The list envelope, for documenting a list's response. */
export const envelopeOf = (item: TSchema) =>
  t.Object({
    count: t.Integer(),
    next: t.Nullable(t.String({ format: 'uri' })),
    previous: t.Nullable(t.String({ format: 'uri' })),
    results: t.Array(item),
  })
