import type { Urls } from '../../http/urls.ts'
import type { AnswerOut } from '../../core/classes/answers.ts'
import type { WaitlistEntryRow } from './queries.ts'

export function serializeWaitlistEntry(row: WaitlistEntryRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/waitlist-entries', row.id),
    event_id: row.event_id,
    event_url: urls.abs('/api/events', row.event_id),
    customer_id: row.customer_id,
    customer_url: urls.abs('/api/customers', row.customer_id),
    customer_first_name: row.customer_first_name,
    customer_last_name: row.customer_last_name,
    position: row.position,
    status: row.read_status,
    reservation_id: row.reservation_id,
    answers: JSON.parse(row.answers_out) as AnswerOut[],
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
