import type { Urls } from '../../http/urls.ts'
import { centsToDecimal } from '../../lib/money.ts'
import type { EntryPassTypeRow } from './queries.ts'

export function serializeEntryPassType(row: EntryPassTypeRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/entry-passes', row.id),
    name: row.name,
    status: row.status,
    number_of_entries: row.number_of_entries,
    valid_days: row.valid_days,
    price: centsToDecimal(row.price_cents),
    tax_rate_id: row.tax_rate_id,
    revenue_account_code: row.revenue_account_code,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
