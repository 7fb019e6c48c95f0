import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'

export const DEFAULT_ALERT_COLOR = 'FF0000'

const alertFields = {
  alert_text: field.text({ description: 'Shown to staff (and at the door)' }),
  color_hex: t.Optional(
    field.pattern('^[0-9A-Fa-f]{6}$', 'Enter a valid color: 6 hexadecimal digits, such as FF0000.', {
      description: `Six hexadecimal digits, no "#"; stored upper case; default ${DEFAULT_ALERT_COLOR}`,
    }),
  ),
  prevents_check_in: t.Optional(
    field.bool({ description: 'True stops check-in while active; default false' }),
  ),
  is_active: t.Optional(field.bool({ description: 'False retires the alert; default true' })),
}

/** Create and PUT take the same fields: alert_text required, the rest defaulted on create. */
export const AlertWrite = t.Object(alertFields)

export const AlertOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    customer_id: t.Integer(),
    alert_text: t.String(),
    color_hex: t.String(),
    prevents_check_in: t.Boolean(),
    is_active: t.Boolean(),
    created_date: t.String({
      format: 'date',
      readOnly: true,
      description: 'Organization-local day it was created',
    }),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      'A note about the customer, shown at the desk. While active, one with `prevents_check_in`',
      'refuses their check-in at the door and the desk, with its text as the reason.',
    ].join(' '),
  },
)
