import type { Urls } from '../../http/urls.ts'
import { centsToDecimal } from '../../lib/money.ts'
import type { EventWithLoad } from './queries.ts'

export function serializeEvent(row: EventWithLoad, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/events', row.id),
    event_type_id: row.event_type_id,
    event_type_name: row.event_type_name,
    event_type_url: urls.abs('/api/event-types', row.event_type_id),
    gym_id: row.gym_id,
    gym_name: row.gym_name,
    gym_url: urls.abs('/api/gyms', row.gym_id),
    name: row.name,
    start_at: row.start_at,
    end_at: row.end_at,
    includes_entry: row.includes_entry === 1,
    is_cancelled: row.is_cancelled === 1,
    capacity: row.capacity,
    num_reservations: row.num_reservations,
    num_waitlisted: row.num_waitlisted,
    spots_left: row.spots_left,
    schedule_id: row.schedule_id,
    price: centsToDecimal(row.price_cents),
    tax_rate_id: row.tax_rate_id,
    revenue_account_code: row.revenue_account_code,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
