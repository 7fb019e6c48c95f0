import { Type as t, type TSchema } from '@sinclair/typebox'
import { ENTRY_METHODS } from '../../db/tables/door.ts'
import { field, out } from '../../http/fields.ts'
import { defineFilters, type FilterValues } from '../../http/filters.ts'

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

/** The list's filters, in the filter set's order (a 400 lists failing filters in it). */
const spec = {
  check_in_date_min: {
    kind: 'date',
    description: "YYYY-MM-DD: on or after the start of that day in the organization's zone",
  },
  check_in_date_max: {
    kind: 'date',
    description: "YYYY-MM-DD: on or before the end of that day in the organization's zone",
  },
  this_calendar_day: {
    kind: 'bool',
    description: "true: since the start of today in the organization's zone (false: no limit)",
  },
  has_checked_out: {
    kind: 'bool',
    description: 'true: only checked out, newest check-out first; false: only those still in',
  },
  customer_id: { kind: 'id', description: 'Exact customer id' },
  location_id: { kind: 'id', description: 'Exact location (gym) id' },
  entry_method: { kind: 'choice', choices: ENTRY_METHODS, description: `One of ${ENTRY_METHODS.join(', ')}` },
} as const
const { customer_id: _, ...ofOneCustomer } = spec

export type CheckInFilterValues = FilterValues<typeof spec>

/**
 * The check-ins list filters, as django-filter reads them: every bad parameter at once, in the
 * filter set's order. The customer's own sub-collection leaves out `customer_id`.
 */
export const checkInFilters = (options: { customerId: boolean }) =>
  defineFilters<typeof spec>(options.customerId ? spec : (ofOneCustomer as typeof spec))
