import { ref } from './docs.ts'
import { documentOptions } from './options-document.ts'
import { RECORD_ID_PATTERN } from './record-id.ts'

/**
 * Finishes the document @elysiajs/openapi generates from the route table, so that it says what the
 * API does:
 *
 * - Parameters a route documents in its `detail` (docs.ts: descriptions, the typed query
 *   parameters of a list) are kept: the generator replaces them with the ones it derives from the
 *   route's validation schemas whenever the route has path parameters.
 * - Elysia's `t.Integer()` validates a union of an integer and a numeric string (what a URL
 *   carries), and the generator prints both, the string one with a default of 0; a path's record
 *   id (record-id.ts) validates the digits a URL carries. The document states the integer.
 * - Every schema with a `title` (docs.ts `named`) is listed once under `components.schemas` and
 *   referred to from where it is used; two different schemas under one name are a mistake, and
 *   refused.
 * - The tags the operations use are listed, in route-table order.
 * - Every operation that writes (every method but GET) may find the disk full or failing: 503
 *   StorageUnavailable (the error handler's answer), unless the route documents its own 503.
 * - Every /api/ path answers OPTIONS (options-document.ts), which no route serves.
 */

type Json = any

/** What this needs of a registered route: Elysia's own route table entries have it. */
export interface DocumentedRoute {
  method: string
  path: string
  hooks?: { detail?: { parameters?: unknown } }
}

export function finishDocument(generated: unknown, routes: readonly DocumentedRoute[]): Json {
  const doc: Json = withoutCoercionTwins(JSON.parse(JSON.stringify(generated)))
  keepDocumentedParameters(doc, routes)
  nameSchemas(doc)
  documentStorageFailures(doc)
  documentOptions(doc)
  doc.tags = [...new Set(operations(doc).flatMap((op) => op.tags ?? []))].map((name) => ({ name }))
  return doc
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

function operations(doc: Json): Json[] {
  return Object.values(doc.paths ?? {}).flatMap((item: Json) =>
    METHODS.filter((m) => item[m] !== undefined).map((m) => item[m]),
  )
}

function documentStorageFailures(doc: Json) {
  for (const item of Object.values(doc.paths ?? {}) as Json[]) {
    for (const method of METHODS.filter((m) => m !== 'get' && item[m] !== undefined)) {
      const responses = (item[method].responses ??= {})
      responses['503'] ??= ref('StorageUnavailable')
    }
  }
}

/** Elysia's `/api/gyms/:id/` as the document writes it. */
const toDocumentPath = (path: string) => path.replace(/:([^/]+)/g, '{$1}')

function keepDocumentedParameters(doc: Json, routes: readonly DocumentedRoute[]) {
  for (const route of routes) {
    const documented = route.hooks?.detail?.parameters
    if (!Array.isArray(documented) || documented.length === 0) continue
    const operation = doc.paths?.[toDocumentPath(route.path)]?.[route.method.toLowerCase()]
    if (!operation) continue
    const merged: Json[] = [...(operation.parameters ?? [])]
    for (const parameter of JSON.parse(JSON.stringify(documented))) {
      const i = merged.findIndex((p) => p.name === parameter.name && p.in === parameter.in)
      if (i === -1) merged.push(parameter)
      else merged[i] = { ...merged[i], ...parameter }
    }
    operation.parameters = merged
  }
}

/** The string branch Elysia adds beside a number so that a URL's text validates. */
const isCoercionTwin = (s: Json) =>
  s?.type === 'string' && (s.format === 'integer' || s.format === 'numeric') && s.default === 0

/** A path's record id: the digits of an integer. */
const isRecordIdDigits = (s: Json) => s?.type === 'string' && s.pattern === RECORD_ID_PATTERN

function withoutCoercionTwins(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutCoercionTwins)
  if (value === null || typeof value !== 'object') return value
  if (isRecordIdDigits(value)) return { type: 'integer' }
  const out: Json = {}
  for (const [key, child] of Object.entries(value)) out[key] = withoutCoercionTwins(child)
  if (Array.isArray(out.anyOf) && out.anyOf.some(isCoercionTwin)) {
    const rest = out.anyOf.filter((s: Json) => !isCoercionTwin(s))
    if (rest.length === 1) {
      const { anyOf: _, ...outer } = out
      return { ...outer, ...rest[0] }
    }
    out.anyOf = rest
  }
  return out
}

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas']
const SCHEMA_LISTS = ['anyOf', 'allOf', 'oneOf', 'prefixItems']
const SCHEMA_VALUES = [
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
]

function nameSchemas(doc: Json) {
  const named = new Map<string, { schema: Json; key: string }>()
  const register = (title: string, schema: Json) => {
    const key = canonical(schema)
    const seen = named.get(title)
    if (seen && seen.key !== key) {
      throw new Error(`Two different schemas are named ${title}:\n${seen.key}\n${key}`)
    }
    named.set(title, { schema, key })
  }
  const hoist = (schema: Json, isComponent = false): Json => {
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema
    const out: Json = { ...schema }
    for (const key of SCHEMA_MAPS) {
      if (out[key] && typeof out[key] === 'object') {
        out[key] = Object.fromEntries(Object.entries(out[key]).map(([k, s]) => [k, hoist(s)]))
      }
    }
    for (const key of SCHEMA_LISTS)
      if (Array.isArray(out[key])) out[key] = out[key].map((s: Json) => hoist(s))
    for (const key of SCHEMA_VALUES) if (out[key] && typeof out[key] === 'object') out[key] = hoist(out[key])
    if (typeof out.title !== 'string' || isComponent) return out
    register(out.title, out)
    return { $ref: `#/components/schemas/${encodeURIComponent(out.title)}` }
  }
  const inMedia = (content: Json) => {
    for (const media of Object.values(content ?? {}) as Json[])
      if (media.schema) media.schema = hoist(media.schema)
  }
  const inResponse = (response: Json) => {
    inMedia(response?.content)
    for (const header of Object.values(response?.headers ?? {}) as Json[]) {
      if (header.schema) header.schema = hoist(header.schema)
    }
  }
  for (const operation of operations(doc)) {
    for (const parameter of operation.parameters ?? [])
      if (parameter.schema) parameter.schema = hoist(parameter.schema)
    inMedia(operation.requestBody?.content)
    for (const response of Object.values(operation.responses ?? {})) inResponse(response)
  }
  const components = (doc.components ??= {})
  for (const response of Object.values(components.responses ?? {})) inResponse(response)
  const schemas: Json = (components.schemas ??= {})
  for (const [name, schema] of Object.entries(schemas)) schemas[name] = hoist(schema, true)
  for (const [title, { schema }] of [...named].sort(([a], [b]) => a.localeCompare(b))) {
    if (schemas[title] !== undefined && canonical(schemas[title]) !== canonical(schema)) {
      throw new Error(`Two different schemas are named ${title}`)
    }
    schemas[title] = schema
  }
}

/** JSON with keys in one order, to tell whether two schemas are the same. */
function canonical(value: Json): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  )
}
