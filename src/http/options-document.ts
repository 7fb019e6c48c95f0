import { FIELD_TYPES } from './options-fields.ts'

/*
 * How the document tells of OPTIONS (options-metadata.ts answers it): an operation on every /api/
 * path, so that a client generated from the document can call it and the tests check its answers,
 * all of them answering the one `OptionsMetadata` shape.
 */

type Json = any

const OPERATION_METHODS = ['get', 'post', 'put', 'patch', 'delete']

const ref = (kind: 'schemas' | 'responses', name: string) => ({ $ref: `#/components/${kind}/${name}` })

/** The rules are the conventions' OPTIONS section: written there once, not on every path. */
const RULES = "Django REST Framework's metadata for this path, as OPTIONS in the conventions above says."

/** Adds `options` to every /api/ path of a finished document, and the shapes it answers with. */
export function documentOptions(doc: Json): void {
  for (const [path, item] of Object.entries(doc.paths ?? {}) as [string, Json][]) {
    if (!path.startsWith('/api/') || item.options !== undefined) continue
    const operations: Json[] = OPERATION_METHODS.map((m) => item[m]).filter((op) => op !== undefined)
    const first = operations[0]
    if (first === undefined) continue
    const isPublic = operations.every((op) => Array.isArray(op.security) && op.security.length === 0)
    const pathParameters = operations
      .map((op) => (op.parameters ?? []).filter((p: Json) => p.in === 'path'))
      .reduce((most: Json[], params: Json[]) => (params.length > most.length ? params : most), [])
    const responses: Json = { 200: ref('responses', 'Options') }
    if (!isPublic) {
      responses[401] = ref('responses', 'Unauthenticated')
      responses[403] = ref('responses', 'PermissionDenied')
    }
    if (pathParameters.length > 0) responses[404] = ref('responses', 'NotFound')
    responses[414] = ref('responses', 'UriTooLong')
    responses[431] = ref('responses', 'HeaderFieldsTooLarge')
    responses[500] = ref('responses', 'ServerError')
    item.options = {
      tags: first.tags,
      summary: 'Describe this path',
      description: `${isPublic ? 'Anyone, without a token.' : 'Any staff user.'}\n\n${RULES}`,
      ...(typeof first.operationId === 'string'
        ? { operationId: first.operationId.replace(/^(get|post|put|patch|delete)/, 'options') }
        : {}),
      security: structuredClone(first.security ?? []),
      ...(pathParameters.length > 0 ? { parameters: structuredClone(pathParameters) } : {}),
      responses,
    }
  }
  const components = (doc.components ??= {})
  Object.assign((components.schemas ??= {}), OPTIONS_SCHEMAS)
  ;(components.responses ??= {}).Options = {
    description: "The path's metadata",
    headers: {
      Allow: {
        description: 'The methods the path offers, OPTIONS included (`GET, POST, HEAD, OPTIONS`)',
        required: true,
        schema: { type: 'string' },
      },
    },
    content: { 'application/json': { schema: ref('schemas', 'OptionsMetadata') } },
  }
}

const FIELD_DESCRIPTION = [
  "A field as DRF's SimpleMetadata describes it. `label` is the field's name in words; `help_text`",
  "its schema's description; `min_length` and `max_length` a text's length or a list's items;",
  "`min_value` and `max_value` a number's bounds; `child` a list's item, `children` an object's",
  "fields; `choices` a choice's values, each with its `display_name`, the name its schema gives it (a",
  "constant's `description`, an enum's `x-enumNames`), such as `ACT` `Active`.",
].join(' ')

const OPTIONS_SCHEMAS = {
  OptionsMetadata: {
    type: 'object',
    description: "What OPTIONS answers: DRF's SimpleMetadata",
    required: ['name', 'description', 'renders', 'parses'],
    properties: {
      name: {
        type: 'string',
        description:
          '`<Item> List` for a collection, `<Item> Instance` for a record, else the last fixed segment of the path in words',
      },
      description: { type: 'string', description: "The path's GET description (else its first write's)" },
      renders: { type: 'array', items: { type: 'string' }, description: 'The media types of its answers' },
      parses: { type: 'array', items: { type: 'string' }, description: 'The media types a body may come in' },
      actions: {
        type: 'object',
        description: 'Each write the user may make here (left out when there is none), with its fields',
        properties: { POST: ref('schemas', 'OptionsFields'), PUT: ref('schemas', 'OptionsFields') },
      },
    },
  },
  OptionsFields: {
    type: 'object',
    description: 'Fields by name',
    additionalProperties: ref('schemas', 'OptionsField'),
  },
  OptionsField: {
    type: 'object',
    description: FIELD_DESCRIPTION,
    required: ['type', 'required', 'read_only'],
    properties: {
      type: { type: 'string', enum: FIELD_TYPES },
      required: { type: 'boolean' },
      read_only: { type: 'boolean', description: 'In the answer only: a write ignores it' },
      label: { type: 'string' },
      help_text: { type: 'string' },
      min_length: { type: 'integer' },
      max_length: { type: 'integer' },
      min_value: { type: 'number' },
      max_value: { type: 'number' },
      child: ref('schemas', 'OptionsField'),
      children: ref('schemas', 'OptionsFields'),
      choices: {
        type: 'array',
        items: {
          type: 'object',
          required: ['value', 'display_name'],
          properties: { value: {}, display_name: { type: 'string' } },
        },
      },
    },
  },
}
