import { FormatRegistry, Kind, type Static, type TObject, type TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { Value } from '@sinclair/typebox/value'
import 'elysia' // registers the standard string formats (email, uri, date-time) in FormatRegistry
// Registers its own checks of those formats (a validator built on each call), `date` among them: it
// is loaded first, so the `date` set below is the one that stands.
import '@elysiajs/openapi'
import { isKnownTimeZone } from '../lib/time-zones.ts'
import { isIsoDate } from '../lib/local-time.ts'
import { UnreadableBody } from './body.ts'
import { FieldErrorCollector, messages, type FieldErrors } from './errors.ts'
import { jsonTypeName } from '../lib/json.ts'

/**
 * Turns Elysia's TypeBox validation failures into DRF field errors with DRF's wording. Each error
 * carries the failing schema and value; the message is chosen from those, so a schema built with the
 * helpers in fields.ts always yields the message a DRF serializer would have given.
 */

interface TypeBoxError {
  path: string
  value: unknown
  schema: Record<string, any>
}

FormatRegistry.Set('date', isIsoDate)
FormatRegistry.Set('time-zone', isKnownTimeZone)

/**
 * Whether `value` is a URI as the documents' `format: 'uri'` means it (RFC 3986, as Elysia registers
 * the format): for a field whose own schema cannot say so, such as one that also takes "".
 */
export const isUri = (value: string): boolean => FormatRegistry.Get('uri')!(value)

/** For `anyOf` schemas: the branch that describes the field (not null, not Elysia's numeric-string twin). */
function describingBranch(schema: Record<string, any>, value: unknown): Record<string, any> {
  if (!Array.isArray(schema.anyOf)) return schema
  const flatten = (s: Record<string, any>): Record<string, any>[] =>
    Array.isArray(s.anyOf)
      ? s.anyOf.flatMap((b: Record<string, any>) => flatten({ ...pickBounds(s), ...b }))
      : [s]
  const branches = flatten(schema).filter((b) => b.type !== 'null')
  const typed = branches.find((b) => b.type === 'integer' || b.type === 'number')
  if (typed) return { ...pickBounds(schema), ...typed }
  if (branches.every((b) => 'const' in b)) return { choice: true }
  return branches.find((b) => typeof value !== 'string' || b.type === 'string') ?? branches[0] ?? schema
}

const pickBounds = (s: Record<string, any>) =>
  Object.fromEntries(
    ['minimum', 'maximum', 'exclusiveMaximum', 'exclusiveMinimum']
      .filter((k) => k in s)
      .map((k) => [k, s[k]]),
  )

function numericMessage(schema: Record<string, any>, value: unknown, integer: boolean): string {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)))
    return integer ? messages.integer : messages.number
  if (schema.maximum !== undefined && n > schema.maximum) return messages.max(schema.maximum)
  if (schema.exclusiveMaximum !== undefined && n >= schema.exclusiveMaximum)
    return messages.max(schema.exclusiveMaximum - (integer ? 1 : 0))
  if (schema.minimum !== undefined && n < schema.minimum) return messages.min(schema.minimum)
  if (schema.exclusiveMinimum !== undefined && n <= schema.exclusiveMinimum)
    return integer
      ? messages.min(schema.exclusiveMinimum + 1)
      : `Ensure this value is greater than ${schema.exclusiveMinimum}.`
  return integer ? messages.integer : messages.number
}

function stringMessage(schema: Record<string, any>, value: unknown): string {
  if (typeof value !== 'string') return messages.string
  if (value === '' && (schema.minLength ?? 0) > 0) return messages.blank
  if (schema.maxLength !== undefined && value.length > schema.maxLength)
    return messages.maxLength(schema.maxLength)
  // A field's own message (a pattern's, a password's length rule) beats the generic wording.
  if (schema['x-drf-message']) return schema['x-drf-message']
  if (schema.minLength !== undefined && value.length < schema.minLength)
    return messages.minLength(schema.minLength)
  if (schema.format === 'email') return messages.email
  if (schema.format === 'date') return messages.date
  if (schema.format === 'date-time') return messages.datetime
  if (schema.format === 'uri') return messages.url
  return 'This value does not match the required pattern.'
}

/** The DRF message for one failing value against its schema. */
export function drfMessage(schema: Record<string, any>, value: unknown): string {
  if (value === undefined) return messages.required
  if (value === null) return messages.null
  const s = describingBranch(schema, value)
  if (s.choice || 'const' in s) return messages.choice(value)
  switch (s.type) {
    case 'integer':
      return numericMessage(s, value, true)
    case 'number':
      return numericMessage(s, value, false)
    case 'boolean':
      return messages.boolean
    case 'string':
      return stringMessage(s, value)
    case 'object':
      return messages.invalidBody(jsonTypeName(value))
    case 'array':
      return `Expected a list of items but got type "${jsonTypeName(value)}".`
    default:
      return 'Invalid value.'
  }
}

/**
 * All failing fields at once, the first message per field (as DRF reports). Nested paths report on
 * their top-level field; a failure of the whole body goes under non_field_errors.
 */
export function toFieldErrors(errors: TypeBoxError[]): FieldErrors {
  const fields: FieldErrors = {}
  for (const error of errors) {
    const field = error.path.split('/')[1] || 'non_field_errors'
    if (fields[field]) continue
    fields[field] = [drfMessage(error.schema, error.value)]
  }
  return fields
}

/**
 * A request body after its field schemas ran: the fields that passed, and the errors of those that
 * did not. Rules that need the database add their own errors to the same collector, and `valid()`
 * throws them all in one 400, so a client sees every failing field at once, as with DRF.
 */
export class CheckedBody<T> {
  constructor(
    readonly fields: Partial<T>,
    readonly errors: FieldErrorCollector,
  ) {}

  /** The whole body, once every check has passed; otherwise the 400 with every collected error. */
  valid(): T {
    this.errors.throwIfAny()
    return this.fields as T
  }
}

/** Text fields trim surrounding white space, as DRF's CharField does; secrets (passwords) do not. */
const isTrimmedText = (schema: TSchema): boolean =>
  !schema.writeOnly &&
  (schema.type === 'string' ||
    (Array.isArray(schema.anyOf) && schema.anyOf.some((branch: TSchema) => branch.type === 'string')))

/** An integer field, nullable or not. */
const isIntegerSchema = (schema: TSchema): boolean =>
  schema.type === 'integer' ||
  (Array.isArray(schema.anyOf) && schema.anyOf.some((branch: TSchema) => branch.type === 'integer'))

/** What DRF's IntegerField takes: a whole number, or a string of one ("5"); not 1.5, "1.5" or true. */
const isIntegerValue = (value: unknown): boolean =>
  typeof value === 'number'
    ? Number.isInteger(value)
    : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)

/** A boolean field, nullable or not. */
const isBooleanSchema = (schema: TSchema): boolean =>
  schema.type === 'boolean' ||
  (Array.isArray(schema.anyOf) && schema.anyOf.some((branch: TSchema) => branch.type === 'boolean'))

/** A text field of any kind (secrets too), nullable or not. */
const isTextSchema = (schema: TSchema): boolean =>
  schema.type === 'string' ||
  (Array.isArray(schema.anyOf) && schema.anyOf.some((branch: TSchema) => branch.type === 'string'))

/**
 * The first half of a UTF-16 surrogate pair that stands alone in `value` (a string, or any string or
 * key inside a list or object). A JSON escape can spell one (`"\ud800"`) but no UTF-8 text can hold
 * it: stored, it would read back as U+FFFD.
 */
function firstLoneSurrogate(value: unknown): number | undefined {
  if (typeof value === 'string') {
    if (value.isWellFormed()) return undefined
    for (let i = 0; i < value.length; i++) {
      const unit = value.charCodeAt(i)
      if (unit < 0xd800 || unit > 0xdfff) continue
      const next = value.charCodeAt(i + 1)
      if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++
      else return unit
    }
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const found = (typeof key === 'string' ? firstLoneSurrogate(key) : undefined) ?? firstLoneSurrogate(item)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * A list whose items the schema leaves undescribed (a sale's lines): its reader checks each item as
 * a body of its own, where a failing field is reported at the item's index.
 */
const isListCheckedItemByItem = (schema: TSchema): boolean =>
  schema.type === 'array' && (schema.items as TSchema | undefined)?.[Kind] === 'Unknown'

/**
 * DRF's CharField validators on the characters a field holds: no NUL in a text field, and no lone
 * surrogate in a text field or anywhere inside a list or object field (an object's text values are
 * stored as they are).
 */
function refusedCharacters(value: unknown, schema: TSchema): string[] {
  const refusals: string[] = []
  if (typeof value === 'string' && !isTextSchema(schema)) return refusals
  if (typeof value === 'string' && value.includes('\0')) refusals.push(messages.nullCharacters)
  const lone = isListCheckedItemByItem(schema) ? undefined : firstLoneSurrogate(value)
  if (lone !== undefined) refusals.push(messages.surrogateCharacters(lone))
  return refusals
}

/**
 * The values DRF's BooleanField reads as true and as false: exactly these spellings (`"off"` and
 * `"No"` are false; `"oFF"` is refused), and the numbers 1 and 0.
 */
const TRUE_VALUES = new Set<unknown>([
  't',
  'T',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'true',
  'True',
  'TRUE',
  'on',
  'On',
  'ON',
  '1',
  1,
  true,
])
const FALSE_VALUES = new Set<unknown>([
  'f',
  'F',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'false',
  'False',
  'FALSE',
  'off',
  'Off',
  'OFF',
  '0',
  0,
  false,
])

/** Each body schema's check, compiled on first use (TypeBox builds a function for it). */
const compiledChecks = new WeakMap<TObject, (value: unknown) => boolean>()

/**
 * Whether `value` meets `schema`: by its compiled check, which costs a few microseconds where walking
 * the schema for its errors costs tens (a spreadsheet import checks tens of thousands of rows).
 * A schema TypeBox cannot compile is walked as before.
 */
function passes(schema: TObject, value: unknown): boolean {
  let check = compiledChecks.get(schema)
  if (check === undefined) {
    try {
      const compiled = TypeCompiler.Compile(schema)
      check = (v) => compiled.Check(v)
    } catch {
      check = (v) => Value.Check(schema, v)
    }
    compiledChecks.set(schema, check)
  }
  return check(value)
}

/**
 * Validates a parsed JSON object against a TypeBox object schema the way a DRF serializer would:
 * values are coerced as DRF coerces them ("5" for an integer, "true" for a boolean), fields the
 * schema does not name are dropped (read-only fields are ignored), and each failing field gets
 * DRF's message.
 */
export function checkBody<S extends TObject>(schema: S, raw: unknown): CheckedBody<Static<S>> {
  if (raw instanceof UnreadableBody) throw raw.error
  const input = { ...((raw ?? {}) as Record<string, unknown>) }
  // TypeBox's conversion would wrap a lone value into a one-item list and turn 1.5 or true into 1;
  // DRF refuses all three, so those values are judged before converting.
  const preChecked: FieldErrors = {}
  for (const [key, property] of Object.entries(schema.properties)) {
    const value = input[key]
    if (value === undefined || value === null) continue
    if (typeof value === 'string' && isTrimmedText(property as TSchema)) input[key] = value.trim()
    // SQLite would store a NUL and lookups would stop at it; a lone surrogate would become U+FFFD.
    const refusals = refusedCharacters(value, property as TSchema)
    if (refusals.length > 0) {
      preChecked[key] = refusals
      delete input[key]
    } else if (isBooleanSchema(property as TSchema)) {
      if (TRUE_VALUES.has(value)) input[key] = true
      else if (FALSE_VALUES.has(value)) input[key] = false
      else {
        preChecked[key] = [messages.boolean]
        delete input[key]
      }
    } else if ((property as TSchema).type === 'array' && !Array.isArray(value)) {
      preChecked[key] = [`Expected a list of items but got type "${jsonTypeName(value)}".`]
      delete input[key]
    } else if (isIntegerSchema(property as TSchema) && !isIntegerValue(value)) {
      preChecked[key] = [messages.integer]
      delete input[key]
    }
  }
  const converted = Value.Convert(schema, Value.Clone(input)) as Record<string, unknown>
  const errors = {
    ...(passes(schema, converted)
      ? {}
      : toFieldErrors([...Value.Errors(schema, converted)] as unknown as TypeBoxError[])),
    ...preChecked,
  }
  const fields: Record<string, unknown> = {}
  for (const key of Object.keys(schema.properties)) {
    if (key in converted && converted[key] !== undefined && !(key in errors)) fields[key] = converted[key]
  }
  return new CheckedBody(
    fields as Partial<Static<S>>,
    new FieldErrorCollector(errors, Object.keys(schema.properties)),
  )
}
