import { Type as t, type TSchema } from '@sinclair/typebox'
import { messages, ValidationError, type FieldErrors } from './errors.ts'
import { choiceLiterals } from './fields.ts'
import { pageParams } from './pagination.ts'
import { isIsoDate } from '../lib/local-time.ts'

/**
 * List filters as django-filter reads them: declared once, giving both the query schema the OpenAPI
 * page shows and a parser that turns the raw strings into typed values. Unknown parameters are
 * ignored; an empty one counts as not given; a known one with a bad value is 400 on that parameter.
 */
export type FilterKind = 'id' | 'text' | 'exact' | 'bool' | 'date'

/** A filter with a fixed set of values, django-filter's ChoiceFilter: any other value is 400. */
export interface ChoiceFilter {
  kind: 'choice'
  choices: readonly string[]
  description?: string
}

/** A filter's kind, or its kind with what the OpenAPI page says of it (else the kind's wording). */
export type Filter = FilterKind | { kind: FilterKind; description: string } | ChoiceFilter

type ValueOf<F extends Filter> = F extends ChoiceFilter
  ? F['choices'][number]
  : (F extends { kind: infer K } ? K : F) extends infer K
    ? K extends 'id'
      ? number
      : K extends 'bool'
        ? boolean
        : string
    : never

export type FilterValues<S extends Record<string, Filter>> = { [P in keyof S]?: ValueOf<S[P]> }

/** How each kind is documented: the type a client sends (every value arrives as text). */
const documented: Record<FilterKind, () => TSchema> = {
  id: () => t.Integer({ description: 'Exact id' }),
  text: () => t.String({ description: 'Case-insensitive substring' }),
  exact: () => t.String({ description: 'Exact value' }),
  bool: () => t.Boolean({ description: 'true or false (any case), or 1 or 0' }),
  date: () => t.String({ format: 'date', description: 'A date, YYYY-MM-DD' }),
}

/** What a query value that is not UTF-8 reads as (see `markUndecodable`), and is refused for. */
const UNDECODABLE = '\uFFFD'

/**
 * Replaces each query value whose percent escapes do not spell UTF-8 (`search=%ff`) with U+FFFD.
 * The query parser leaves such a value undecoded, so it would read as the text `%ff`, the same as a
 * correctly escaped `%25ff`; marked, a filter refuses it. A `%` not followed by two hex digits is
 * left as text, as Django reads it.
 */
export function markUndecodable(url: string, query: Record<string, unknown>): void {
  const start = url.indexOf('?')
  if (start < 0) return
  for (const pair of url.slice(start + 1).split('&')) {
    const eq = pair.indexOf('=')
    if (eq < 0 || !pair.includes('%', eq)) continue
    try {
      decodeURIComponent(pair.slice(eq + 1).replace(/%(?![0-9a-fA-F]{2})/g, '%25'))
    } catch {
      try {
        query[decodeURIComponent(pair.slice(0, eq).replace(/\+/g, ' '))] = UNDECODABLE
      } catch {
        // a name that is not UTF-8 names no filter
      }
    }
  }
}

/** django-filter's BooleanWidget: these, in any case; any other value is refused here. */
const BOOLEAN_FILTER_VALUES = new Map([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
])

function parseOne(filter: Filter, raw: string): { value?: unknown; error?: string } {
  // Django's form fields refuse NUL; a text filter would otherwise match as if it ended there.
  if (raw.includes('\0')) return { error: messages.nullCharacters }
  if (raw.includes(UNDECODABLE)) return { error: messages.invalidValue }
  if (typeof filter === 'object' && filter.kind === 'choice')
    return filter.choices.includes(raw) ? { value: raw } : { error: messages.filterChoice(raw) }
  switch (typeof filter === 'string' ? filter : filter.kind) {
    case 'id':
      return /^-?\d+$/.test(raw.trim()) ? { value: Number(raw) } : { error: messages.filterNumber }
    case 'bool': {
      const value = BOOLEAN_FILTER_VALUES.get(raw.trim().toLowerCase())
      return value === undefined ? { error: messages.boolean } : { value }
    }
    case 'date':
      return isIsoDate(raw.trim()) ? { value: raw.trim() } : { error: 'Enter a valid date.' }
    default:
      return { value: raw }
  }
}

/** One filter as the OpenAPI page documents it; its `description` in place of the kind's own. */
export const documentedFilter = (filter: Filter) => {
  if (typeof filter === 'string') return t.Optional(documented[filter]())
  if (filter.kind === 'choice') {
    const options = filter.description ? { description: filter.description } : {}
    return t.Optional(t.Union(choiceLiterals(filter.choices), options))
  }
  const schema = documented[filter.kind]()
  return t.Optional(filter.description ? { ...schema, description: filter.description } : schema)
}

/**
 * The query parameters of `spec` as the OpenAPI page documents them, typed. Routes do not hand this
 * to Elysia: `readFilters` reads the raw strings, so that a bad value gets django-filter's wording.
 */
export function filterQuery(spec: Record<string, Filter>, options: { paginated: boolean }) {
  const properties: Record<string, TSchema> = options.paginated ? { ...pageParams } : {}
  for (const [name, filter] of Object.entries(spec)) {
    properties[name] = documentedFilter(filter)
  }
  return t.Object(properties)
}

/**
 * Every filter of `spec` that parses, and a message for each that does not, in the spec's order:
 * for a parser that adds checks of its own (choices, the database) before answering one 400.
 */
export function readFilters<const S extends Record<string, Filter>>(
  spec: S,
  query: Record<string, string | undefined>,
): { values: FilterValues<S>; errors: FieldErrors } {
  const values: Record<string, unknown> = {}
  const errors: FieldErrors = {}
  for (const [name, filter] of Object.entries(spec)) {
    const raw = query[name]
    if (raw === undefined || raw === '') continue
    const { value, error } = parseOne(filter, raw)
    if (error) errors[name] = [error]
    else values[name] = value
  }
  return { values: values as FilterValues<S>, errors }
}

/** A paginated list's filters: its query schema, and `parse`, which throws the 400 on a bad one. */
export function defineFilters<const S extends Record<string, Filter>>(spec: S) {
  return {
    query: filterQuery(spec, { paginated: true }),
    parse(query: Record<string, string | undefined>): FilterValues<S> {
      const { values, errors } = readFilters(spec, query)
      if (Object.keys(errors).length > 0) throw new ValidationError(errors)
      return values
    },
  }
}
