/**
 * Writing CSV (RFC 4180) from JSON records: a header of the JSON's field names, one line per record,
 * CRLF line ends. A value is written as its JSON shows it: text as it is, numbers and money strings
 * unchanged, booleans `true`/`false`, null an empty cell; a list, or an object whose keys are data
 * (a record keyed by code), one cell of compact JSON. An object with fixed fields is spread over one
 * column per field, named with dots (`address.city`).
 *
 * A cell a spreadsheet would read as a formula (it begins with `=`, `+`, `-`, `@`, a tab or a
 * carriage return) is written with a leading `'`, so opening the file never runs anything it holds;
 * a negative number (`-12.50`, a refund) is no formula and is written as it is, as money is in JSON.
 */

/** The part of a JSON Schema (TypeBox's) that decides the columns: an object's named fields. */
export interface ColumnSchema {
  type?: unknown
  properties?: Record<string, unknown>
  patternProperties?: unknown
  additionalProperties?: unknown
}

/** One column: its header, and the path of keys to its value in a record. */
export interface CsvColumn {
  header: string
  path: readonly string[]
}

/** An object with fixed, named fields (not a record keyed by data): it is spread over columns. */
const hasFixedFields = (schema: ColumnSchema): boolean =>
  schema.type === 'object' &&
  schema.properties !== undefined &&
  Object.keys(schema.properties).length > 0 &&
  schema.patternProperties === undefined &&
  (schema.additionalProperties === undefined || schema.additionalProperties === false)

/**
 * The columns of records of `schema` (an object schema), in its fields' order: a field that is an
 * object with fixed fields becomes a column per field (`address.city`), anything else one column.
 * `leaveOut` names top-level fields that the records at hand do not have (a report's optional ones).
 */
export function csvColumns(schema: ColumnSchema, leaveOut: readonly string[] = []): CsvColumn[] {
  const columns: CsvColumn[] = []
  const walk = (object: ColumnSchema, path: string[]) => {
    for (const [name, field] of Object.entries(object.properties ?? {}) as [string, ColumnSchema][]) {
      if (path.length === 0 && leaveOut.includes(name)) continue
      if (hasFixedFields(field)) walk(field, [...path, name])
      else columns.push({ header: [...path, name].join('.'), path: [...path, name] })
    }
  }
  walk(schema, [])
  return columns
}

/** The characters that make a spreadsheet read a cell as a formula when it begins with one. */
const FORMULA_START = /^[=+\-@\t\r]/
/** A plain number, which a spreadsheet reads as one whatever its sign: never guarded. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/
/** A cell holding any of these is quoted (RFC 4180): a comma, a quote, a line break. */
const NEEDS_QUOTES = /[",\r\n]/
/** Either of the above: most cells have neither, and are written as they are after this one test. */
const SPECIAL = /^[=+\-@\t\r]|[",\r\n]/

/** One value as its cell's text (before quoting): see the file's comment. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

/** A cell as written in the file: guarded against formulas, then quoted when it must be. */
export function csvCell(value: unknown): string {
  // The common cells first (an export writes millions): text with nothing to guard or quote, a
  // boolean, nothing.
  if (typeof value === 'string') return SPECIAL.test(value) ? guarded(value) : value
  if (value === null || value === undefined) return ''
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  const text = cellText(value)
  return SPECIAL.test(text) ? guarded(text) : text
}

/** A cell's text that begins as a formula would or holds what must be quoted: made safe. */
function guarded(cell: string): string {
  const text = FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

const valueAt = (record: unknown, path: readonly string[]): unknown => {
  let value = record
  for (const key of path) {
    if (value === null || value === undefined || typeof value !== 'object') return null
    value = (value as Record<string, unknown>)[key]
  }
  return value
}

/** The header line, CRLF-ended. */
export const csvHeader = (columns: readonly CsvColumn[]): string =>
  `${columns.map((column) => csvCell(column.header)).join(',')}\r\n`

/** One record's line, CRLF-ended. */
export function csvLine(columns: readonly CsvColumn[], record: unknown): string {
  let line = ''
  for (let i = 0; i < columns.length; i++) {
    const { path } = columns[i]!
    const value = path.length === 1 ? (record as Record<string, unknown>)[path[0]!] : valueAt(record, path)
    if (i > 0) line += ','
    line += csvCell(value)
  }
  return line + '\r\n'
}
