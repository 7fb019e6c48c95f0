import { Type as t } from '@sinclair/typebox'
import { decimalField } from '../../http/decimal.ts'
import { field, out } from '../../http/fields.ts'

export const REVENUE_ACCOUNT_CODE_MAX_LENGTH = 64
/** A rate is a fraction kept to 4 places (basis points): "0.0825" is stored as 825. */
export const RATE_PLACES = 4

/**
 * What every product is sold with, beside its price: membership types, entry pass types, voucher
 * packs and events each take these two fields.
 */
export const saleTermsWrite = {
  tax_rate_id: t.Optional(
    field.nullable(field.integer({ description: 'A tax rate id, or null for untaxed; null unless given' })),
  ),
  revenue_account_code: t.Optional(
    field.text({
      blank: true,
      maxLength: REVENUE_ACCOUNT_CODE_MAX_LENGTH,
      description: 'The account its revenue is booked to; empty unless given',
    }),
  ),
}

export const saleTermsOut = {
  tax_rate_id: field.nullable(t.Integer()),
  revenue_account_code: t.String(),
}

export const TaxRateWrite = t.Object({
  name: field.text({ maxLength: 255 }),
  // Checked by rules.ts (a decimal string with its own messages), documented here.
  rate: decimalField({
    description: 'A fraction with at most 4 decimal places, from 0 to 0.9999: "0.0825" is 8.25%',
  }),
  is_active: t.Optional(field.bool({ description: 'Default true; false retires the rate' })),
})

export const TaxRateOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    name: t.String(),
    rate: t.String({ description: 'Always 4 decimal places, e.g. "0.0825"' }),
    is_active: t.Boolean(),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      'A rate products are sold at. A change applies to what is sold from then on. Never deleted',
      '(sales name it): retire it with `is_active: false`.',
    ].join(' '),
  },
)
