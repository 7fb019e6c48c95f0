import type { Urls } from '../../http/urls.ts'
import { localDateTime } from '../../lib/local-time.ts'
import type { CheckInRow } from './queries.ts'

const MINUTE_MS = 60_000

/**
 * Whole minutes from check-in to check-out, or to `now` while the customer is still in (so it grows
 * on every read). Never negative, should a clock have stepped back.
 */
export function visitDurationMinutes(
  row: Pick<CheckInRow, 'created_at' | 'check_out_at'>,
  now: Date,
): number {
  const end = row.check_out_at === null ? now.getTime() : Date.parse(row.check_out_at)
  return Math.max(0, Math.floor((end - Date.parse(row.created_at)) / MINUTE_MS))
}

/** The check-in record, fields in their documented order. `now` measures an open visit. */
export function serializeCheckIn(row: CheckInRow, urls: Urls, now: Date) {
  const zone = row.location_time_zone
  const granted = row.free_entry_granting_user_id !== null
  return {
    id: row.id,
    url: urls.abs('/api/check-ins', row.id),
    customer_id: row.customer_id,
    customer_url: urls.abs('/api/customers', row.customer_id),
    customer_first_name: row.customer_first_name,
    customer_last_name: row.customer_last_name,
    customer_birthday: row.customer_birthday || null,
    customer_email: row.customer_email || null,
    check_in_datetime: localDateTime(new Date(row.created_at), zone),
    check_out_datetime: row.check_out_at === null ? null : localDateTime(new Date(row.check_out_at), zone),
    visit_duration_minutes: visitDurationMinutes(row, now),
    entry_method: row.entry_method,
    entry_method_description: row.entry_method_description,
    location_id: row.gym_id,
    location_url: urls.abs('/api/gyms', row.gym_id),
    location_name: row.location_name,
    free_entry_reason: row.free_entry_reason,
    free_entry_granting_user_id: row.free_entry_granting_user_id,
    free_entry_granting_user_first_name: granted ? row.free_entry_granting_user_first_name : null,
    free_entry_granting_user_last_name: granted ? row.free_entry_granting_user_last_name : null,
    converted_from_free_entry: row.converted_from_free_entry === 1,
    milestone_list: JSON.parse(row.milestone_list) as string[],
    check_in_count: row.check_in_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
