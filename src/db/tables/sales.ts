import type { Generated } from 'kysely'
import type { Flag } from './flag.ts'
import type { ProductStatus } from './products.ts'

/** What the gym sells beyond its product types: tax rates, discounts, voucher packs (migration 0005). */

export interface TaxRateTable {
  id: Generated<number>
  name: string
  /** The rate in ten-thousandths: 0.0825 is 825 */
  rate_basis_points: number
  is_active: Flag
  created_at: string
  updated_at: string
}

export interface DiscountTable {
  id: Generated<number>
  /** Unique whatever its case (the column compares without case) */
  code: string
  name: string
  display_name: string
  association_id: number | null
  /** Exactly one of the two is set: a percentage in hundredths (12.50% is 1250), or an amount */
  percent_off_hundredths: number | null
  amount_off_cents: number | null
  is_active: Flag
  created_at: string
  updated_at: string
}

export interface VoucherPackTable {
  id: Generated<number>
  name: string
  status: ProductStatus
  event_type_id: number
  number_of_uses: number
  valid_days: number | null
  price_cents: number
  tax_rate_id: number | null
  revenue_account_code: string
  created_at: string
  updated_at: string
}
