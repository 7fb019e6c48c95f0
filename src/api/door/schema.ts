import { Type as t } from '@sinclair/typebox'
import { field } from '../../http/fields.ts'

/** The optional body of the door endpoints. */
export const DoorBody = t.Object({
  location_id: t.Optional(
    field.integer({
      description: "A gym id; default: the organization's only gym, else the requesting user's default gym",
    }),
  ),
})

export const AlertOut = t.Object({
  alert_text: t.String(),
  created_date: t.String({ format: 'date' }),
  color_hex: t.String(),
  prevents_check_in: t.Boolean(),
})

export const ReservationOut = t.Object({
  id: t.Integer(),
  event_id: t.Integer(),
  event_name: t.String(),
  start_datetime: t.String({ format: 'date-time' }),
  end_datetime: t.String({ format: 'date-time' }),
})

export const BarcodeCheckInOut = t.Object({
  id: t.Integer(),
  customer_id: t.Integer(),
  customer_first_name: t.String(),
  customer_last_name: t.String(),
  customer_email: field.nullable(t.String()),
  entry_method: t.String(),
  entry_method_description: t.String(),
  milestones: t.String({ description: 'Milestone texts separated by a newline; empty if none' }),
  check_in_count: t.Integer(),
  has_any_automatic_check_ins: t.Boolean(),
  has_any_challenges_completed: t.Boolean(),
  customer_alerts: t.Array(AlertOut),
  reservations: t.Array(ReservationOut),
  association_memberships_pending_reverification: t.Array(t.Object({})),
})

const refusedCustomer = {
  customer_id: t.Integer(),
  customer_first_name: t.String(),
  customer_last_name: t.String(),
  customer_email: field.nullable(t.String()),
}

/** Barcode check-in's 400: why not, and whom it was for. */
export const BarcodeCheckInRefusal = t.Object({
  error: field.choice(['check_in_alerts', 'duplicate_check_in', 'no_entry_method']),
  alerts: t.Optional(t.Array(t.String(), { description: 'For check_in_alerts: the reasons to show' })),
  ...refusedCustomer,
})

/** Barcode check-in's 404: no customer fields. */
export const BarcodeCheckInNotFound = t.Object({
  error: field.choice(['customer_not_found', 'invalid_location']),
})

const LookUpCustomer = t.Object({
  id: t.Integer(),
  first_name: t.String(),
  last_name: t.String(),
  birthday: t.String({ format: 'date' }),
  profile_image_url: field.nullable(t.String({ format: 'uri' })),
  profile_image_small_url: field.nullable(t.String({ format: 'uri' })),
})

export const LookUpOut = t.Object({ customer: LookUpCustomer })

/** Look-up's `error` texts. */
export const lookUpError = {
  notFound: 'No customer matching barcode.',
  noMembership: 'This customer does not have a membership.',
  notActive: "This customer's membership is not active.",
} as const

/** Look-up's 400: the customer, and why they are not an active member. */
export const LookUpRefusal = t.Object({
  customer: LookUpCustomer,
  error: field.choice([lookUpError.noMembership, lookUpError.notActive]),
})

export const LookUpNotFound = t.Object({ error: t.Literal(lookUpError.notFound) })

export const FreeEntryBody = t.Object({
  free_entry_reason: field.text({ maxLength: 255, description: 'Why entry is free (kept on the check-in)' }),
  location_id: t.Optional(field.integer({ description: 'A gym id; default as for the door endpoints' })),
})

export const GuestBody = t.Object({
  host_customer_id: field.integer({ description: 'The member whose guest pass is used' }),
  location_id: t.Optional(field.integer({ description: 'A gym id; default as for the door endpoints' })),
})
