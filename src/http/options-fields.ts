/*
 * A write's fields as Django REST Framework's metadata describes them, read from the OpenAPI
 * document's schemas: each field's type, whether it is required or read-only, its label, its bounds
 * and its named choices (options-metadata.ts answers OPTIONS with them).
 */

// The served document is JSON whose shape the schemas' authors chose: read as such.
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

/**
 * A write's fields: the record's as its answer gives them, each writable one as the request schema
 * describes it and the others read-only, then the fields only the request has (a password).
 */
export function fieldsOf(doc: Json, operation: Json): Fields {
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
export function jsonOf(doc: Json, response: Json): Json {
  return resolveResponse(doc, response)?.content?.['application/json']?.schema
}

export const resolveResponse = (doc: Json, response: Json): Json =>
  typeof response?.$ref === 'string'
    ? doc.components?.responses?.[decodeURIComponent(response.$ref.split('/').pop())]
    : response

/** A schema, through `components.schemas`. */
export function resolve(doc: Json, schema: Json): Json {
  let s = schema
  for (let i = 0; i < MAX_DEPTH && typeof s?.$ref === 'string'; i++)
    s = doc.components?.schemas?.[schemaName(s)!]
  return s
}

export const schemaName = (schema: Json): string | undefined =>
  typeof schema?.$ref === 'string' && schema.$ref.startsWith('#/components/schemas/')
    ? decodeURIComponent(schema.$ref.slice('#/components/schemas/'.length))
    : undefined

/** 'CustomerCredit' -> 'Customer Credit'. */
export const words = (pascal: string) => pascal.replace(/([a-z0-9])([A-Z])/g, '$1 $2')

/** 'first name' -> 'First name', as DRF labels a field after its name. */
export const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
