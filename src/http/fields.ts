import { Type as t, type TSchema } from '@sinclair/typebox'
import { MIN_PASSWORD_LENGTH } from '../core/auth/passwords.ts'
import { labelsOf } from '../lib/choices.ts'

/**
 * Each of `values` as a constant; when the values are a choice set (lib/choices.ts), each constant's
 * `description` is its name (a `title` would name a component schema: http/openapi-document.ts).
 * A single value is left bare: TypeBox's union of one is that constant, and its name would replace
 * the field's own description.
 */
export const choiceLiterals = <const V extends string>(values: readonly V[]) => {
  const labels = values.length === 1 ? undefined : labelsOf(values)
  return values.map((v) =>
    labels?.[v] === undefined ? t.Literal(v) : t.Literal(v, { description: labels[v] }),
  )
}

/** An `enum` schema's names of its values, in order (`x-enumNames`), when they are a choice set. */
export const enumNames = (values: readonly string[]): { 'x-enumNames'?: string[] } => {
  const labels = labelsOf(values)
  return labels === undefined ? {} : { 'x-enumNames': values.map((v) => labels[v] ?? v) }
}

/** Django's MinimumLengthValidator wording. */
const passwordTooShort = `This password is too short. It must contain at least ${MIN_PASSWORD_LENGTH} characters.`

/** How a colour that is not `#RRGGBB` is refused. */
export const colorHexMessage = 'Enter a valid color: "#" and 6 hexadecimal digits, such as #1E90FF.'

/** The stored spelling of a `field.colorHex()`: "#1e90ff" is "#1E90FF"; null and "not sent" pass. */
export const upperHex = <V extends string | null | undefined>(color: V): V =>
  (typeof color === 'string' ? color.toUpperCase() : color) as V

/**
 * Schema builders for request fields. Each produces a TypeBox schema whose failures validation.ts
 * words as DRF does, and which the OpenAPI page documents as it is.
 */
export const field = {
  /** Text; `blank: false` (the default) rejects "" with "This field may not be blank." */
  text: (opts: { blank?: boolean; maxLength?: number; description?: string } = {}) =>
    t.String({ minLength: opts.blank ? 0 : 1, maxLength: opts.maxLength, description: opts.description }),
  email: (opts: { description?: string } = {}) =>
    t.String({ format: 'email', description: opts.description }),
  /**
   * One of fixed codes; the error names the refused value. A choice set (lib/choices.ts) gives each
   * code its name, which OPTIONS gives as its `display_name`.
   */
  choice: <const V extends string>(values: readonly V[], opts: { description?: string } = {}) =>
    t.Union(choiceLiterals(values), { description: opts.description ?? `One of ${values.join(', ')}` }),
  integer: (opts: { min?: number; max?: number; below?: number; description?: string } = {}) =>
    t.Integer({
      minimum: opts.min,
      maximum: opts.max,
      exclusiveMaximum: opts.below,
      description: opts.description,
    }),
  number: (opts: { exclusiveMin?: number; description?: string } = {}) =>
    t.Number({ exclusiveMinimum: opts.exclusiveMin, description: opts.description }),
  bool: (opts: { description?: string } = {}) => t.Boolean({ description: opts.description }),
  date: (opts: { description?: string } = {}) => t.String({ format: 'date', description: opts.description }),
  /** An IANA zone name the runtime knows ("America/Denver"); stored in its canonical spelling. */
  timeZone: (opts: { description?: string } = {}) =>
    t.String({
      format: 'time-zone',
      'x-drf-message': 'A valid timezone is required.',
      description: [
        opts.description ?? 'IANA time zone (`America/Denver`).',
        'Stored in its canonical spelling (`america/denver` becomes `America/Denver`); a name the',
        'runtime does not know, or a bare offset such as `UTC+2`, is `A valid timezone is required.`',
      ].join(' '),
    }),
  /** A text with a pattern and the message to give when it does not match. */
  pattern: (pattern: string, message: string, opts: { description?: string } = {}) =>
    t.String({ pattern, 'x-drf-message': message, description: opts.description }),
  /** A colour as `#RRGGBB`, in either case; stored as upperHex spells it. */
  colorHex: (opts: { description?: string } = {}) =>
    t.String({
      pattern: '^#[0-9A-Fa-f]{6}$',
      'x-drf-message': colorHexMessage,
      description: opts.description,
    }),
  /** Write-only secrets: documented, never echoed. */
  secret: (opts: { description?: string } = {}) =>
    t.String({ minLength: 1, writeOnly: true, description: opts.description }),
  /** A new password: write-only, at least MIN_PASSWORD_LENGTH characters, in Django's words. */
  newPassword: (opts: { description?: string } = {}) =>
    t.String({
      minLength: MIN_PASSWORD_LENGTH,
      writeOnly: true,
      'x-drf-message': passwordTooShort,
      description: opts.description ?? `Write-only; at least ${MIN_PASSWORD_LENGTH} characters`,
    }),
  nullable: <S extends TSchema>(schema: S) => t.Union([schema, t.Null()]),
  optional: <S extends TSchema>(schema: S) => t.Optional(schema),
}

/** Response-only field helpers for the OpenAPI page (never validated at run time). */
export const out = {
  id: () => t.Integer({ readOnly: true }),
  url: () => t.String({ format: 'uri', readOnly: true }),
  datetime: () => t.String({ format: 'date-time', readOnly: true }),
  date: () => t.String({ format: 'date', readOnly: true }),
  /** An amount of money as a decimal string with 2 places ("12.50", "-3.00"). */
  money: (description = 'A decimal with 2 places') =>
    t.String({ pattern: '^-?\\d+\\.\\d{2}$', readOnly: true, description }),
}
