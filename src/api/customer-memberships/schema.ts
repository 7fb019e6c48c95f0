import { Type as t } from '@sinclair/typebox'
import { ALL_STATUSES } from '../../domain/membership-status.ts'
import { decimalField } from '../../http/decimal.ts'
import { field, out } from '../../http/fields.ts'

const changeable = {
  end_date: t.Optional(
    field.nullable(field.date({ description: 'On or after start_date; null while open' })),
  ),
  billing_location_id: t.Optional(field.nullable(field.integer({ description: 'A gym id, or null' }))),
  has_payment_method: t.Optional(field.bool()),
  is_pending_staff_approval: t.Optional(field.bool()),
  billing_amount: t.Optional(
    decimalField({
      description: 'Next bill total; default: the type price for recurring types, else "0.00"',
    }),
  ),
}

export const CustomerMembershipCreate = t.Object({
  membership_id: field.integer({ description: 'The membership type' }),
  owner_id: field.integer({ description: 'The customer who holds the membership' }),
  start_date: field.date(),
  ...changeable,
  member_ids: t.Optional(
    t.Array(field.integer(), {
      description:
        'Customers covered; default [owner_id]. A type that is not a group type covers exactly its owner.',
    }),
  ),
  add_on_ids: t.Optional(t.Array(t.String(), { description: 'Add-ons applied to every member' })),
  referring_customer_id: t.Optional(field.nullable(field.integer({ description: 'A customer id, or null' }))),
  status: t.Optional(
    field.choice(ALL_STATUSES, { description: `Default ACT; any of ${ALL_STATUSES.join(', ')} (imports)` }),
  ),
})

/**
 * PATCH only. Type, owner and start date are fixed at creation; the status changes through the
 * actions, so each change is recorded with its date.
 */
export const CustomerMembershipUpdate = t.Object({
  ...changeable,
  membership_id: t.Optional(field.integer({ description: 'Cannot be changed' })),
  owner_id: t.Optional(field.integer({ description: 'Cannot be changed' })),
  start_date: t.Optional(field.date({ description: 'Cannot be changed' })),
  status: t.Optional(
    field.choice(ALL_STATUSES, { description: 'Change it with freeze/, unfreeze/ or cancel/' }),
  ),
})

export const MemberAction = t.Object({
  member_id: t.Optional(
    field.nullable(
      field.integer({ description: 'One member (a customer id) instead of the whole membership' }),
    ),
  ),
})

export const NoBody = t.Object({})

const MemberOut = t.Object({
  customer_id: t.Integer(),
  customer_url: out.url(),
  first_name: t.String(),
  last_name: t.String(),
  is_frozen: t.Boolean(),
  add_ons: t.Array(t.Object({ id: t.String(), name: t.String() })),
})

const StatusChangeOut = t.Object({
  from_status: field.nullable(t.String()),
  to_status: t.String(),
  changed_on: out.date(),
  member_customer_id: field.nullable(t.Integer()),
})

export const CustomerMembershipOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    membership_id: t.Integer({ description: 'The membership type' }),
    membership_name: t.String(),
    membership_url: out.url(),
    owner_id: t.Integer(),
    owner_url: out.url(),
    owner_first_name: t.String(),
    owner_last_name: t.String(),
    status: t.String(),
    start_date: out.date(),
    end_date: field.nullable(out.date()),
    billing_location_id: field.nullable(t.Integer()),
    billing_location_name: field.nullable(t.String()),
    billing_location_url: field.nullable(out.url()),
    has_payment_method: t.Boolean(),
    is_pending_staff_approval: t.Boolean(),
    billing_amount: t.String(),
    referring_customer_id: field.nullable(t.Integer()),
    members: t.Array(MemberOut),
    status_history: t.Array(StatusChangeOut, { description: 'Oldest first' }),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      'A membership a customer holds (the owner) and the customers it covers (its members). Its',
      'status changes only through `freeze/`, `unfreeze/` and `cancel/`, each kept in `status_history`.',
      "A recurring membership's `end_date` is its next bill date.",
    ].join(' '),
  },
)
