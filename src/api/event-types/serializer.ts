import type { Urls } from '../../http/urls.ts'
import { categoryIdsOf, type EventTypeRow } from './queries.ts'

export function serializeEventType(row: EventTypeRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/event-types', row.id),
    name: row.name,
    gym_id: row.gym_id,
    gym_name: row.gym_name,
    gym_url: urls.abs('/api/gyms', row.gym_id),
    status: row.status,
    capacity: row.capacity,
    late_booking_window_minutes: row.late_booking_window_minutes,
    is_listed: row.is_listed === 1,
    max_reservations_per_day_for_customer: row.max_reservations_per_day_for_customer,
    waitlist_promotion_cutoff_hours: row.waitlist_promotion_cutoff_hours,
    booking_horizon_days: row.booking_horizon_days,
    schedule_type: row.schedule_type,
    category_ids: categoryIdsOf(row),
    created_at: row.created_at,
    updated_at: row.updated_at,
    questions_url: urls.abs('/api/event-types', row.id, 'questions'),
    schedules_url: urls.abs('/api/event-types', row.id, 'schedules'),
    // The scheduler web app addresses a gym by its scheduler path (its id when none is set).
    service_scheduler_url: urls.abs(
      '/scheduler',
      row.gym_scheduler_url_path || row.gym_id,
      'event-types',
      row.id,
    ),
  }
}
