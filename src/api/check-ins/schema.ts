import { Type as t, type TSchema } from '@sinclair/typebox'
import type { EntryMethod } from '../../db/schema.ts'
import { ValidationError, type FieldErrors } from '../../http/errors.ts'
import { field, out } from '../../http/fields.ts'
import { defineFilters, documentedFilter } from '../../http/filters.ts'
import { pageParams } from '../../http/pagination.ts'

export const ENTRY_METHODS: readonly EntryMethod[] = ['MEM', 'ENT', 'EVE', 'GUE', 'FRE', 'MIG']

const localTime = (description: string) =>
  t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$', readOnly: true, description })

/** The check-in record. */
export const CheckInOut = t.Object({
  id: out.id(),
  url: out.url(),
  customer_id: t.Integer(),
  customer_url: out.url(),
  customer_first_name: t.String(),
  customer_last_name: t.String(),
  customer_birthday: field.nullable(out.date()),
  customer_email: field.nullable(t.String({ description: 'Null when the customer has none' })),
  check_in_datetime: localTime(
    "The location's wall-clock time, to the second, no offset; the same instant as created_at",
  ),
  check_out_datetime: field.nullable(localTime("The location's wall-clock time; null while checked in")),
  visit_duration_minutes: t.Integer({
    description: 'Whole minutes to the check-out, or to now while checked in (grows on every read)',
  }),
  entry_method: t.String({ description: ENTRY_METHODS.join(', ') }),
  entry_method_description: t.String(),
  location_id: t.Integer(),
  location_url: out.url(),
  location_name: t.String(),
  free_entry_reason: t.String({ description: 'Empty unless the entry method is FRE' }),
  free_entry_granting_user_id: field.nullable(t.Integer()),
  free_entry_granting_user_first_name: field.nullable(t.String()),
  free_entry_granting_user_last_name: field.nullable(t.String()),
  converted_from_free_entry: t.Boolean(),
  milestone_list: t.Array(t.String(), { description: 'Milestones reached at this check-in' }),
  check_in_count: field.nullable(
    t.Integer({ description: "The customer's count including this one (1 = first ever)" }),
  ),
  created_at: out.datetime(),
  updated_at: out.datetime(),
})

/** check-out/ takes no fields. */
export const NoBody = t.Object({})

const filterDocs = {
  check_in_date_min: "YYYY-MM-DD: on or after the start of that day in the organization's zone",
  check_in_date_max: "YYYY-MM-DD: on or before the end of that day in the organization's zone",
  this_calendar_day: "true: since the start of today in the organization's zone (false: no limit)",
  has_checked_out: 'true: only checked out, newest check-out first; false: only those still in',
  customer_id: 'Exact customer id',
  location_id: 'Exact location (gym) id',
  entry_method: `One of ${ENTRY_METHODS.join(', ')}`,
} as const

const kinds = {
  check_in_date_min: 'date',
  check_in_date_max: 'date',
  this_calendar_day: 'bool',
  has_checked_out: 'bool',
  customer_id: 'id',
  location_id: 'id',
  entry_method: 'exact',
} as const

const parseBasic = defineFilters(kinds).parse

export type CheckInFilterValues = Omit<ReturnType<typeof parseBasic>, 'entry_method'> & {
  entry_method?: EntryMethod
}

/**
 * The check-ins list filters, as django-filter reads them: every bad parameter at once, in the
 * filter set's order; entry_method is a ChoiceFilter, hence Django's ChoiceField wording. The
 * customer's own sub-collection leaves out `customer_id`.
 */
export function checkInFilters(options: { customerId: boolean }) {
  const names = Object.keys(kinds).filter((name) => options.customerId || name !== 'customer_id')
  const properties: Record<string, TSchema> = { ...pageParams }
  for (const name of names) {
    const filter = name as keyof typeof kinds
    properties[name] =
      filter === 'entry_method'
        ? t.Optional(
            t.Union(
              ENTRY_METHODS.map((m) => t.Literal(m)),
              { description: filterDocs[filter] },
            ),
          )
        : documentedFilter(kinds[filter], filterDocs[filter])
  }
  return {
    /** Documentation, typed; `parse` reads the raw strings. */
    query: t.Object(properties),
    parse(query: Record<string, string | undefined>): CheckInFilterValues {
      const known = Object.fromEntries(names.map((name) => [name, query[name]]))
      let errors: FieldErrors = {}
      let values: ReturnType<typeof parseBasic> = {}
      try {
        values = parseBasic(known)
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error
        errors = error.fields
      }
      // Read raw: when another filter fails, parseBasic returns no values at all.
      const method = known.entry_method
      if (method !== undefined && method !== '' && !ENTRY_METHODS.includes(method as EntryMethod))
        errors.entry_method = [`Select a valid choice. ${method} is not one of the available choices.`]
      if (Object.keys(errors).length > 0) throw new ValidationError(errors)
      return values as CheckInFilterValues
    },
  }
}
