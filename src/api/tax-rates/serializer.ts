import type { Urls } from '../../http/urls.ts'
import { unitsToDecimal } from '../../lib/money.ts'
import type { TaxRateRow } from './queries.ts'
import { RATE_PLACES } from './schema.ts'

export function serializeTaxRate(row: TaxRateRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/tax-rates', row.id),
    name: row.name,
    rate: unitsToDecimal(row.rate_basis_points, RATE_PLACES),
    is_active: row.is_active === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
