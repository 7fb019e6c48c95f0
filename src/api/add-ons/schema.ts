import { Type as t } from '@sinclair/typebox'
import { decimalField } from '../../http/decimal.ts'
import { field, out } from '../../http/fields.ts'
import { saleTermsWrite } from '../tax-rates/schema.ts'

export const ADD_ON_ID_MAX_LENGTH = 64
export const slugMessage = 'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.'
export const colorMessage = 'Enter a colour as 6 hexadecimal digits, such as 1E90FF, or leave it empty.'

const byLocation = (values: Record<string, unknown>, description: string) => ({
  type: 'object',
  additionalProperties: values,
  description,
})

/** The fields of an add-on a request may set; `id` only on creation (it cannot change after). */
export const AddOnWrite = t.Object({
  id: t.Optional(
    t.String({
      pattern: '^[A-Za-z0-9_-]+$',
      maxLength: ADD_ON_ID_MAX_LENGTH,
      'x-drf-message': slugMessage,
      description: 'Optional on creation (a slug of the name when absent); cannot change after',
    }),
  ),
  name: field.text({ maxLength: 255 }),
  fee: t.Optional(decimalField({ description: 'At least 0; "0.00" unless given' })),
  is_visible: t.Optional(field.bool()),
  icon_color_hex: t.Optional(
    field.pattern('^([0-9A-Fa-f]{6})?$', colorMessage, { description: '6 hex digits, or empty' }),
  ),
  icon_initials: t.Optional(field.text({ blank: true, maxLength: 4 })),
  // Checked by rules.ts (keys must be gym ids), documented here.
  revenue_account_codes: t.Optional(
    t.Unknown(byLocation({ type: 'string' }, 'Location id -> revenue account code; {} unless given')),
  ),
  tax_rate_id: saleTermsWrite.tax_rate_id,
  tax_rate_per_location: t.Optional(
    t.Unknown({
      anyOf: [
        byLocation({ type: 'string' }, 'Location id -> tax rate (a decimal such as "0.0825")'),
        { type: 'null' },
      ],
    }),
  ),
})

export const AddOnOut = t.Object(
  {
    id: t.String({ readOnly: true }),
    url: out.url(),
    name: t.String(),
    fee: t.String(),
    is_visible: t.Boolean(),
    icon_color_hex: t.String(),
    icon_initials: t.String(),
    revenue_account_codes: t.Record(t.String(), t.String()),
    tax_rate_id: field.nullable(t.Integer()),
    tax_rate_per_location: field.nullable(t.Record(t.String(), t.Union([t.String(), t.Number()]))),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      'An extra a membership carries for each member (a locker), named by a text id that never changes.',
    ].join(' '),
  },
)
