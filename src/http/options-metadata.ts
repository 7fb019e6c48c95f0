import type { Deps } from '../deps.ts'
import type { StaffUser } from '../db/schema.ts'
import { authenticateRequest } from './auth.ts'
import { ApiError, notFound, serverError } from './errors.ts'
import { allows, requiredPermission, type Permission } from './permissions.ts'
import { RECORD_ID_PATTERN } from './record-id.ts'
import { noteRequestUser } from './request-log.ts'
import { allowList, type IndexedRoute, type RouteIndex } from './route-index.ts'
import {
  capitalize,
  fieldsOf,
  jsonOf,
  resolve,
  resolveResponse,
  schemaName,
  words,
  type Fields,
} from './options-fields.ts'

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
