import type { Urls } from '../../http/urls.ts'
import { serializeExpiry } from '../customer-records/serializer.ts'
import type { EventVoucherRow } from './queries.ts'

export function serializeEventVoucher(row: EventVoucherRow, urls: Urls, now: Date) {
  return {
    id: row.id,
    url: urls.abs('/api/customers', row.customer_id, 'event-vouchers', row.id),
    event_type_id: row.event_type_id,
    event_type_url: urls.abs('/api/event-types', row.event_type_id),
    event_type_name: row.event_type_name,
    number_of_uses_total: row.number_of_uses_total,
    number_of_uses_remaining: row.number_of_uses_remaining,
    ...serializeExpiry(row, now),
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
