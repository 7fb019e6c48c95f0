import { loadOrganization } from '../organization/queries.ts'
import type { CheckInQuery, CheckInRow } from './queries.ts'
import { updateCheckOut } from './queries.ts'
import type { CheckInFilterValues } from './schema.ts'
import type { Deps } from '../../deps.ts'
import { ValidationError } from '../../http/errors.ts'
import { endOfLocalDay, localDate, startOfLocalDay } from '../../lib/local-time.ts'

/**
 * The check-in history: the list filters and the check-out. The record's own times are the
 * location's; the day filters are whole days of the ORGANIZATION's zone, so a
 * multi-zone organization filters all its gyms by one calendar.
 */

export const alreadyCheckedOut = 'This check-in is already checked out.'

/**
 * Turns the list filters into instants: check_in_date_min/max are whole organization-local days,
 * inclusive; this_calendar_day=true starts at today's local midnight (false limits nothing, as a
 * django-filter method filter that acts only on true). `customerId` scopes a customer's own list.
 */
export async function checkInQuery(
  deps: Pick<Deps, 'db' | 'clock'>,
  filters: CheckInFilterValues,
  customerId: number | null,
): Promise<CheckInQuery> {
  const needsZone =
    filters.check_in_date_min !== undefined ||
    filters.check_in_date_max !== undefined ||
    filters.this_calendar_day === true
  const zone = needsZone ? (await loadOrganization(deps.db)).time_zone : 'UTC'
  const lowerBounds: string[] = []
  if (filters.check_in_date_min !== undefined)
    lowerBounds.push(startOfLocalDay(filters.check_in_date_min, zone))
  if (filters.this_calendar_day === true)
    lowerBounds.push(startOfLocalDay(localDate(deps.clock.now(), zone), zone))
  return {
    customer_id: customerId ?? filters.customer_id,
    gym_id: filters.location_id,
    entry_method: filters.entry_method,
    // Both bounds are Date#toISOString text, so the later one is the greater string.
    created_from: lowerBounds.length > 0 ? lowerBounds.sort().at(-1) : undefined,
    created_before:
      filters.check_in_date_max === undefined ? undefined : endOfLocalDay(filters.check_in_date_max, zone),
    checked_out: filters.has_checked_out,
  }
}

/** POST check-out/: records now as the check-out time, once. */
export async function checkOut(deps: Pick<Deps, 'db' | 'clock'>, row: CheckInRow): Promise<void> {
  // The conditional update settles two desks checking the same visit out at once.
  const done =
    row.check_out_at === null && (await updateCheckOut(deps.db, row.id, deps.clock.now().toISOString()))
  if (!done) throw new ValidationError({ non_field_errors: [alreadyCheckedOut] })
}
