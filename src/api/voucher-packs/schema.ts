import { Type as t } from '@sinclair/typebox'
import { PRODUCT_STATUSES } from '../../domain/products.ts'
import { decimalField } from '../../http/decimal.ts'
import { field, out } from '../../http/fields.ts'
import { saleTermsOut, saleTermsWrite } from '../tax-rates/schema.ts'

export const VoucherPackWrite = t.Object({
  name: field.text({ maxLength: 255 }),
  status: field.choice(PRODUCT_STATUSES, { description: 'DRA draft, ACT active, RET retired' }),
  event_type_id: field.integer({ description: 'The event type its voucher is good for' }),
  number_of_uses: field.integer({ min: 1, description: 'Events the voucher it issues pays for' }),
  valid_days: t.Optional(
    field.nullable(
      field.integer({
        min: 1,
        description: 'Days its voucher stays usable from the day it is issued; null for no expiry',
      }),
    ),
  ),
  price: t.Optional(decimalField({ description: 'At least 0; "0.00" unless given' })),
  ...saleTermsWrite,
})

export const VoucherPackOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    name: t.String(),
    status: t.String(),
    event_type_id: t.Integer(),
    event_type_name: t.String(),
    event_type_url: out.url(),
    number_of_uses: t.Integer(),
    valid_days: field.nullable(t.Integer()),
    price: t.String(),
    ...saleTermsOut,
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      'A product the gym sells: selling one issues the customer a voucher for `number_of_uses` events of',
      'its event type. A change applies to what is sold from then on. Never deleted: retire it with',
      '`status: "RET"`.',
    ].join(' '),
  },
)
