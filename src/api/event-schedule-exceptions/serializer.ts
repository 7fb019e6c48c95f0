import type { Urls } from '../../http/urls.ts'
import type { ScheduleExceptionRow } from './queries.ts'

export function serializeScheduleException(row: ScheduleExceptionRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/event-types', row.event_type_id, 'schedule-exceptions', row.id),
    schedule_id: row.schedule_id,
    date: row.date,
    reason: row.reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
