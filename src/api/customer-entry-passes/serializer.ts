import type { Urls } from '../../http/urls.ts'
import { isExpired } from '../../lib/local-time.ts'
import type { CustomerEntryPassRow } from './queries.ts'

/** `now` for is_expired, computed at read time. */
export function serializeCustomerEntryPass(row: CustomerEntryPassRow, urls: Urls, now: Date) {
  return {
    id: row.id,
    url: urls.abs('/api/customer-entry-passes', row.id),
    entry_pass_id: row.entry_pass_type_id,
    entry_pass_name: row.entry_pass_name,
    entry_pass_url: urls.abs('/api/entry-passes', row.entry_pass_type_id),
    owner_id: row.owner_id,
    owner_url: urls.abs('/api/customers', row.owner_id),
    purchaser_id: row.purchaser_id,
    purchaser_first_name: row.purchaser_first_name,
    purchaser_last_name: row.purchaser_last_name,
    entries_total: row.entries_total,
    entries_remaining: row.entries_remaining,
    expiry_date: row.expiry_date,
    is_expired: isExpired(row.expiry_date, row.time_zone, now),
    acquired_via: row.acquired_via,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
