import type { MemberAddOnRow } from '../../core/reports/queries.ts'
import { centsToDecimal } from '../../lib/money.ts'

/** An add-on as a member row lists it; the rest of each row is written by the report's query. */
export function serializeMemberAddOn(addOn: MemberAddOnRow) {
  return {
    id: addOn.id,
    name: addOn.name,
    fee: centsToDecimal(addOn.fee_cents),
    is_visible: addOn.is_visible === 1,
    icon_color_hex: addOn.icon_color_hex,
    icon_initials: addOn.icon_initials,
    revenue_account_codes: JSON.parse(addOn.revenue_account_codes) as Record<string, string>,
    tax_rate_id: addOn.tax_rate_id,
    tax_rate_per_location:
      addOn.tax_rate_per_location === null
        ? null
        : (JSON.parse(addOn.tax_rate_per_location) as Record<string, unknown>),
  }
}
