import type { Urls } from '../../http/urls.ts'
import { centsToDecimal, unitsToDecimal } from '../../lib/money.ts'
import type { DiscountRow } from './queries.ts'
import { PERCENT_PLACES } from './schema.ts'

export function serializeDiscount(row: DiscountRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/discounts', row.id),
    code: row.code,
    name: row.name,
    display_name: row.display_name,
    association_id: row.association_id,
    percent_off:
      row.percent_off_hundredths === null ? null : unitsToDecimal(row.percent_off_hundredths, PERCENT_PLACES),
    amount_off: row.amount_off_cents === null ? null : centsToDecimal(row.amount_off_cents),
    is_active: row.is_active === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
