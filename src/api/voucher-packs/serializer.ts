import type { Urls } from '../../http/urls.ts'
import { centsToDecimal } from '../../lib/money.ts'
import type { VoucherPackRow } from './queries.ts'

export function serializeVoucherPack(row: VoucherPackRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/voucher-packs', row.id),
    name: row.name,
    status: row.status,
    event_type_id: row.event_type_id,
    event_type_name: row.event_type_name,
    event_type_url: urls.abs('/api/event-types', row.event_type_id),
    number_of_uses: row.number_of_uses,
    valid_days: row.valid_days,
    price: centsToDecimal(row.price_cents),
    tax_rate_id: row.tax_rate_id,
    revenue_account_code: row.revenue_account_code,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
