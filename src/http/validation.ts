import { FormatRegistry } from '@sinclair/typebox'
import { isKnownTimeZone } from '../lib/time-zones.ts'
import { messages, ValidationError, type FieldErrors } from './errors.ts'

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

/** Strict YYYY-MM-DD that is also a real calendar day (TypeBox's own check takes 2024-02-30). */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return false
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!))
  return d.getUTCFullYear() === +m[1]! && d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]!
}
FormatRegistry.Set('date', isIsoDate)
FormatRegistry.Set('time-zone', isKnownTimeZone)

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
  if (schema.minLength !== undefined && value.length < schema.minLength)
    return messages.minLength(schema.minLength)
  if (schema['x-drf-message']) return schema['x-drf-message']
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

export function jsonTypeName(value: unknown): string {
  if (Array.isArray(value)) return 'list'
  if (typeof value === 'string') return 'str'
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float'
  if (typeof value === 'boolean') return 'bool'
  return typeof value
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

export const validationErrorFrom = (errors: TypeBoxError[]) => new ValidationError(toFieldErrors(errors))
