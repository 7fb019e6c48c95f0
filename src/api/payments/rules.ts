import type { PaymentStatus } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { FieldErrorCollector, messages } from '../../http/errors.ts'
import { decimalMessages } from '../../http/decimal.ts'
import { readFilters, type FilterValues } from '../../http/filters.ts'
import { endOfLocalDay, startOfLocalDay } from '../../lib/local-time.ts'
import { loadOrganization } from '../organization/queries.ts'
import type { PaymentQuery } from './queries.ts'
import { PAYMENT_FILTERS } from './schema.ts'
import { LISTED_PAYMENT_STATUSES, PAYMENT_STATUSES, PAYMENT_TYPES } from '../../domain/sales.ts'

/**
 * The payments list's filters as django-filter reads them: the comma-separated lists name the first
 * value that is not a choice, amounts are decimals of at most two places, and every bad parameter
 * is reported at once, in the filter set's order.
 */
export interface PaymentFilters extends Omit<
  FilterValues<typeof PAYMENT_FILTERS>,
  'payment_method_in' | 'status_in' | 'amount_min' | 'amount_max'
> {
  payment_types?: string[]
  statuses: readonly PaymentStatus[]
  amount_min_cents?: number
  amount_max_cents?: number
}

/** The non-empty comma-separated values of `raw`, or the first that is not one of `choices`. */
function commaChoices<C extends string>(
  raw: string,
  choices: readonly C[],
): { values: C[] } | { unknown: string } {
  const values = raw
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '')
  const unknown = values.find((value) => !(choices as readonly string[]).includes(value))
  return unknown === undefined ? { values: values as C[] } : { unknown }
}

/** A DecimalFilter's value in cents, or the form field's message. */
function amountCents(raw: string): { cents: number } | { error: string } {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(raw.trim())
  if (match === null) return { error: messages.filterNumber }
  const [, sign, whole, fraction = ''] = match
  // Trailing zeros are no places ("12.500" is 12.50), as Django's DecimalField counts them.
  const places = fraction.replace(/0+$/, '')
  if (places.length > 2) return { error: decimalMessages.places(2) }
  const cents = Number(whole) * 100 + Number(places.padEnd(2, '0'))
  return { cents: sign === '-' ? -cents : cents }
}

export function readPaymentFilters(query: Record<string, string | undefined>): PaymentFilters {
  const { values, errors: parseErrors } = readFilters(PAYMENT_FILTERS, query)
  const errors = new FieldErrorCollector(parseErrors, Object.keys(PAYMENT_FILTERS))
  const { payment_method_in, status_in, amount_min, amount_max, ...plain } = values
  const filters: PaymentFilters = { ...plain, statuses: LISTED_PAYMENT_STATUSES }

  if (payment_method_in !== undefined) {
    const read = commaChoices(payment_method_in, PAYMENT_TYPES)
    if ('unknown' in read) errors.add('payment_method_in', messages.filterChoice(read.unknown))
    else if (read.values.length > 0) filters.payment_types = read.values
  }
  if (status_in !== undefined) {
    // Any status is a valid choice, but the list never holds PEN or CAN: asking for them narrows
    // to nothing rather than widening the list.
    const read = commaChoices(status_in, PAYMENT_STATUSES)
    if ('unknown' in read) errors.add('status_in', messages.filterChoice(read.unknown))
    else if (read.values.length > 0)
      filters.statuses = LISTED_PAYMENT_STATUSES.filter((status) => read.values.includes(status))
  }
  for (const [name, raw] of [
    ['amount_min', amount_min],
    ['amount_max', amount_max],
  ] as const) {
    if (raw === undefined) continue
    const read = amountCents(raw)
    if ('error' in read) errors.add(name, read.error)
    else filters[`${name}_cents`] = read.cents
  }
  errors.throwIfAny()
  return filters
}

/** The filters in the form the database answers them: the whole local days turned into instants. */
export async function paymentQuery(deps: Pick<Deps, 'db'>, filters: PaymentFilters): Promise<PaymentQuery> {
  const needsZone = filters.created_at_min !== undefined || filters.created_at_max !== undefined
  const zone = needsZone ? (await loadOrganization(deps.db)).time_zone : 'UTC'
  return {
    statuses: filters.statuses,
    created_from:
      filters.created_at_min === undefined ? undefined : startOfLocalDay(filters.created_at_min, zone),
    created_before:
      filters.created_at_max === undefined ? undefined : endOfLocalDay(filters.created_at_max, zone),
    search: filters.search,
    payment_types: filters.payment_types,
    amount_min_cents: filters.amount_min_cents,
    amount_max_cents: filters.amount_max_cents,
    discount_association_id: filters.discount_association_id,
    gym_id: filters.location_id,
    anonymous: filters.does_not_have_linked_customer,
    processor_a_payment_intent_id: filters.processor_a_payment_intent_id,
    processor_b_external_transaction_id: filters.processor_b_external_transaction_id,
  }
}
