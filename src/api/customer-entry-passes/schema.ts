import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'
import { choices } from '../../lib/choices.ts'

export const ACQUIRED_VIA = choices({ purchase: 'Purchase', gift: 'Gift', code: 'Code', manual: 'Manual' })

export const CustomerEntryPassCreate = t.Object({
  entry_pass_id: field.integer({ description: 'The entry pass type' }),
  owner_id: field.integer({ description: 'The customer who holds the pass' }),
  purchaser_id: t.Optional(
    field.nullable(field.integer({ description: 'The customer who paid, if another' })),
  ),
  acquired_via: t.Optional(
    field.choice(ACQUIRED_VIA, { description: 'purchase, gift, code or manual (default)' }),
  ),
  expiry_date: t.Optional(
    field.nullable(
      field.date({
        description:
          "Last day of use; default: the type's valid_days counted from today (organization-local), or none",
      }),
    ),
  ),
})

/** PATCH only: what is left on the pass and until when. The type and the owner cannot change. */
export const CustomerEntryPassUpdate = t.Object({
  entries_remaining: field.integer({ min: 0, description: 'From 0 to entries_total' }),
  expiry_date: field.nullable(field.date()),
  entry_pass_id: field.integer({ description: 'Cannot be changed' }),
  owner_id: field.integer({ description: 'Cannot be changed' }),
})

export const CustomerEntryPassOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    entry_pass_id: t.Integer(),
    entry_pass_name: t.String(),
    entry_pass_url: out.url(),
    owner_id: t.Integer(),
    owner_url: out.url(),
    purchaser_id: field.nullable(t.Integer()),
    purchaser_first_name: field.nullable(t.String()),
    purchaser_last_name: field.nullable(t.String()),
    entries_total: t.Integer(),
    entries_remaining: t.Integer(),
    expiry_date: field.nullable(out.date()),
    is_expired: t.Boolean({ description: "Past the end of expiry_date in the organization's time zone" }),
    acquired_via: t.String(),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      "A customer's entry pass: each check-in that uses it takes one entry, the pass expiring",
      'soonest first, never-expiring ones last.',
    ].join(' '),
  },
)
