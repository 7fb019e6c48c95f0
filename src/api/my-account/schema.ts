import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'
import { PermissionFlagsOut } from '../users/schema.ts'

/** PUT: the editable fields; not-editable ones (email, flags) sent along are ignored, as read-only. */
export const MyAccountReplace = t.Object({
  first_name: t.Optional(field.text({ blank: true, maxLength: 150 })),
  last_name: t.Optional(field.text({ blank: true, maxLength: 150 })),
  default_gym_id: field.integer({ description: 'A gym id' }),
  previous_password: t.Optional(field.secret({ description: 'Required with new_password' })),
  new_password: t.Optional(field.newPassword()),
})

export const ChangePassword = t.Object({
  old_password: t.Optional(
    field.secret({ description: 'The current password (also accepted as previous_password)' }),
  ),
  previous_password: t.Optional(field.secret()),
  new_password: field.newPassword(),
})

export const MyAccountOut = t.Object({
  email: t.String(),
  first_name: t.String(),
  last_name: t.String(),
  organization_name: t.String(),
  default_gym_id: t.Integer(),
  default_gym_name: t.String(),
  default_gym_url: out.url(),
  date_joined: out.datetime(),
  ...PermissionFlagsOut,
  pin_mode: t.Boolean({
    description:
      "The request's session is in PIN mode: each unsafe request names the acting staff member (X-Staff-Email, X-Staff-PIN)",
  }),
  kiosk: t.Boolean({
    description:
      "The request's session is the self check-in kiosk's (POST /api/kiosk/start/): the page shows only the kiosk",
  }),
})
