import fc from 'fast-check'

/*
 * Requests for every operation of the API's own OpenAPI document, as fast-check arbitraries: first
 * what the document describes (path parameters that exist, filters and bodies valid for their
 * schemas), then the same mutated the ways a careless or hostile client would send them (wrong
 * types, missing and extra fields, huge and deeply nested values, unicode a parser trips on, ids
 * that do not exist or are not ids, bodies that are not JSON or not in the declared media type).
 * The fuzz test sends them to the app in the test process and the fuzz benchmark to the built
 * executable; both judge the answers with test/helpers/response-check.ts.
 */

type Json = any

/** Who a request is sent as; the sender turns it into an Authorization header. */
export type Caller = 'fuzzer' | 'desk' | 'none' | 'unknown' | 'malformed'

export interface FuzzRequest {
  method: string
  /** The path with its query string, as sent. */
  path: string
  /** The documented operation it was made for, e.g. `PATCH /api/gyms/{id}/`. */
  operation: string
  caller: Caller
  headers: Record<string, string>
  body?: string | Uint8Array | FormData
}

/** Path parameter values that name records the test data holds, by parameter name. */
export type KnownValues = Record<string, readonly string[]>

export interface Operation {
  method: string
  template: string
  operation: Json
}

/** Every operation the document lists: path × method. */
export function operationsOf(doc: Json): Operation[] {
  return Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([template, ops]) =>
    Object.entries(ops).map(([method, operation]) => ({ method: method.toUpperCase(), template, operation })),
  )
}

/**
 * The operations that verify or hash a password with argon2, which is slow on purpose (a few hundred
 * milliseconds a call on a busy two-core machine): each gets a quarter of another operation's share,
 * so that a run's time goes to all of the API rather than mostly to them.
 */
export const PASSWORD_OPERATIONS = new Set([
  'POST /api/get-token/',
  'PUT /api/my-account/',
  'PATCH /api/my-account/',
  'PATCH /api/change-password/',
])

/** Any request of any operation, each operation as likely as another but the password ones and OPTIONS. */
export function anyRequest(doc: Json, known: KnownValues): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    ...operationsOf(doc).map((op) => ({
      // OPTIONS, on every path, answers alike everywhere: it gets a quarter share, as they do.
      weight: PASSWORD_OPERATIONS.has(`${op.method} ${op.template}`) || op.method === 'OPTIONS' ? 1 : 4,
      arbitrary: requestFor(doc, op, known),
    })),
  )
}

/** Requests for one operation. */
export function requestFor(doc: Json, op: Operation, known: KnownValues): fc.Arbitrary<FuzzRequest> {
  const schemas = new SchemaArbitraries(doc)
  const pathParams = (op.template.match(/\{(\w+)\}/g) ?? []).map((p) => p.slice(1, -1))
  const path = fc
    .tuple(...pathParams.map((name) => pathValue(known[name] ?? known.id ?? ['1'])))
    .map((values) => values.reduce((p, value, i) => p.replace(`{${pathParams[i]}}`, value), op.template))
  const queryParams: Json[] = (op.operation.parameters ?? []).filter((p: Json) => p.in === 'query')
  const body: fc.Arbitrary<BodyParts> = op.operation.requestBody
    ? requestBody(schemas, op.operation.requestBody)
    : fc.constant({})
  return fc
    .record({
      path,
      query: queryString(schemas, queryParams),
      caller: callerArbitrary,
      body,
      lowercaseMethod: fc.boolean(),
    })
    .map(({ path, query, caller, body, lowercaseMethod }) => ({
      // Elysia and the raw-path check both read the method: a client may send it in any case.
      method: lowercaseMethod && op.method !== 'PATCH' ? op.method.toLowerCase() : op.method,
      path: `${path}${query}`,
      operation: `${op.method} ${op.template}`,
      caller,
      ...body,
      headers: body.headers ?? {},
    }))
}

const callerArbitrary: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 40, arbitrary: fc.constant('fuzzer' as const) },
  { weight: 2, arbitrary: fc.constantFrom('desk' as const, 'none' as const, 'unknown' as const) },
  { weight: 1, arbitrary: fc.constant('malformed' as const) },
)

/** Not ids, or ids no record has: each must be answered 404 or 400, never followed anywhere. */
const BAD_IDS = [
  '0',
  '-1',
  '01',
  '1.5',
  '1e3',
  '0x10',
  '0x0A',
  '1e1',
  '+1',
  '1.0',
  '0b1',
  '0o1',
  '.1e1',
  '%201',
  '1%20',
  '9007199254740993',
  '99999999999999999999999',
  '9223372036854775808',
  'abc',
  '%2e%2e',
  '%2E',
  '..%2f',
  '%00',
  '%ff',
  '%',
  '%20',
  '%E2%80%AE1',
  '%D9%A1',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '[1]',
  "1'--",
]

function pathValue(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...known) },
    { weight: 2, arbitrary: fc.constantFrom(...BAD_IDS) },
    {
      weight: 1,
      arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map(encodeURIComponent),
    },
  )
}

/** Text a parser or a database may trip on: NUL, lone surrogates, right-to-left marks, emoji. */
const NASTY_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  'x\uDBFFy',
  '\u202Eevil',
  '\u200B',
  '\uFEFF',
  '👩‍👩‍👧‍👦',
  'Ω≈ç√',
  '\r\n',
  '%',
  '%00',
  "'; DROP TABLE customers; --",
  '<script>',
  '../..',
  'true',
  'null',
  '-0',
  '1e309',
]

const nastyString = fc.oneof(
  fc.constantFrom(...NASTY_TEXT),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
)

const HUGE_NUMBERS = [
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 63),
  2 ** 64,
  1e308,
  -1e308,
  5e-324,
  -0,
  0.1,
  1.5,
  -1,
  2147483648,
]

/** Any JSON value a field might wrongly get. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, '', [], {}, [null], { a: 1 }),
  fc.constantFrom(...HUGE_NUMBERS),
  nastyString,
  fc.jsonValue({ maxDepth: 3 }),
)

/** A value nested `depth` deep: arrays or objects, past what the body parser accepts or just under it. */
const deepValue = fc.tuple(fc.integer({ min: 50, max: 5000 }), fc.boolean()).map(([depth, asObject]) => {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = asObject ? { a: value } : [value]
  return value
})

const hugeString = fc
  .tuple(fc.constantFrom('x', 'é', '😀', '\u0000', ' '), fc.integer({ min: 300, max: 200_000 }))
  .map(([unit, length]) => unit.repeat(length))

/** The query string: documented parameters with valid values, mutated ones, unknown ones. */
function queryString(schemas: SchemaArbitraries, params: Json[]): fc.Arbitrary<string> {
  const entries = params.map((p) =>
    fc.option(
      fc.oneof(
        { weight: 4, arbitrary: schemas.of(p.schema ?? {}).map(queryText) },
        { weight: 2, arbitrary: fc.oneof(nastyString, fc.constantFrom(...HUGE_NUMBERS.map(String))) },
        { weight: 1, arbitrary: fc.constantFrom('%ff', '%', '%zz', '%00', '%C0%AE', 'a%2Cb', ',,,') },
      ),
      { freq: 2 },
    ),
  )
  const unknown = fc.option(fc.tuple(nastyString, nastyString), { freq: 8 })
  const overLong = fc.oneof(
    { weight: 60, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.constant(9000) },
  )
  return fc
    .tuple(fc.tuple(...entries), unknown, overLong, fc.boolean())
    .map(([values, extra, padding, repeat]) => {
      const pairs: string[] = []
      values.forEach((value, i) => {
        if (value === null) return
        const name = encodeURIComponent(params[i].name)
        // Values that are already escapes (%ff) go as they are: the point is the app's decoding.
        const text = /^[%,a-z]*$/i.test(value) && value.includes('%') ? value : encode(value)
        pairs.push(`${name}=${text}`)
        if (repeat) pairs.push(`${name}=${text}`)
      })
      if (extra !== null) pairs.push(`${encode(extra[0])}=${encode(extra[1])}`)
      if (padding > 0) pairs.push(`pad=${'p'.repeat(padding)}`)
      return pairs.length === 0 ? '' : `?${pairs.join('&')}`
    })
}

/** encodeURIComponent that does not throw on a lone surrogate (it is sent as U+FFFD then). */
const encode = (text: string) => encodeURIComponent(text.toWellFormed())

const queryText = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : Array.isArray(value)
      ? value.map(String).join(',')
      : JSON.stringify(value)

interface BodyParts {
  headers?: Record<string, string>
  body?: string | Uint8Array | FormData
}

/** The request body: in a documented media type, valid or mutated, or not a body the app can read. */
function requestBody(schemas: SchemaArbitraries, requestBody: Json): fc.Arbitrary<BodyParts> {
  const content = requestBody.content as Record<string, { schema: Json }>
  const jsonSchema = content['application/json']?.schema ?? {}
  const value = schemas.of(jsonSchema)
  const json = (v: unknown): BodyParts => ({
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(v),
  })
  const kinds: fc.WeightedArbitrary<BodyParts>[] = [
    { weight: 6, arbitrary: value.map(json) },
    { weight: 8, arbitrary: mutated(schemas, jsonSchema, value).map(json) },
    { weight: 1, arbitrary: unreadableBody },
  ]
  const form = content['application/x-www-form-urlencoded']?.schema
  if (form) kinds.push({ weight: 3, arbitrary: schemas.of(form).chain((v) => formEncoded(v)) })
  const multipart = content['multipart/form-data']?.schema
  if (multipart) kinds.push({ weight: 3, arbitrary: schemas.of(multipart).map(multipartBody) })
  return fc.oneof(...kinds)
}

/** The generated value with one or more of its fields broken. */
function mutated(schemas: SchemaArbitraries, schema: Json, value: fc.Arbitrary<unknown>) {
  const resolved = schemas.resolve(schema)
  const required: string[] = resolved.required ?? []
  const names = Object.keys(resolved.properties ?? {})
  return fc
    .tuple(value, fc.array(mutation(names, required), { minLength: 1, maxLength: 3 }))
    .map(([v, changes]) => changes.reduce((body, change) => change(body), v))
}

type Change = (body: unknown) => unknown
const asObject = (body: unknown): Record<string, unknown> =>
  body !== null && typeof body === 'object' && !Array.isArray(body) ? { ...body } : {}

function mutation(names: string[], required: string[]): fc.Arbitrary<Change> {
  const field = names.length > 0 ? fc.constantFrom(...names) : fc.string({ maxLength: 8 })
  const set = (arbitrary: fc.Arbitrary<unknown>) =>
    fc.tuple(field, arbitrary).map(([name, v]): Change => (body) => ({ ...asObject(body), [name]: v }))
  return fc.oneof(
    { weight: 4, arbitrary: set(wrongValue) },
    { weight: 1, arbitrary: set(hugeString) },
    { weight: 1, arbitrary: set(deepValue) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(...(required.length > 0 ? required : ['id']))
        .map((name): Change => (body) => {
          const copy = asObject(body)
          delete copy[name]
          return copy
        }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(nastyString, wrongValue)
        .map(([name, v]): Change => (body) => ({ ...asObject(body), [name]: v })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>(null, [], 'text', 0, true, [{}]).map(
        (whole): Change =>
          () =>
            whole,
      ),
    },
  )
}

/** Bodies the parser must refuse, or a media type the route does not take. */
const unreadableBody: fc.Arbitrary<BodyParts> = fc.oneof(
  fc.constantFrom<BodyParts>(
    { headers: { 'content-type': 'application/json' }, body: '' },
    { headers: { 'content-type': 'application/json' }, body: '{' },
    { headers: { 'content-type': 'application/json' }, body: '{"a":1,}' },
    { headers: { 'content-type': 'application/json' }, body: 'NaN' },
    { headers: { 'content-type': 'application/json' }, body: '"\\ud800"' },
    { headers: { 'content-type': 'application/json' }, body: '{"a":"\\u0000"}' },
    {
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    },
    { headers: { 'content-type': 'application/json; charset=latin1' }, body: '{}' },
    { headers: { 'content-type': 'text/plain' }, body: '{}' },
    { headers: { 'content-type': 'application/xml' }, body: '<a/>' },
    { headers: { 'content-type': 'multipart/form-data' }, body: 'no boundary' },
    { headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x\r\nbroken' },
    { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=%ff&&=' },
    { headers: { 'content-type': '' }, body: '{}' },
    { headers: {}, body: '{}' },
  ),
  fc.tuple(fc.integer({ min: 60, max: 200_000 }), fc.constantFrom('[', '{"a":')).map(([depth, open]) => ({
    headers: { 'content-type': 'application/json' },
    body: open.repeat(depth) + '1' + (open === '[' ? ']' : '}').repeat(depth),
  })),
  fc.constant<BodyParts>({
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
  }),
)

function formEncoded(value: unknown): fc.Arbitrary<BodyParts> {
  const form = new URLSearchParams()
  for (const [k, v] of Object.entries(asObject(value))) form.append(k, queryText(v))
  return fc.constant({
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  })
}

function multipartBody(value: unknown): BodyParts {
  const form = new FormData()
  for (const [k, v] of Object.entries(asObject(value))) {
    if (v instanceof Uint8Array) form.append(k, new Blob([v], { type: 'application/pdf' }), 'waiver.pdf')
    else form.append(k, queryText(v))
  }
  // fetch sets the content type with its boundary from the FormData.
  return { body: form }
}

/**
 * Values for the subset of JSON Schema the document uses: `$ref` into `components.schemas`,
 * `anyOf`/`oneOf`/`const`/`enum`, objects with `properties`/`required`/`additionalProperties` or
 * `patternProperties`, strings with `format`/`pattern`/length bounds, integers and numbers with
 * bounds, booleans, arrays, null. Read-only fields are left out, as a client would.
 */
export class SchemaArbitraries {
  private readonly cache = new Map<Json, fc.Arbitrary<unknown>>()

  constructor(private readonly doc: Json) {}

  resolve(schema: Json): Json {
    if (schema?.$ref === undefined) return schema
    return this.resolve(this.doc.components.schemas[String(schema.$ref).replace('#/components/schemas/', '')])
  }

  of(schema: Json): fc.Arbitrary<unknown> {
    let arbitrary = this.cache.get(schema)
    if (arbitrary === undefined) {
      arbitrary = this.build(this.resolve(schema))
      this.cache.set(schema, arbitrary)
    }
    return arbitrary
  }

  private build(s: Json): fc.Arbitrary<unknown> {
    if (s === undefined || s === true) return fc.jsonValue({ maxDepth: 2 })
    if ('const' in s) return fc.constant(s.const)
    if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum)
    const alternatives = s.anyOf ?? s.oneOf
    if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((a: Json) => this.of(a)))
    if (Array.isArray(s.type)) return fc.oneof(...s.type.map((type: string) => this.build({ ...s, type })))
    switch (s.type) {
      case 'null':
        return fc.constant(null)
      case 'boolean':
        return fc.boolean()
      case 'integer':
        return fc.integer({ min: lowerBound(s, -1000), max: upperBound(s, 100_000) })
      case 'number':
        return fc.double({
          min: lowerBound(s, -1e6),
          max: upperBound(s, 1e6),
          noNaN: true,
          noDefaultInfinity: true,
        })
      case 'string':
        return this.string(s)
      case 'array':
        return fc.array(this.of(s.items ?? {}), {
          minLength: s.minItems ?? 0,
          maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3)),
        })
      case 'object':
        return this.object(s)
      default:
        return fc.jsonValue({ maxDepth: 2 })
    }
  }

  private string(s: Json): fc.Arbitrary<unknown> {
    const minLength = s.minLength ?? 0
    const maxLength = Math.max(minLength, Math.min(s.maxLength ?? 40, 200))
    switch (s.format) {
      case 'binary':
        return fc
          .uint8Array({ maxLength: 64 })
          .map((bytes) => new Uint8Array([0x25, 0x50, 0x44, 0x46, ...bytes]))
      case 'date':
        return fc
          .date({ min: new Date('1900-01-01'), max: new Date('2100-12-31'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10))
      case 'date-time':
        return fc
          .date({ min: new Date('1970-01-01'), max: new Date('2100-12-31'), noInvalidDate: true })
          .map((d) => d.toISOString())
      case 'email':
        return fc.emailAddress()
      case 'email-or-blank':
        return fc.oneof(fc.constant(''), fc.emailAddress())
      case 'uri':
      case 'http-url':
        return fc.webUrl()
      case 'time-zone':
        return fc.constantFrom('America/Denver', 'Europe/Berlin', 'UTC', 'Asia/Kolkata', 'Not/AZone')
    }
    if (typeof s.pattern === 'string') {
      return fc
        .stringMatching(new RegExp(s.pattern))
        .filter(
          (text) => text.length >= minLength && (s.maxLength === undefined || text.length <= s.maxLength),
        )
    }
    return fc.string({ unit: 'grapheme', minLength, maxLength })
  }

  private object(s: Json): fc.Arbitrary<unknown> {
    const properties = Object.entries((s.properties ?? {}) as Record<string, Json>).filter(
      ([, p]) => this.resolve(p)?.readOnly !== true && p?.readOnly !== true,
    )
    const required = new Set<string>(s.required ?? [])
    const record = fc.record(Object.fromEntries(properties.map(([name, p]) => [name, this.of(p)])), {
      requiredKeys: properties.map(([name]) => name).filter((name) => required.has(name)),
    })
    const open = s.additionalProperties ?? Object.values(s.patternProperties ?? {})[0]
    if (open === undefined || open === false || properties.length > 0) return record
    return fc.dictionary(fc.string({ maxLength: 10 }), this.of(open === true ? {} : open), { maxKeys: 4 })
  }
}

const lowerBound = (s: Json, fallback: number) =>
  s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : fallback)
const upperBound = (s: Json, fallback: number) =>
  s.maximum ??
  (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : Math.max(fallback, lowerBound(s, 0)))

// ---------------------------------------------------------------------------------------------------
// Families a property holds for exactly, beyond "below 500"

/** The operation's path parameters that name a record: the document types them as integers. */
const recordParamsOf = (op: Operation): string[] =>
  (op.operation.parameters ?? [])
    .filter((p: Json) => p.in === 'path' && p.schema?.type === 'integer')
    .map((p: Json) => p.name as string)

/**
 * Spellings of an id that are not its digits but that JavaScript's Number() reads as the id (hex,
 * binary, octal, exponents, a sign, a fraction of zero, spaces and tabs around it, digits of other
 * scripts), and digits past the largest safe integer, which Number() rounds onto another value.
 */
export function otherSpellingOf(id: string): fc.Arbitrary<string> {
  const n = Number(id)
  const otherDigits = (zero: number) =>
    encodeURIComponent(id.replace(/[0-9]/g, (d) => String.fromCharCode(zero + Number(d))))
  return fc.oneof(
    fc.constantFrom(
      `0x${n.toString(16)}`,
      `0X${n.toString(16).toUpperCase()}`,
      `0x${n.toString(16).padStart(4, '0')}`,
      `0b${n.toString(2)}`,
      `0o${n.toString(8)}`,
      `${n}e0`,
      `${n * 10}e-1`,
      `.${n}e${String(n).length}`,
      `+${n}`,
      `${n}.0`,
      `${n}.`,
      `%20${n}`,
      `${n}%20`,
      `%09${n}`,
      `${n}%0A`,
      `%0C${n}`,
      `${n}%C2%A0`,
      otherDigits(0xff10),
      otherDigits(0x0660),
    ),
    fc.bigInt({ min: BigInt(Number.MAX_SAFE_INTEGER) + 1n, max: 10n ** 40n }).map(String),
  )
}

/**
 * Requests, as the fuzzer (who may do anything), for every operation whose path names a record,
 * with one such id spelled some other way than its digits (`otherSpellingOf`) and the rest naming
 * records that exist, with a body the operation documents or none. Each must be 404 `Not found.`
 * and change nothing: only `\d+` names a record.
 */
export function otherIdSpellingRequest(doc: Json, known: KnownValues): fc.Arbitrary<FuzzRequest> {
  const schemas = new SchemaArbitraries(doc)
  const operations = operationsOf(doc).filter((op) => recordParamsOf(op).length > 0)
  return fc.oneof(
    ...operations.map((op) => {
      const pathParams = (op.template.match(/\{(\w+)\}/g) ?? []).map((p) => p.slice(1, -1))
      const jsonBody = op.operation.requestBody?.content?.['application/json']?.schema
      return fc
        .record({
          respelled: fc.constantFrom(...recordParamsOf(op)),
          values: fc.tuple(
            ...pathParams.map((name) => fc.constantFrom(...(known[name] ?? known.id ?? ['1']))),
          ),
          body: jsonBody ? fc.option(schemas.of(jsonBody), { nil: undefined }) : fc.constant(undefined),
        })
        .chain(({ respelled, values, body }) => {
          const at = pathParams.indexOf(respelled)
          return otherSpellingOf(values[at]!).map((spelling): FuzzRequest => {
            const path = pathParams.reduce(
              (p, name, i) => p.replace(`{${name}}`, i === at ? spelling : values[i]!),
              op.template,
            )
            return {
              method: op.method,
              path,
              operation: `${op.method} ${op.template}`,
              caller: 'fuzzer',
              headers: body === undefined ? {} : { 'content-type': 'application/json' },
              ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            }
          })
        })
    }),
  )
}

/**
 * Text with half of a UTF-16 surrogate pair standing alone: a high half before other text, a low
 * half alone, a high half at the end, the halves in the wrong order. JSON.stringify writes each as
 * its `\uXXXX` escape, which is how a client's JSON carries it.
 */
const loneSurrogateText = fc.oneof(
  fc.constantFrom('\ud800x', '\udfff', 'Lynn\udbff', 'x\ud83d', '\ude00\ud83d', '\udc00'),
  fc
    .tuple(fc.string({ maxLength: 8 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ maxLength: 8 }))
    .map(
      ([before, half, after]) =>
        `${before.toWellFormed()}${String.fromCharCode(half)}${after.toWellFormed()}`,
    )
    .filter((text) => !text.isWellFormed()),
)

/** The text fields a body schema declares and a client writes: candidates for a lone surrogate. */
function textFieldsOf(schemas: SchemaArbitraries, schema: Json): string[] {
  const resolved = schemas.resolve(schema)
  const isText = (s: Json): boolean => {
    const r = schemas.resolve(s)
    if (r?.readOnly === true || s?.readOnly === true) return false
    if (r?.type === 'string' && r.format !== 'binary' && !Array.isArray(r.enum) && !('const' in r))
      return true
    return Array.isArray(r?.anyOf) && r.anyOf.some(isText)
  }
  return Object.entries((resolved?.properties ?? {}) as Record<string, Json>)
    .filter(([, property]) => isText(property))
    .map(([name]) => name)
}

/**
 * Requests, as the fuzzer, for every operation that takes a JSON body with text fields: a body the
 * document describes, with one of its text fields holding a lone surrogate (`loneSurrogateText`).
 * None may succeed: stored, the half would become U+FFFD.
 */
export function loneSurrogateRequest(doc: Json, known: KnownValues): fc.Arbitrary<FuzzRequest> {
  const schemas = new SchemaArbitraries(doc)
  const operations = operationsOf(doc).flatMap((op) => {
    const schema = op.operation.requestBody?.content?.['application/json']?.schema
    const fields = schema ? textFieldsOf(schemas, schema) : []
    return fields.length > 0 ? [{ op, schema, fields }] : []
  })
  return fc.oneof(
    ...operations.map(({ op, schema, fields }) => {
      const pathParams = (op.template.match(/\{(\w+)\}/g) ?? []).map((p) => p.slice(1, -1))
      return fc
        .record({
          values: fc.tuple(
            ...pathParams.map((name) => fc.constantFrom(...(known[name] ?? known.id ?? ['1']))),
          ),
          body: schemas.of(schema),
          field: fc.constantFrom(...fields),
          text: loneSurrogateText,
        })
        .map(({ values, body, field, text }): FuzzRequest => ({
          method: op.method,
          path: pathParams.reduce((p, name, i) => p.replace(`{${name}}`, values[i]!), op.template),
          operation: `${op.method} ${op.template}`,
          caller: 'fuzzer',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...asObject(body), [field]: text }),
        }))
    }),
  )
}

/** One line that reproduces the request with curl-like clarity: method, path, caller, headers, body. */
export function describeRequest(request: FuzzRequest): string {
  const body =
    request.body === undefined
      ? ''
      : typeof request.body === 'string'
        ? request.body.length > 300
          ? `${JSON.stringify(request.body.slice(0, 300))}... (${request.body.length} chars)`
          : JSON.stringify(request.body)
        : request.body instanceof FormData
          ? `multipart ${JSON.stringify([...request.body.keys()])}`
          : `bytes [${[...request.body.slice(0, 40)].join(',')}]`
  return `${request.method} ${request.path.length > 300 ? `${request.path.slice(0, 300)}...` : request.path} as ${request.caller} ${JSON.stringify(request.headers)} ${body}`
}

/** The tokens a request is sent with, by caller; `fuzzer`'s is replaced when a request revokes it. */
export interface Tokens {
  fuzzer: string
  desk: string
}

const AUTHORIZATION: Record<Exclude<Caller, 'fuzzer' | 'desk'>, string | undefined> = {
  none: undefined,
  unknown: `Token ${'0'.repeat(40)}`,
  malformed: 'Token a b',
}

/** The request as fetch or `app.handle` take it. */
export function toRequest(origin: string, request: FuzzRequest, tokens: Tokens): Request {
  const headers = new Headers(request.headers)
  const authorization =
    request.caller === 'fuzzer' || request.caller === 'desk'
      ? `Token ${tokens[request.caller]}`
      : AUTHORIZATION[request.caller]
  if (authorization !== undefined) headers.set('authorization', authorization)
  return new Request(`${origin}${request.path}`, { method: request.method, headers, body: request.body })
}
