import { Type as t } from '@sinclair/typebox'
import { field } from '../../http/fields.ts'
import { CheckInOut } from '../check-ins/schema.ts'
import { AlertOut, ReservationOut } from '../door/schema.ts'

/** By id: the optional body, as the door's. */
export const DeskCheckInBody = t.Object({
  location_id: t.Optional(field.integer({ description: 'A gym id; default as for the door endpoints' })),
})

/** By barcode: the scanned barcode in the body (any characters, no escaping in a path). */
export const DeskBarcodeCheckInBody = t.Object({
  barcode: field.text({ maxLength: 255, description: 'The barcode scanned or typed' }),
  location_id: t.Optional(field.integer({ description: 'A gym id; default as for the door endpoints' })),
})

const Notice = t.Object({
  code: field.choice(['last_entry', 'membership_ends']),
  detail: t.String({ description: 'The notice in the desk\'s words, e.g. "Membership ends 2026-12-06"' }),
})

/** The customer's photo for the card: the desk shows it after the card, never waiting for it. */
const CustomerPhotoUrl = field.nullable(
  t.String({
    format: 'uri',
    description:
      "The customer's `profile_image_url` (their photo, served to staff); null when they have none",
  }),
)

/** 201: the check-in record, with what the desk's card shows beside it. */
export const DeskCheckInOut = t.Object({
  ...CheckInOut.properties,
  check_in_count: t.Integer({
    description: "The customer's count including this one (1 = first ever): a check-in just made has one",
  }),
  customer_profile_image_url: CustomerPhotoUrl,
  customer_alerts: t.Array(AlertOut, { description: "The customer's alerts that do not prevent check-in" }),
  reservations: t.Array(ReservationOut, { description: 'Reservations happening now (UTC times)' }),
  notices: t.Array(Notice),
})

export const REASON_CODES = [
  'alert',
  'no_waiver',
  'waiver_expired',
  'membership_frozen',
  'outside_access_hours',
  'membership_not_started',
  'membership_ended',
  'membership_payment_failed',
  'membership_not_active',
  'pass_used_up',
  'pass_expired',
  'no_entry_method',
] as const

const Reason = t.Object({
  code: field.choice(REASON_CODES),
  detail: t.String({ description: "The reason in the desk's words; for `alert`, the alert's own text" }),
  date: t.Optional(
    t.String({
      format: 'date',
      description:
        'waiver_expired, pass_expired: the expiry; membership_ended: its end; not_started: its start',
    }),
  ),
  hours: t.Optional(t.String({ description: 'outside_access_hours: the hours the membership lets in' })),
})

/** 400: the door's code, the desk's words, each reason, and whom it was for. */
export const DeskCheckInRefusal = t.Object({
  error: field.choice(['check_in_alerts', 'duplicate_check_in', 'no_entry_method']),
  detail: t.String(),
  reasons: t.Array(Reason),
  inside_since: t.Optional(
    t.String({ description: "duplicate_check_in: the earlier check-in, the gym's wall clock" }),
  ),
  customer_id: t.Integer(),
  customer_first_name: t.String(),
  customer_last_name: t.String(),
  customer_email: field.nullable(t.String()),
  customer_birthday: field.nullable(t.String({ format: 'date' })),
  customer_profile_image_url: CustomerPhotoUrl,
})

export const DeskBarcodeNotFound = t.Object({
  error: t.Literal('customer_not_found'),
  detail: t.String(),
})
