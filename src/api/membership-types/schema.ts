import { Type as t } from '@sinclair/typebox'
import { WEEK_DAYS } from '../../domain/access-hours.ts'
import { BILLING_INTERVALS, PRODUCT_STATUSES, PURCHASE_TYPES } from '../../domain/products.ts'
import { decimalField } from '../../http/decimal.ts'
import { enumNames, field, out } from '../../http/fields.ts'
import { saleTermsOut, saleTermsWrite } from '../tax-rates/schema.ts'
import { choices } from '../../lib/choices.ts'

const durationPart = (unit: string) =>
  t.Optional(field.nullable(field.integer({ min: 0, description: `Duration in ${unit}; null for none` })))

const AccessWindowDoc = t.Object({
  day: t.String({ enum: [...WEEK_DAYS], ...enumNames(WEEK_DAYS) }),
  start: t.String({ description: 'HH:MM, 24-hour clock, inclusive' }),
  end: t.String({ description: 'HH:MM, exclusive, after start; 24:00 for the end of the day' }),
})

/** Checked by domain/access-hours.ts (clear messages per window), documented here. */
const accessHours = t.Unknown({
  anyOf: [{ type: 'array', items: AccessWindowDoc }, { type: 'null' }],
  description: "Null for any time, or weekly windows in the gym's time zone",
})

export const MembershipTypeWrite = t.Object({
  name: field.text({ maxLength: 255 }),
  description: t.Optional(field.text({ blank: true })),
  status: field.choice(PRODUCT_STATUSES, { description: 'DRA draft, ACT active, RET retired' }),
  purchase_type: field.choice(PURCHASE_TYPES, { description: 'REC recurring, PRE prepaid, BEN benefit' }),
  interval: t.Optional(
    field.nullable(
      field.choice(choices({ '': 'None (not recurring)', ...BILLING_INTERVALS.labels }), {
        description: `Billing interval, required for REC and empty otherwise: ${BILLING_INTERVALS.join(', ')}`,
      }),
    ),
  ),
  price: t.Optional(decimalField({ description: 'At least 0; "0.00" unless given' })),
  is_group: t.Optional(field.bool()),
  is_youth_programming: t.Optional(field.bool()),
  duration_years: durationPart('years'),
  duration_months: durationPart('months'),
  duration_days: durationPart('days'),
  location_id: t.Optional(field.nullable(field.integer({ description: 'A gym id, or null' }))),
  access_hours: t.Optional(accessHours),
  guest_passes_per_month: t.Optional(field.integer({ min: 0 })),
  ...saleTermsWrite,
})

export const MembershipTypeOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    name: t.String(),
    description: t.String(),
    status: t.String(),
    purchase_type: t.String(),
    interval: t.String(),
    price: t.String(),
    is_group: t.Boolean(),
    is_youth_programming: t.Boolean(),
    duration_years: field.nullable(t.Integer()),
    duration_months: field.nullable(t.Integer()),
    duration_days: field.nullable(t.Integer()),
    location_id: field.nullable(t.Integer()),
    location_name: field.nullable(t.String()),
    location_url: field.nullable(out.url()),
    access_hours: field.nullable(t.Array(AccessWindowDoc)),
    guest_passes_per_month: t.Integer(),
    ...saleTermsOut,
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      'A kind of membership the gym sells: recurring (`REC`, billed each `interval`), prepaid (`PRE`,',
      'for its duration) or a benefit (`BEN`); a group type covers several members. `access_hours`',
      "limits when its members get in, on the gym's wall clock. A change applies to what is sold from",
      'then on. Never deleted: retire it with `status: "RET"`.',
    ].join(' '),
  },
)
