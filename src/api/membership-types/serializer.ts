import { readAccessHours } from '../../domain/access-hours.ts'
import type { Urls } from '../../http/urls.ts'
import { centsToDecimal } from '../../lib/money.ts'
import type { MembershipTypeRow } from './queries.ts'

export function serializeMembershipType(row: MembershipTypeRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/memberships', row.id),
    name: row.name,
    description: row.description,
    status: row.status,
    purchase_type: row.purchase_type,
    interval: row.interval,
    price: centsToDecimal(row.price_cents),
    is_group: row.is_group === 1,
    is_youth_programming: row.is_youth_programming === 1,
    duration_years: row.duration_years,
    duration_months: row.duration_months,
    duration_days: row.duration_days,
    location_id: row.location_id,
    location_name: row.location_name,
    location_url: row.location_id === null ? null : urls.abs('/api/gyms', row.location_id),
    access_hours: readAccessHours(row.access_hours),
    guest_passes_per_month: row.guest_passes_per_month,
    tax_rate_id: row.tax_rate_id,
    revenue_account_code: row.revenue_account_code,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
