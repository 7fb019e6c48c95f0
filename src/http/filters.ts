import { t, type TSchema } from 'elysia'
import { messages, ValidationError, type FieldErrors } from './errors.ts'
import { pageParams } from './pagination.ts'
import { isIsoDate } from './validation.ts'

/**
 * List filters as django-filter reads them: declared once, giving both the query schema the OpenAPI
 * page shows and a parser that turns the raw strings into typed values. Unknown parameters are
 * ignored; a known one with a bad value is 400 on that parameter.
 */
type FilterKind = 'id' | 'text' | 'exact' | 'bool' | 'date'

type ValueOf<K extends FilterKind> = K extends 'id' ? number : K extends 'bool' ? boolean : string

export type FilterValues<S extends Record<string, FilterKind>> = { [P in keyof S]?: ValueOf<S[P]> }

const descriptions: Record<FilterKind, string> = {
  id: 'Exact id',
  text: 'Case-insensitive substring',
  exact: 'Exact value',
  bool: 'true or false (any case)',
  date: 'A date, YYYY-MM-DD',
}

function parseOne(kind: FilterKind, raw: string): { value?: unknown; error?: string } {
  switch (kind) {
    case 'id':
      return /^-?\d+$/.test(raw.trim()) ? { value: Number(raw) } : { error: messages.filterNumber }
    case 'bool': {
      const v = raw.trim().toLowerCase()
      return v === 'true' ? { value: true } : v === 'false' ? { value: false } : { error: messages.boolean }
    }
    case 'date':
      return isIsoDate(raw.trim()) ? { value: raw.trim() } : { error: 'Enter a valid date.' }
    default:
      return { value: raw }
  }
}

export function defineFilters<const S extends Record<string, FilterKind>>(spec: S) {
  const properties: Record<string, TSchema> = { ...pageParams }
  for (const [name, kind] of Object.entries(spec)) {
    properties[name] = t.Optional(t.String({ description: descriptions[kind] }))
  }
  return {
    /** The query schema for the route (strings only: parsing and messages happen in `parse`). */
    query: t.Object(properties, { additionalProperties: true }),
    parse(query: Record<string, string | undefined>): FilterValues<S> {
      const values: Record<string, unknown> = {}
      const errors: FieldErrors = {}
      for (const [name, kind] of Object.entries(spec)) {
        const raw = query[name]
        if (raw === undefined || raw === '') continue
        const { value, error } = parseOne(kind, raw)
        if (error) errors[name] = [error]
        else values[name] = value
      }
      if (Object.keys(errors).length > 0) throw new ValidationError(errors)
      return values as FilterValues<S>
    },
  }
}
