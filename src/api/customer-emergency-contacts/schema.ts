import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'
import { timestampsOut } from '../customer-records/schema.ts'

export const EmergencyContactWrite = t.Object({
  first_name: field.text({ maxLength: 150 }),
  last_name: field.text({ maxLength: 150 }),
  telephone: field.text({ maxLength: 64 }),
  // DRF's EmailField(allow_blank=True): a valid address, or "".
  email: t.Optional(t.Union([t.String({ format: 'email', maxLength: 254 }), t.Literal('')])),
  relation: t.Optional(
    field.text({ blank: true, maxLength: 150, description: 'Relation to the customer, free text' }),
  ),
})

export const EmergencyContactOut = t.Object({
  id: out.id(),
  url: out.url(),
  first_name: t.String(),
  last_name: t.String(),
  telephone: t.String(),
  email: t.String(),
  relation: t.String(),
  ...timestampsOut,
})
