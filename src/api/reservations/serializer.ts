import type { Urls } from '../../http/urls.ts'
import type { ReservationRow } from './queries.ts'
import type { AnswerOut } from '../../core/classes/answers.ts'

export function serializeReservation(row: ReservationRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/reservations', row.id),
    event_id: row.event_id,
    event_url: urls.abs('/api/events', row.event_id),
    event_name: row.event_name,
    event_start_at: row.event_start_at,
    event_end_at: row.event_end_at,
    gym_id: row.gym_id,
    customer_id: row.customer_id,
    customer_url: urls.abs('/api/customers', row.customer_id),
    customer_first_name: row.customer_first_name,
    customer_last_name: row.customer_last_name,
    includes_entry: row.includes_entry === 1,
    is_cancelled: row.is_cancelled === 1,
    checked_in: row.checked_in === 1,
    answers: JSON.parse(row.answers_out) as AnswerOut[],
    event_voucher_id: row.event_voucher_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
