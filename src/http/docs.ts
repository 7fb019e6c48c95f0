import { CloneType, Type as t, type TObject, type TSchema } from '@sinclair/typebox'

/**
 * OpenAPI `detail` for a route. Response schemas go here as documentation only: Elysia would
 * otherwise validate every response at run time, which costs time on every request and turns a
 * serializer slip into a 500 at the front desk. The tests check every response they receive
 * against the document instead.
 */

/**
 * A schema with its name in the document: openapi.ts lists every titled schema once under
 * `components.schemas` and refers to it there. Name at the route, not in schema.ts: TypeBox's
 * Partial keeps a title, so a titled schema would lend its name to its PATCH variant too.
 */
export const named = <S extends TSchema>(name: string, schema: S): S => CloneType(schema, { title: name })

export const ErrorDetail = t.Object(
  { detail: t.String() },
  { title: 'ErrorDetail', description: 'A DRF error: what went wrong, in words' },
)

export const FieldErrors = t.Record(t.String(), t.Array(t.String()), {
  title: 'FieldErrors',
  description:
    'DRF field errors: each failing field with its messages, object-level ones under non_field_errors',
})

interface MediaDoc {
  schema: any
}

export interface ResponseDoc {
  description: string
  headers?: Record<string, { description: string; required?: boolean; schema: any }>
  content?: Record<string, MediaDoc>
}

const json = (schema: unknown): Record<string, MediaDoc> => ({ 'application/json': { schema } })

/** A body that could not be read (malformed JSON, a multipart part) is 400 with `detail`. */
const invalidBody = t.Union([FieldErrors, ErrorDetail])

/**
 * The answers many routes share, listed once under `components.responses` (see openapi.ts) and
 * referred to by each route that can give them. Every body is the error handler's DRF shape.
 */
const shared = {
  InvalidFilter: { description: 'A filter has a value of the wrong type', content: json(FieldErrors) },
  InvalidInput: {
    description: 'Invalid input: field errors, or a body that could not be parsed',
    content: json(invalidBody),
  },
  Unauthenticated: {
    description: 'No, malformed or unknown token, or an inactive user',
    headers: { 'WWW-Authenticate': { description: 'Token', required: true, schema: t.String() } },
    content: json(ErrorDetail),
  },
  PermissionDenied: { description: 'Lacks the permission', content: json(ErrorDetail) },
  NotFound: { description: 'No such record, or a page past the end', content: json(ErrorDetail) },
  PayloadTooLarge: { description: 'The body is over the size limit', content: json(ErrorDetail) },
  UnsupportedMediaType: {
    description: 'The body is not in an accepted media type',
    content: json(ErrorDetail),
  },
  Throttled: {
    description: 'Too many failed attempts: wait before trying again',
    headers: {
      'Retry-After': { description: 'Seconds to wait', required: true, schema: t.Integer({ minimum: 1 }) },
    },
    content: json(ErrorDetail),
  },
  UriTooLong: { description: 'The URL is over the length limit', content: json(ErrorDetail) },
  HeaderFieldsTooLarge: {
    description: 'The header fields are over the size limit',
    content: json(ErrorDetail),
  },
  ServerError: { description: 'Something unexpected; the cause is in the log', content: json(ErrorDetail) },
  StorageUnavailable: {
    description: 'The database could not be written (the disk is full, or failing): send it again later',
    headers: {
      'Retry-After': { description: 'Seconds to wait', required: true, schema: t.Integer({ minimum: 1 }) },
    },
    content: json(ErrorDetail),
  },
}
type Shared = keyof typeof shared
export const sharedResponses: Record<Shared, ResponseDoc> = shared
export const ref = (name: Shared) => ({ $ref: `#/components/responses/${name}` })

/** The shared answer for an error status a route lists in `errors`. */
const sharedFor: Record<number, Shared> = {
  404: 'NotFound',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  414: 'UriTooLong',
  429: 'Throttled',
  431: 'HeaderFieldsTooLarge',
  500: 'ServerError',
}

/** A route's own error answer (the door's): JSON, plain text, or either. */
export interface ErrorBody {
  description: string
  json?: TSchema
  text?: TSchema
}

/**
 * A description of several paragraphs, each written as lines of words so that it reads in code:
 * the lines of a paragraph are joined with spaces, the paragraphs with a blank line (Markdown).
 */
export const paragraphs = (...lines: string[][]): string => lines.map((words) => words.join(' ')).join('\n\n')

/** A list's other answer to `format=csv` (http/csv-export.ts): its body and Content-Disposition. */
export interface CsvAnswer {
  body: TSchema
  header: { description: string; schema: TSchema }
}

export interface DocOptions {
  tag: string
  summary: string
  /** The operation's rules in words, beneath the summary (Markdown): where a client reads them. */
  description?: string
  /**
   * Success status and body; a `null` schema for an answer without a body (204, the door's 200), or
   * with `text`, a plain-text body instead of JSON (GET /metrics).
   */
  ok: { status: number; schema: TSchema | null; description?: string; text?: TSchema; csv?: CsvAnswer }
  /**
   * The request body's schema: validated by `checkBody` in the handler, documented here. The body is
   * optional when the schema requires no field (an absent body reads as `{}`).
   */
  body?: TSchema
  /** Other media types the body may come in, each with its schema (form-encoded, multipart). */
  bodyAlso?: Record<string, TSchema>
  /** The body's own media type, where it is not JSON (an upload that is only a file part). */
  bodyMediaType?: string
  /** Public endpoints (get-token, healthz) carry no security requirement. */
  public?: boolean
  /** Error statuses besides the ones every route of its kind can give (added here). */
  errors?: number[]
  /** Error bodies that are not DRF's (the door's): status -> schema. */
  errorBodies?: Record<number, ErrorBody>
  /** Each path parameter's description, by name. */
  params?: Record<string, string>
  /** The query parameters a client may send, typed as they are meant (a list's filters). */
  query?: TObject
  /** A list's 400: its filters' field errors. */
  filters?: boolean
}

/** Either authentication will do: a token, or a browser's session (see openapi.ts's schemes). */
const SECURED: Array<Record<string, string[]>> = [{ Token: [] }, { Session: [] }]

export function docs(o: DocOptions) {
  const takesBody = o.body !== undefined
  const responses: Record<string, ResponseDoc | ReturnType<typeof ref>> = {
    [o.ok.status]: o.ok.text
      ? { description: o.ok.description ?? 'Success', content: { 'text/plain': { schema: o.ok.text } } }
      : o.ok.schema
        ? { description: o.ok.description ?? 'Success', content: json(o.ok.schema) }
        : { description: o.ok.description ?? 'No content' },
  }
  if (o.ok.csv) {
    const answer = responses[o.ok.status] as ResponseDoc
    answer.description = `${answer.description}; with \`format=csv\`, the CSV file`
    answer.headers = { ...answer.headers, 'Content-Disposition': o.ok.csv.header }
    answer.content = { ...answer.content, 'text/csv': { schema: o.ok.csv.body } }
  }
  const statuses = new Set([...(o.errors ?? []), ...Object.keys(o.errorBodies ?? {}).map(Number)])
  if (takesBody) for (const status of [400, 413, 415]) statuses.add(status)
  // A change may name the staff member acting by PIN (PIN mode), and wrong PINs are throttled.
  if (takesBody && !o.public) statuses.add(429)
  if (o.filters) statuses.add(400)
  // Any request may be over the URL or header limits, answered before routing.
  for (const status of [414, 431, 500]) statuses.add(status)
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const own = o.errorBodies?.[status]
    if (own) responses[status] = ownError(status, own, { takesBody, hasPathParams: o.params !== undefined })
    else if (status === 400) responses[status] = ref(takesBody ? 'InvalidInput' : 'InvalidFilter')
    else if (sharedFor[status]) responses[status] = ref(sharedFor[status])
    else throw new Error(`docs(): no shared answer for ${status}; give its body in errorBodies`)
  }
  if (!o.public) {
    responses[401] = ref('Unauthenticated')
    responses[403] = ref('PermissionDenied')
  }
  const parameters = [
    ...Object.entries(o.params ?? {}).map(([name, description]) => ({
      name,
      in: 'path',
      required: true,
      description,
    })),
    ...Object.entries(o.query?.properties ?? {}).map(([name, schema]) =>
      queryParameter(name, schema, o.query!),
    ),
  ]
  return {
    detail: {
      tags: [o.tag],
      summary: o.summary,
      ...(o.description ? { description: o.description } : {}),
      security: o.public ? [] : SECURED,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(o.body ? { requestBody: requestBody(o.body, o.bodyAlso, o.bodyMediaType) } : {}),
      responses,
    },
  }
}

/**
 * A route's own error answer. A route that reads a body can also refuse the body itself (field
 * errors, or `detail` when it cannot be parsed): those stay documented beside the route's own 400.
 * A route with path parameters can also get the generic 404 of a path the server refuses before
 * routing (a dot segment or an encoded slash where a parameter goes): beside its own 404.
 */
function ownError(
  status: number,
  own: ErrorBody,
  route: { takesBody: boolean; hasPathParams: boolean },
): ResponseDoc {
  const content: Record<string, MediaDoc> = {}
  if (own.text) content['text/plain'] = { schema: own.text }
  const jsonBodies = [
    ...(own.json ? [own.json] : []),
    ...(status === 400 && route.takesBody ? [FieldErrors, ErrorDetail] : []),
    ...(status === 404 && route.hasPathParams ? [ErrorDetail] : []),
  ]
  if (jsonBodies.length === 1) Object.assign(content, json(jsonBodies[0]))
  if (jsonBodies.length > 1) Object.assign(content, json(t.Union(jsonBodies)))
  return { description: own.description, content }
}

function requestBody(body: TSchema, also: Record<string, TSchema> = {}, mediaType = 'application/json') {
  const content: Record<string, MediaDoc> = { [mediaType]: { schema: body } }
  for (const [mediaType, schema] of Object.entries(also)) content[mediaType] = { schema }
  return { required: (body.required?.length ?? 0) > 0, content }
}

/** A query parameter: its description beside it (where clients look), its type in the schema. */
function queryParameter(name: string, schema: TSchema, query: TObject) {
  const { description, ...rest } = schema
  return {
    name,
    in: 'query',
    required: query.required?.includes(name) ?? false,
    ...(description ? { description } : {}),
    schema: rest,
  }
}

/** The list envelope, for documenting a list's response; named after its item when that is named. */
export const envelopeOf = (item: TSchema) =>
  t.Object(
    {
      count: t.Integer({ minimum: 0 }),
      next: t.Union([t.String({ format: 'uri' }), t.Null()]),
      previous: t.Union([t.String({ format: 'uri' }), t.Null()]),
      results: t.Array(item),
    },
    item.title ? { title: `Paginated${item.title}List` } : {},
  )

/** 'customer credit' -> 'CustomerCredit', 'add-on' -> 'AddOn': a name for the document's schemas. */
export const pascalCase = (words: string) =>
  words
    .split(/[\s_-]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')
