import { Type as t } from '@sinclair/typebox'
import { PRODUCT_STATUSES } from '../../domain/products.ts'
import { decimalField } from '../../http/decimal.ts'
import { field, out } from '../../http/fields.ts'
import { saleTermsOut, saleTermsWrite } from '../tax-rates/schema.ts'

export const EntryPassTypeWrite = t.Object({
  name: field.text({ maxLength: 255 }),
  status: field.choice(PRODUCT_STATUSES, { description: 'DRA draft, ACT active, RET retired' }),
  number_of_entries: field.integer({
    min: 1,
    description: '1 for a single entry, more for a multi-entry pass',
  }),
  valid_days: t.Optional(
    field.nullable(
      field.integer({
        min: 1,
        description: 'Days a pass stays usable from the day it is issued; null for no expiry',
      }),
    ),
  ),
  price: t.Optional(decimalField({ description: 'At least 0; "0.00" unless given' })),
  ...saleTermsWrite,
})

export const EntryPassTypeOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    name: t.String(),
    status: t.String(),
    number_of_entries: t.Integer(),
    valid_days: field.nullable(t.Integer()),
    price: t.String(),
    ...saleTermsOut,
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      'A pass the gym sells: a number of entries, usable for `valid_days` from the day a customer',
      'pass is issued. A change applies to what is sold from then on. Never deleted: retire it with',
      '`status: "RET"`.',
    ].join(' '),
  },
)
