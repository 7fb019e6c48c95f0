import type { Urls } from '../../http/urls.ts'
import { centsToDecimal } from '../../lib/money.ts'
import type { ScheduleRow } from './queries.ts'

export function serializeSchedule(row: ScheduleRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/event-types', row.event_type_id, 'schedules', row.id),
    event_type_id: row.event_type_id,
    gym_id: row.gym_id,
    weekdays: JSON.parse(row.weekdays) as string[],
    start_time: row.start_time,
    duration_minutes: row.duration_minutes,
    start_date: row.start_date,
    end_date: row.end_date,
    capacity: row.capacity,
    price: centsToDecimal(row.price_cents),
    is_active: row.is_active === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
