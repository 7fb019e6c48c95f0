import type { Urls } from '../../http/urls.ts'
import { centsToDecimal } from '../../lib/money.ts'
import type { AddOnRow } from './queries.ts'

export function serializeAddOn(row: AddOnRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/add-ons', row.id),
    name: row.name,
    fee: centsToDecimal(row.fee_cents),
    is_visible: row.is_visible === 1,
    icon_color_hex: row.icon_color_hex,
    icon_initials: row.icon_initials,
    revenue_account_codes: JSON.parse(row.revenue_account_codes) as Record<string, string>,
    tax_rate_id: row.tax_rate_id,
    tax_rate_per_location:
      row.tax_rate_per_location === null
        ? null
        : (JSON.parse(row.tax_rate_per_location) as Record<string, string | number>),
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
