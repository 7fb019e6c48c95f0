import type { Deps } from '../deps.ts'
import type { StaffUser } from '../db/schema.ts'
import { authenticateRequest } from './auth.ts'
import { ApiError, notFound, serverError } from './errors.ts'
import { allows, requiredPermission, type Permission } from './permissions.ts'
import { RECORD_ID_PATTERN } from './record-id.ts'
import { noteRequestUser } from './request-log.ts'
import { allowList, type IndexedRoute, type RouteIndex } from './route-index.ts'

/*
 * OPTIONS on every /api/ path, answered as Django REST Framework's SimpleMetadata answers it: the
 * path's name and description, the media types it renders and parses, and under `actions` the
 * fields of each write (POST, PUT) the user may make there. Everything is read from the finished
 * OpenAPI document the box serves (the operations' descriptions, request and response schemas), so
 * the metadata and the document are one source; what the user may do comes from each route's
 * `requires()`. A path's metadata is worked out once, at its first OPTIONS; a request only filters
 * the actions by the user's permissions.
 */

type Json = any

/** One field as DRF's SimpleMetadata describes it, its keys in DRF's order. */
export interface FieldInfo {
  type: string
  required: boolean
  read_only: boolean
  label?: string
  help_text?: string
  min_length?: number
  max_length?: number
  min_value?: number
  max_value?: number
  child?: FieldInfo
  children?: Record<string, FieldInfo>
  choices?: Array<{ value: unknown; display_name: string }>
}

export type Fields = Record<string, FieldInfo>

export interface Metadata {
  name: string
  description: string
  renders: string[]
  parses: string[]
  actions?: { POST?: Fields; PUT?: Fields }
}

/** The writes DRF's metadata describes: creating on a collection, replacing a record. */
const WRITES = ['POST', 'PUT'] as const
type Write = (typeof WRITES)[number]

/** Every answer renders JSON, and the browsable API renders HTML for a browser. */
const RENDERS = ['application/json', 'text/html']

/** A string schema's format, as DRF names the field that reads it. */
const STRING_TYPES: Record<string, string> = {
  date: 'date',
  'date-time': 'datetime',
  time: 'time',
  email: 'email',
  'email-or-blank': 'email',
  uri: 'url',
  binary: 'file upload',
}

/** Every `type` a field may have, for the document. */
export const FIELD_TYPES = [
  'string',
  'integer',
  'float',
  'decimal',
  'boolean',
  'date',
  'datetime',
  'time',
  'email',
  'url',
  'file upload',
  'choice',
  'list',
  'nested object',
  'field',
]

/** What one path's OPTIONS answers, worked out once. */
interface PathMetadata {
  base: Omit<Metadata, 'actions'>
  allow: string
  writes: Array<{ method: Write; permission: Permission | undefined; fields: Fields }>
  /** Positions of the path's segments that must be a record id (digits). */
  recordIds: number[]
  /** A GET of the path tells whether the record it names exists (DRF's `get_object`). */
  readable: boolean
}

export interface OptionsAnswerer {
  /** The answer to OPTIONS on `path`, or undefined when it is not an /api/ path a route serves. */
  (request: Request, path: string): Promise<Response | undefined>
}

export function optionsAnswerer(o: {
  deps: Deps
  routes: RouteIndex
  /** The app's own handler: the document, and a GET asking whether a record exists. */
  handle(request: Request): Promise<Response>
  formPaths: ReadonlySet<string>
  multipartPaths: readonly RegExp[]
}): OptionsAnswerer {
  let document: Promise<Json> | undefined
  const described = new Map<string, PathMetadata>()
  const bodies = new Map<string, string>()

  const documentOf = (request: Request) =>
    (document ??= o
      .handle(new Request(new URL('/swagger/json', request.url).href))
      .then((response) => response.json())
      .catch((error) => {
        document = undefined
        throw error
      }))

  /** What the body parser (http/body.ts) reads on this path: JSON everywhere, forms where allowed. */
  const parses = (path: string) => [
    'application/json',
    ...(o.formPaths.has(withSlash(path)) ? ['application/x-www-form-urlencoded'] : []),
    ...(o.multipartPaths.some((p) => p.test(withSlash(path))) ? ['multipart/form-data'] : []),
  ]

  /** A GET of the record's path with the request's credentials finds it. */
  const exists = async (request: Request, path: string) => {
    const headers = new Headers()
    for (const name of ['authorization', 'cookie']) {
      const value = request.headers.get(name)
      if (value !== null) headers.set(name, value)
    }
    const response = await o.handle(new Request(new URL(path, request.url).href, { headers }))
    await response.body?.cancel()
    return response.status === 200
  }

  return async (request, path) => {
    if (!path.startsWith('/api/')) return undefined
    const template = o.routes.template(path)
    if (template === null) return undefined
    try {
      let user: StaffUser | null = null
      if (!o.routes.isPublic(path)) {
        user = (await authenticateRequest(o.deps, request)).user
        noteRequestUser(request, user.id)
      }
      let metadata = described.get(template)
      if (metadata === undefined) {
        const routes = o.routes.routes().filter((r) => sameTemplate(r.path, template))
        metadata = describePath(await documentOf(request), template, routes, parses(path))
        described.set(template, metadata)
      }
      const segments = path.split('/')
      for (const at of metadata.recordIds) if (!isRecordId(segments[at])) throw notFound()
      let writes = metadata.writes.filter(
        (w) => user === null || w.permission === undefined || allows(user, w.permission),
      )
      if (writes.length > 0 && metadata.readable && !(await exists(request, path))) writes = []
      const key = `${template} ${writes.map((w) => w.method).join(' ')}`
      let body = bodies.get(key)
      if (body === undefined) {
        const actions = Object.fromEntries(writes.map((w) => [w.method, w.fields]))
        body = JSON.stringify(writes.length > 0 ? { ...metadata.base, actions } : metadata.base)
        bodies.set(key, body)
      }
      return new Response(body, {
        headers: { 'content-type': 'application/json', allow: metadata.allow },
      })
    } catch (error) {
      // Answered here: this runs inside the error handler, which has no handler after it.
      let refusal = error instanceof ApiError ? error : undefined
      if (refusal === undefined) {
        o.deps.log.error('unhandled error', {
          method: request.method,
          path,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        })
        refusal = serverError()
      }
      return new Response(JSON.stringify(refusal.body), {
        status: refusal.status,
        headers: { 'content-type': 'application/json', ...refusal.headers },
      })
    }
  }
}

const withSlash = (path: string) => (path.endsWith('/') ? path : `${path}/`)
const sameTemplate = (a: string, b: string) => withSlash(a) === withSlash(b)

const isRecordId = (segment: string | undefined) =>
  segment !== undefined &&
  new RegExp(RECORD_ID_PATTERN).test(segment) &&
  Number.isSafeInteger(Number(segment))

/** Elysia's `/api/gyms/:id/` as the document writes it. */
const toDocumentPath = (path: string) => withSlash(path).replace(/:([^/]+)/g, '{$1}')

function describePath(
  doc: Json,
  template: string,
  routes: ReadonlyArray<IndexedRoute>,
  parses: string[],
): PathMetadata {
  const documentPath = toDocumentPath(template)
  const item: Json = doc.paths?.[documentPath] ?? {}
  const methods = new Set(routes.map((r) => r.method.toUpperCase()))
  const allow = allowList(methods).join(', ')
  const writes = WRITES.filter((m) => methods.has(m) && item[m.toLowerCase()] !== undefined).map(
    (method) => ({
      method,
      permission: requiredPermission(
        (routes.find((r) => r.method.toUpperCase() === method)?.hooks ?? {}) as { transform?: unknown },
      ),
      fields: fieldsOf(doc, item[method.toLowerCase()]),
    }),
  )
  const pathParams = new Map<string, Json>()
  for (const operation of Object.values(item) as Json[])
    for (const p of operation?.parameters ?? []) if (p.in === 'path') pathParams.set(p.name, p.schema)
  const segments = documentPath.split('/')
  const recordIds = segments.flatMap((segment, at) => {
    const param = /^\{(.+)\}$/.exec(segment)?.[1]
    return param !== undefined && resolve(doc, pathParams.get(param))?.type === 'integer' ? [at] : []
  })
  return {
    base: {
      name: nameOf(doc, documentPath, item),
      description: descriptionOf(item),
      renders: rendersOf(doc, item),
      parses,
    },
    allow,
    writes,
    recordIds,
    readable: recordIds.length > 0 && jsonOf(doc, item.get?.responses?.['200']) !== undefined,
  }
}

/**
 * DRF's view name: `<Item> List` for a collection (its GET answers a paginated list of Item),
 * `<Item> Instance` for a record (its path ends with the record's id and its GET answers an Item);
 * any other path is named by its last fixed segment (`freeze/` "Freeze", `get-token/` "Get token").
 */
export function nameOf(doc: Json, documentPath: string, item: Json): string {
  const named = schemaName(jsonOf(doc, item.get?.responses?.['200']))
  const list = named === undefined ? null : /^Paginated(.+)List$/.exec(named)
  if (list) return `${words(list[1]!)} List`
  if (named !== undefined && documentPath.endsWith('}/')) return `${words(named)} Instance`
  const last =
    documentPath
      .split('/')
      .filter((s) => s !== '' && !s.startsWith('{'))
      .pop() ?? ''
  return capitalize(last.replace(/[-_]/g, ' '))
}

/** The path's own rules: its GET's description, else its first write's. */
function descriptionOf(item: Json): string {
  for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
    const description = item[method]?.description
    if (typeof description === 'string') return description
  }
  return ''
}

/** JSON and HTML, and any other media type the path's operations answer with (text, images). */
function rendersOf(doc: Json, item: Json): string[] {
  const types = new Set(RENDERS)
  for (const [method, operation] of Object.entries(item) as [string, Json][]) {
    if (method === 'options') continue
    for (const [status, response] of Object.entries(operation?.responses ?? {})) {
      if (!status.startsWith('2')) continue
      for (const type of Object.keys(resolveResponse(doc, response)?.content ?? {})) types.add(type)
    }
  }
  return [...types]
}

/**
 * A write's fields: the record's as its answer gives them, each writable one as the request schema
 * describes it and the others read-only, then the fields only the request has (a password).
 */
function fieldsOf(doc: Json, operation: Json): Fields {
  const content = operation.requestBody?.content ?? {}
  const media = content['application/json'] ?? content['multipart/form-data'] ?? Object.values(content)[0]
  const request = objectOf(doc, media?.schema)
  const okStatus = Object.keys(operation.responses ?? {}).find((s) => s.startsWith('2'))
  const response = objectOf(doc, jsonOf(doc, okStatus && operation.responses[okStatus]))
  const fields: Fields = {}
  for (const [name, schema] of Object.entries(response.properties)) {
    fields[name] =
      name in request.properties
        ? fieldInfo(doc, request.properties[name], request.required.includes(name), false, name)
        : fieldInfo(doc, schema, false, true, name)
  }
  for (const [name, schema] of Object.entries(request.properties)) {
    fields[name] ??= fieldInfo(doc, schema, request.required.includes(name), false, name)
  }
  return fields
}

/** How deep nested objects and lists are described. */
const MAX_DEPTH = 8

export function fieldInfo(
  doc: Json,
  schema: Json,
  required: boolean,
  readOnly: boolean,
  name?: string,
  depth = 0,
): FieldInfo {
  const { core, description } = unwrap(doc, schema)
  const choices = choicesOf(doc, core)
  const info: FieldInfo = { type: fieldType(doc, core, choices), required, read_only: readOnly }
  if (name !== undefined) info.label = capitalize(name.replace(/_/g, ' '))
  if (typeof description === 'string' && description !== '') info.help_text = description
  if (core.type === 'string' && core.minLength > 0) info.min_length = core.minLength
  if (core.type === 'string' && core.maxLength !== undefined) info.max_length = core.maxLength
  if (core.type === 'array' && core.minItems > 0) info.min_length = core.minItems
  if (core.type === 'array' && core.maxItems !== undefined) info.max_length = core.maxItems
  if (core.type === 'integer' || core.type === 'number') {
    const step = core.type === 'integer' ? 1 : 0
    const min =
      core.minimum ?? (step && core.exclusiveMinimum !== undefined ? core.exclusiveMinimum + 1 : undefined)
    const max =
      core.maximum ?? (step && core.exclusiveMaximum !== undefined ? core.exclusiveMaximum - 1 : undefined)
    if (min !== undefined) info.min_value = min
    if (max !== undefined) info.max_value = max
  }
  if (depth < MAX_DEPTH && core.type === 'array' && core.items !== undefined) {
    info.child = fieldInfo(doc, core.items, true, readOnly, undefined, depth + 1)
  } else if (depth < MAX_DEPTH && core.type === 'object' && core.properties !== undefined) {
    const inner: string[] = core.required ?? []
    info.children = Object.fromEntries(
      Object.entries(core.properties).map(([key, child]) => [
        key,
        fieldInfo(doc, child, inner.includes(key), readOnly, key, depth + 1),
      ]),
    )
  }
  if (!readOnly && choices !== undefined) {
    info.choices = choices.map(({ value, name }) => ({ value, display_name: name ?? String(value) }))
  }
  return info
}

/**
 * The schema without its `null` branch (a nullable field), and without the fixed texts beside a
 * text (DRF's `allow_blank`: an email or "", `[email, const ""]`), and its description.
 */
function unwrap(doc: Json, schema: Json): { core: Json; description?: string } {
  const s = resolve(doc, schema) ?? {}
  if (!Array.isArray(s.anyOf)) return { core: s, description: s.description }
  const branches = s.anyOf.map((b: Json) => resolve(doc, b))
  let others = branches.filter((b: Json) => b?.type !== 'null')
  const texts = others.filter((b: Json) => b?.type === 'string' && !('const' in b))
  if (texts.length === 1 && others.every((b: Json) => b?.type === 'string')) others = texts
  if (others.length === branches.length) return { core: s, description: s.description }
  const core = others.length === 1 ? others[0] : { ...s, anyOf: others }
  return { core, description: s.description ?? core.description }
}

/** One value of a choice, and its name where the document gives one. */
interface Choice {
  value: unknown
  name?: string
}

/**
 * The values of a choice and their names: a union of constants, each named by its `description`
 * (http/fields.ts's `choice`), or an enum, named by `x-enumNames` beside it.
 */
function choicesOf(doc: Json, core: Json): Choice[] | undefined {
  if (Array.isArray(core.enum)) {
    const names: unknown[] = Array.isArray(core['x-enumNames']) ? core['x-enumNames'] : []
    return core.enum.map((value: unknown, i: number) => named(value, names[i]))
  }
  if (!Array.isArray(core.anyOf)) return undefined
  const branches = core.anyOf.map((b: Json) => resolve(doc, b))
  return branches.every((b: Json) => b !== undefined && 'const' in b)
    ? branches.map((b: Json) => named(b.const, b.description))
    : undefined
}

const named = (value: unknown, name: unknown): Choice =>
  typeof name === 'string' && name !== '' ? { value, name } : { value }

function fieldType(doc: Json, core: Json, choices: Choice[] | undefined): string {
  if (choices !== undefined) return 'choice'
  if (Array.isArray(core.anyOf)) {
    const types = new Set(core.anyOf.map((b: Json) => resolve(doc, b)?.type))
    // A DRF DecimalField in a request (http/decimal.ts): a decimal string, or a JSON number.
    return types.size === 2 && types.has('string') && types.has('number') ? 'decimal' : 'field'
  }
  switch (core.type) {
    case 'string':
      return STRING_TYPES[core.format] ?? 'string'
    case 'integer':
      return 'integer'
    case 'number':
      return 'float'
    case 'boolean':
      return 'boolean'
    case 'array':
      return 'list'
    case 'object':
      return 'nested object'
    default:
      return 'field'
  }
}

/** An object schema's properties and required names; none for anything else. */
function objectOf(doc: Json, schema: Json): { properties: Record<string, Json>; required: string[] } {
  const s = resolve(doc, schema)
  if (s?.type !== 'object' || s.properties === undefined) return { properties: {}, required: [] }
  return { properties: s.properties, required: s.required ?? [] }
}

/** A response's JSON schema, through `components.responses`. */
function jsonOf(doc: Json, response: Json): Json {
  return resolveResponse(doc, response)?.content?.['application/json']?.schema
}

const resolveResponse = (doc: Json, response: Json): Json =>
  typeof response?.$ref === 'string'
    ? doc.components?.responses?.[decodeURIComponent(response.$ref.split('/').pop())]
    : response

/** A schema, through `components.schemas`. */
function resolve(doc: Json, schema: Json): Json {
  let s = schema
  for (let i = 0; i < MAX_DEPTH && typeof s?.$ref === 'string'; i++)
    s = doc.components?.schemas?.[schemaName(s)!]
  return s
}

const schemaName = (schema: Json): string | undefined =>
  typeof schema?.$ref === 'string' && schema.$ref.startsWith('#/components/schemas/')
    ? decodeURIComponent(schema.$ref.slice('#/components/schemas/'.length))
    : undefined

/** 'CustomerCredit' -> 'Customer Credit'. */
const words = (pascal: string) => pascal.replace(/([a-z0-9])([A-Z])/g, '$1 $2')

/** 'first name' -> 'First name', as DRF labels a field after its name. */
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
