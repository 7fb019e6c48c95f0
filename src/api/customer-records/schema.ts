import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'

/** The writable fields credits and event vouchers share. */
export const expiryWrite = {
  expiry_date: t.Optional(
    field.nullable(
      field.date({ description: 'Last day of use (through the end of that day); null: no expiry' }),
    ),
  ),
  is_removed: t.Optional(field.bool({ description: 'Set true instead of deleting' })),
}

/** The read-only fields credits and event vouchers share. */
export const expiryOut = {
  expiry_date: field.nullable(out.date()),
  expiry_date_str: t.String({ readOnly: true, description: 'e.g. "Dec 31, 2026"; "Never" when null' }),
  is_expired: t.Boolean({ readOnly: true }),
  is_removed: t.Boolean(),
  created_by_id: field.nullable(t.Integer({ readOnly: true })),
  created_by_email: field.nullable(t.String({ readOnly: true })),
  date_added_str: t.String({ readOnly: true, description: 'Creation day, e.g. "Nov 22, 2026"' }),
}

export const timestampsOut = { created_at: out.datetime(), updated_at: out.datetime() }
