import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'

const flags = {
  is_active: field.bool({ description: 'False removes access instead of deleting' }),
  can_manage_events: field.bool(),
  can_manage_members: field.bool(),
  can_manage_customer_proficiencies: field.bool(),
  can_export_customers: field.bool(),
  can_access_reports: field.bool(),
  is_organization_admin: field.bool(),
}

const optional = {
  first_name: t.Optional(field.text({ blank: true, maxLength: 150 })),
  last_name: t.Optional(field.text({ blank: true, maxLength: 150 })),
  pin_mode_required: t.Optional(field.bool()),
  can_manage_climbs: t.Optional(
    field.bool({ description: 'Write grades, sections and climbs (route setting); default false' }),
  ),
  password: t.Optional(field.newPassword()),
  pin: t.Optional(
    field.pattern('^[0-9]{4,8}$', 'Enter a PIN of 4 to 8 digits.', {
      description: 'Write-only; 4 to 8 digits',
    }),
  ),
}

export const UserCreate = t.Object({
  email: field.email(),
  default_gym_id: field.integer({ description: 'A gym id' }),
  ...flags,
  ...optional,
})

/** PUT: the same fields; `email` may be sent but cannot change. */
export const UserReplace = t.Object({
  email: t.Optional(field.email({ description: 'Cannot be changed after creation' })),
  default_gym_id: field.integer({ description: 'A gym id' }),
  ...flags,
  ...optional,
})

/** The permission flags as both the staff user and my-account show them (permissionFlags in serializer.ts). */
export const PermissionFlagsOut = {
  can_manage_events: t.Boolean(),
  can_manage_members: t.Boolean(),
  can_manage_customer_proficiencies: t.Boolean(),
  can_export_customers: t.Boolean(),
  can_access_reports: t.Boolean(),
  can_manage_climbs: t.Boolean(),
  is_organization_admin: t.Boolean(),
  pin_mode_required: t.Boolean(),
}

export const UserOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    email: t.String(),
    first_name: t.String(),
    last_name: t.String(),
    default_gym_id: t.Integer(),
    default_gym_name: t.String(),
    default_gym_url: out.url(),
    date_joined: out.datetime(),
    is_active: t.Boolean(),
    ...PermissionFlagsOut,
    has_password: t.Boolean(),
    has_pin: t.Boolean(),
  },
  {
    description: [
      'A staff account: who may log in, and the permission flags that decide what they may do.',
      'Never deleted: deactivate it with `is_active: false`.',
    ].join(' '),
  },
)

export const PinHolderOut = t.Object(
  {
    id: out.id(),
    name: t.String({ description: '"First Last", or the email of a user with no name' }),
    email: t.String({ description: 'What the prompt sends in `X-Staff-Email`' }),
  },
  { description: 'A staff member who can act in PIN mode, as the PIN prompt offers them.' },
)
