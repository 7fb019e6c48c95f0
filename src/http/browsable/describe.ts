/**
 * What the page says of a path, read from the API's own OpenAPI document (the one /swagger shows):
 * the operation's name and description, its query parameters as a filter form, and the request
 * schemas that prefill the JSON editor. One source: the page cannot say other than the docs.
 */

type Json = any

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

/** Elysia's `/api/gyms/:id/` as the document writes it, with its final slash. */
export const documentPath = (template: string) => {
  const path = template.replace(/:([^/]+)/g, '{$1}')
  return path.endsWith('/') ? path : `${path}/`
}

/** The document's operations on a route template, by lower-case method; empty when none. */
export function operationsAt(doc: Json, template: string | null): Record<string, Json> {
  if (template === null) return {}
  return doc.paths?.[documentPath(template)] ?? {}
}

/** The name and description the page opens with: the GET's, else the first operation the path has. */
export function nameOf(operations: Record<string, Json>): { name: string; description: string } | null {
  const operation = operations.get ?? METHODS.map((m) => operations[m]).find((o) => o !== undefined)
  if (operation === undefined) return null
  return { name: String(operation.summary ?? ''), description: String(operation.description ?? '') }
}

/** A schema with its `$ref` followed into `components.schemas`. */
function resolved(doc: Json, schema: Json): Json {
  let at = schema
  for (let hops = 0; at?.$ref !== undefined && hops < 10; hops++) {
    const name = decodeURIComponent(String(at.$ref).replace('#/components/schemas/', ''))
    at = doc.components?.schemas?.[name]
  }
  return at ?? {}
}

export interface FilterField {
  name: string
  description: string
  /** The values a select offers; null for a text box. */
  choices: string[] | null
}

/** The documented query parameters of a GET, as the filter form's fields; `page` is the links'. */
export function filterFields(doc: Json, operation: Json): FilterField[] {
  return ((operation?.parameters ?? []) as Json[])
    .filter((p) => p.in === 'query' && p.name !== 'page' && p.name !== 'format')
    .map((p) => {
      const schema = resolved(doc, p.schema)
      const choices =
        schema.type === 'boolean'
          ? ['true', 'false']
          : Array.isArray(schema.enum)
            ? schema.enum.map(String)
            : Array.isArray(schema.anyOf) && schema.anyOf.every((s: Json) => s.const !== undefined)
              ? schema.anyOf.map((s: Json) => String(s.const))
              : null
      return { name: String(p.name), description: String(p.description ?? ''), choices }
    })
}

/**
 * A request body's JSON fields (the schema's properties, read-only ones left out), in order, each
 * with whether it is required.
 */
function bodyFields(doc: Json, operation: Json): Array<[string, Json, boolean]> | null {
  const schema = resolved(doc, operation?.requestBody?.content?.['application/json']?.schema)
  if (schema.properties === undefined) return null
  const required = new Set<string>(schema.required ?? [])
  return Object.entries(schema.properties as Record<string, Json>)
    .map(([name, field]): [string, Json, boolean] => [name, resolved(doc, field), required.has(name)])
    .filter(([, field]) => field.readOnly !== true)
}

/** What the editor starts a field with: its default, else an empty value of its type. */
function blank(field: Json): unknown {
  if (field.default !== undefined) return field.default
  if (field.const !== undefined) return field.const
  if (Array.isArray(field.enum)) return field.enum[0]
  const types = Array.isArray(field.anyOf) ? field.anyOf.map((s: Json) => s.type) : [field.type]
  if (types.includes('null')) return null
  if (types.includes('string')) return ''
  if (types.includes('boolean')) return false
  if (types.includes('array')) return []
  if (types.includes('object')) return {}
  return null
}

/**
 * The JSON editor's starting text: for a POST, the request schema's required fields empty and the
 * fields with a default at it (an optional field left out keeps the server's own default, where
 * an empty value might not: an unchecked `is_active`); for a PUT or PATCH, the record's own values
 * of the fields the request takes.
 */
export function editorText(doc: Json, operation: Json, record: unknown): string {
  const fields = bodyFields(doc, operation)
  const values = record !== null && typeof record === 'object' && !Array.isArray(record) ? record : null
  if (fields === null) return values === null ? '{}' : JSON.stringify(values, null, 4)
  const body = Object.fromEntries(
    fields.flatMap(([name, field, required]): Array<[string, unknown]> => {
      if (values !== null) return name in values ? [[name, (values as Record<string, unknown>)[name]]] : []
      return required || field.default !== undefined ? [[name, blank(field)]] : []
    }),
  )
  return JSON.stringify(body, null, 4)
}
