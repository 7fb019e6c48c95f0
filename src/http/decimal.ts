import { Type as t } from '@sinclair/typebox'
import { messages, type FieldErrorCollector } from './errors.ts'

/**
 * A DRF DecimalField in a request body: a decimal string ("12.50") or a JSON number (12.5).
 *
 * The schema only documents the field (an Unknown kind always passes TypeBox's check): TypeBox's
 * conversion would turn `true` into "true" and a float into a rounded string, so the value is read
 * raw by `checkDecimal`, which words its failures as DRF's DecimalField does.
 */
export const decimalField = (opts: { description?: string } = {}) =>
  t.Unknown({
    anyOf: [{ type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$' }, { type: 'number' }],
    description: opts.description ?? 'A decimal string such as "12.50" (a JSON number is accepted too)',
  })

export interface DecimalRules {
  /** Smallest allowed value (DRF min_value); 0 unless told */
  min?: number
  /** Largest allowed value (DRF max_value); none unless told */
  max?: number
  /** DRF max_digits; 10 unless told */
  maxDigits?: number
  /** DRF decimal_places; 2 unless told */
  places?: number
}

export const decimalMessages = {
  maxDigits: (n: number) => `Ensure that there are no more than ${n} digits in total.`,
  places: (n: number) => `Ensure that there are no more than ${n} decimal places.`,
  wholeDigits: (n: number) => `Ensure that there are no more than ${n} digits before the decimal point.`,
}

/** The text of a JSON number without an exponent (1e-7 -> "0.0000001"), or null when too large. */
function plainNumber(value: number): string | null {
  const text = String(value)
  if (!/e/i.test(text)) return text
  if (Math.abs(value) >= 1e21) return null
  return value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '')
}

/**
 * Reads one decimal value as an integer count of its smallest unit (cents for `places: 2`), or the
 * DRF message explaining why it cannot. Trailing zeros after the point do not count as places
 * ("12.500" is 12.50).
 */
export function parseDecimal(
  value: unknown,
  rules: DecimalRules = {},
): { units: number } | { error: string } {
  const { min = 0, max, maxDigits = 10, places = 2 } = rules
  if (value === null) return { error: messages.null }
  let text: string | null = null
  if (typeof value === 'number' && Number.isFinite(value)) text = plainNumber(value)
  else if (typeof value === 'string') text = value.trim()
  if (text === null) {
    return typeof value === 'number' && Number.isFinite(value)
      ? { error: decimalMessages.maxDigits(maxDigits) }
      : { error: messages.number }
  }
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text)
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return { error: messages.number }
  const whole = m[2]!.replace(/^0+/, '')
  const fraction = (m[3] ?? '').replace(/0+$/, '')
  if (whole.length + fraction.length > maxDigits) return { error: decimalMessages.maxDigits(maxDigits) }
  if (fraction.length > places) return { error: decimalMessages.places(places) }
  if (whole.length > maxDigits - places) return { error: decimalMessages.wholeDigits(maxDigits - places) }
  const units = Number(whole || '0') * 10 ** places + Number(fraction.padEnd(places, '0') || '0')
  const signed = m[1] === '-' ? -units : units
  // Bounds such as 0.01 are not exact in binary: compare in whole units.
  if (signed < Math.round(min * 10 ** places)) return { error: messages.min(min) }
  if (max !== undefined && signed > Math.round(max * 10 ** places)) return { error: messages.max(max) }
  return { units: signed === 0 ? 0 : signed }
}

/**
 * Checks `fields[name]` when it was sent: the value in smallest units (cents), or undefined with the
 * failure added to `errors` under `name`. Not sent: undefined, no error.
 */
export function checkDecimal(
  fields: Record<string, unknown>,
  errors: FieldErrorCollector,
  name: string,
  rules: DecimalRules = {},
): number | undefined {
  if (!(name in fields) || fields[name] === undefined) return undefined
  const result = parseDecimal(fields[name], rules)
  if ('error' in result) {
    errors.add(name, result.error)
    return undefined
  }
  return result.units
}
