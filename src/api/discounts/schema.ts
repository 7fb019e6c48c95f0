import { Type as t } from '@sinclair/typebox'
import { decimalField } from '../../http/decimal.ts'
import { field, out } from '../../http/fields.ts'

export const DISCOUNT_CODE_MAX_LENGTH = 64
/** A percentage off is kept to 2 places (hundredths of a percent): "12.50" is stored as 1250. */
export const PERCENT_PLACES = 2

const nullableDecimal = (description: string) =>
  t.Optional(t.Unknown({ anyOf: [decimalField({ description }), { type: 'null' }], description }))

export const DiscountWrite = t.Object({
  code: field.text({
    maxLength: DISCOUNT_CODE_MAX_LENGTH,
    description: 'What the desk types; unique whatever its case',
  }),
  name: t.Optional(field.text({ blank: true, maxLength: 255, description: 'Empty unless given' })),
  display_name: t.Optional(
    field.text({ blank: true, maxLength: 255, description: 'What a receipt shows; empty unless given' }),
  ),
  association_id: t.Optional(
    field.nullable(
      field.integer({ description: 'Groups discounts, e.g. a partner club; null unless given' }),
    ),
  ),
  // Checked by rules.ts (exactly one of the two, as decimals), documented here.
  percent_off: nullableDecimal('A percentage above 0, at most 100, 2 decimal places: "10" is 10% off'),
  amount_off: nullableDecimal('An amount above 0, 2 decimal places, taken off the price'),
  is_active: t.Optional(field.bool({ description: 'Default true; false retires the code' })),
})

export const DiscountOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    code: t.String(),
    name: t.String(),
    display_name: t.String(),
    association_id: field.nullable(t.Integer()),
    percent_off: field.nullable(t.String({ description: 'e.g. "12.50"; null for an amount off' })),
    amount_off: field.nullable(t.String({ description: 'e.g. "5.00"; null for a percentage off' })),
    is_active: t.Boolean(),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      'A discount code the desk applies to a sale: a percentage or an amount off. A change applies to',
      'what is sold from then on. Never deleted (sales name it): retire it with `is_active: false`.',
    ].join(' '),
  },
)
