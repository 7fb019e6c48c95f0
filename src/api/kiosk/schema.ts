import { Type as t } from '@sinclair/typebox'
import { field } from '../../http/fields.ts'

export const PIN_LENGTHS = '4 to 6 digits'

/** PUT /api/customers/<id>/kiosk-pin/ */
export const KioskPinBody = t.Object({
  pin: field.pattern('^[0-9]{4,6}$', `Enter a PIN of ${PIN_LENGTHS}.`, {
    description: `Write-only; ${PIN_LENGTHS}`,
  }),
})

export const KioskPinOut = t.Object({
  has_kiosk_pin: t.Boolean({ description: 'The customer has a PIN for the self check-in kiosk' }),
})

/** POST /api/kiosk/start/ takes nothing. */
export const KioskStartBody = t.Object({})

/** POST /api/kiosk/check-in/: a card, or a telephone number and PIN. */
export const KioskCheckInBody = t.Object({
  barcode: t.Optional(field.text({ maxLength: 255, description: 'The card scanned' })),
  telephone: t.Optional(
    field.text({ maxLength: 40, description: 'A telephone number, matched by its digits (with pin)' }),
  ),
  pin: t.Optional(field.text({ maxLength: 40, description: "The customer's kiosk PIN (with telephone)" })),
  location_id: t.Optional(field.integer({ description: 'A gym id; default as for the door endpoints' })),
})

export const KIOSK_OUTCOMES = [
  'admitted',
  'already_inside',
  'refused',
  'unknown_card',
  'wrong_pin',
  'see_desk',
  'throttled',
] as const

/** Every answer the kiosk's screen shows: nothing about the customer but their first name. */
export const KioskAnswer = t.Object({
  outcome: field.choice(KIOSK_OUTCOMES),
  light: field.choice(['green', 'amber', 'red'], { description: 'The colour the screen shows' }),
  first_name: field.nullable(t.String({ description: "The customer's first name; null when not known" })),
  message: t.String({ description: 'The big line, e.g. "Welcome, Lynn!" or "Please see the front desk"' }),
  details: t.Array(t.String(), {
    description: "The lines beneath it, in words: a refusal's reasons, an admission's notices",
  }),
})

export const KioskStarted = t.Object({
  kiosk: t.Literal(true),
})
