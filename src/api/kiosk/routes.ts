import { Elysia, t } from 'elysia'
import { startKioskSession } from '../../core/auth/sessions.ts'
import { KIOSK_TELEPHONE_MAX_FAILURES } from '../../core/auth/pins.ts'
import { deskCheckIn } from '../../core/door/desk-check-in.ts'
import type { Deps } from '../../deps.ts'
import { authenticated, kioskOnly } from '../../http/auth.ts'
import { docs, named, paragraphs } from '../../http/docs.ts'
import { jsonResponse } from '../../http/error-handler.ts'
import { ApiError, messages, notFound, ValidationError } from '../../http/errors.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { RecordId } from '../../http/record-id.ts'
import { checkBody } from '../../http/validation.ts'
import { hashTokenKey } from '../../lib/secrets.ts'
import { customerExists } from '../customers/queries.ts'
import { deleteKioskPin, ENDING_DIGITS, hasKioskPin } from './queries.ts'
import { checkKioskPin, pinMessages, setKioskPin } from './rules.ts'
import {
  KioskAnswer,
  KioskCheckInBody,
  KioskPinBody,
  KioskPinOut,
  KioskStartBody,
  KioskStarted,
  PIN_LENGTHS,
} from './schema.ts'
import {
  ALERT_AT_KIOSK,
  kioskCheckInAnswer,
  sharedPin,
  tooManyTries,
  unknownCard,
  wrongPin,
} from './serializer.ts'

const TAG = 'Kiosk'
const PIN_PATH = '/api/customers/:customer_id/kiosk-pin/'
const params = t.Object({ customer_id: RecordId() })
const paramDocs = { customer_id: "The customer's id" }

export const kioskMessages = {
  nothing: 'Scan a card, or enter a phone number and PIN.',
  both: 'Send a card, or a phone number and PIN, not both.',
  notASession: "Only a browser session can become a kiosk: start it from the desk page's Kiosk screen.",
}

/** The body: a card, or a telephone number and PIN, each field's own errors first. */
function checkKioskCheckIn(body: unknown) {
  const checked = checkBody(KioskCheckInBody, body)
  const given = (field: 'barcode' | 'telephone' | 'pin') =>
    checked.fields[field] !== undefined || checked.errors.has(field)
  if (!given('barcode') && !given('telephone') && !given('pin'))
    checked.errors.add('non_field_errors', kioskMessages.nothing)
  else if (given('barcode') && (given('telephone') || given('pin')))
    checked.errors.add('non_field_errors', kioskMessages.both)
  else if (!given('barcode')) {
    if (!given('telephone')) checked.errors.add('telephone', messages.required)
    if (!given('pin')) checked.errors.add('pin', messages.required)
  }
  return checked.valid()
}

const KIOSK_RULES = paragraphs([
  'The self check-in kiosk: a screen at the entrance where customers check themselves in.',
  "`POST /api/kiosk/start/` turns the browser session that calls it into the kiosk's. From then",
  'on that session may call only `POST /api/kiosk/check-in/`, `POST /api/kiosk/start/`,',
  '`GET /api/my-account/` (which says `kiosk: true`) and `POST /api/logout/`; anything else,',
  `known route or not, is \`403 {"detail": "${kioskOnly}"}\`, so a customer at the`,
  "tablet cannot use the staff API with the session. It stays a kiosk's until it ends (logout, its",
  'idle time or maximum age) or a staff member logs in on the same browser (`POST /api/login/`),',
  'which replaces it. Only a session can be turned (a token is',
  `\`403 {"detail": "${kioskMessages.notASession}"}\`). Answers 200 \`{"kiosk": true}\`.`,
])

const CHECK_IN_RULES = paragraphs(
  [
    'A customer checks themselves in: `{"barcode": "..."}` for a card, or `{"telephone": "...",',
    '"pin": "..."}` for the PIN set at the desk (`PUT /api/customers/{customer_id}/kiosk-pin/`). The',
    "decision and the record are the desk's check-in's (`/api/customers/check-in-by-barcode/`): the",
    "door's rules, duplicate window, webhooks; two requests at once record one check-in. It asks no",
    'staff PIN, in PIN mode or not.',
  ],
  [
    'The telephone is matched by its digits alone ("(303) 555-0182" is 3035550182), whole, or as',
    `the end of a customer's number when ${ENDING_DIGITS} or more digits are given (a number typed`,
    'without its country code), among active customers with a kiosk PIN; a family sharing a phone',
    'is told apart by their PINs.',
  ],
  [
    "Every answer has the screen's shape, `outcome`, `light`, `first_name`, `message` and",
    '`details`, and says nothing else of the customer (the queue can read it): 201 `admitted`',
    '(green, "Welcome, Lynn!", with the notices: "Last entry on this pass", "Membership ends',
    '<date>"); 400 `already_inside` (amber, "Already inside since HH:MM.") and `refused` (red,',
    `"Please see the front desk, Lynn", with the desk's reasons in words, except that an alert's own`,
    `text is for staff: it is "${ALERT_AT_KIOSK}"); 404 \`unknown_card\` for a barcode no active`,
    'customer has; 400 `wrong_pin` for a telephone and PIN that match nobody (a number nobody has',
    'is as wrong, and takes as long); 400 `see_desk` when one PIN matches two people.',
  ],
  [
    `Wrong PINs are throttled: ${KIOSK_TELEPHONE_MAX_FAILURES} per telephone number and 20 per kiosk (session or token) within`,
    '15 minutes, then 429 `throttled` with `Retry-After`, "Too many wrong PINs", "Please see the front',
    'desk, or try again in N minutes.". Bad input is DRF\'s 400: nothing sent is',
    `\`{"non_field_errors": ["${kioskMessages.nothing}"]}\`, a card and a number`,
    `\`{"non_field_errors": ["${kioskMessages.both}"]}\`, a number without a PIN (or a PIN`,
    'without a number) `This field is required.` on the missing one, a `location_id` naming no gym',
    'that field.',
  ],
)

/**
 * The self check-in kiosk: customers' kiosk PINs (set at the desk), the kiosk's check-in (a card,
 * or a telephone number and PIN), and turning a browser session into the kiosk's.
 */
export const kioskRoutes = (deps: Deps) => {
  const answer = { description: "The kiosk's answer", json: named('KioskAnswer', KioskAnswer) }
  return (
    new Elysia()
      // A check-in takes the door's decision, not a staff member's: no staff PIN, as the desk's.
      .use(
        new Elysia().use(authenticated(deps, { pin: false })).post(
          '/api/kiosk/check-in/',
          async ({ body, user, credential, set }) => {
            const input = checkKioskCheckIn(body)
            const locationId = input.location_id ?? null
            let request: { barcode: string } | { customerId: number }
            if (input.barcode !== undefined) request = { barcode: input.barcode }
            else {
              const found = await checkKioskPin(
                deps,
                input.telephone!,
                input.pin!,
                `${credential.kind}:${hashTokenKey(credential.key)}`,
              )
              if ('error' in found) {
                switch (found.error) {
                  case 'throttled':
                    await deps.loginGate.pauseBeforeRefusal()
                    return jsonResponse(429, tooManyTries(found.retryAfter), {
                      'Retry-After': String(found.retryAfter),
                    })
                  case 'shared':
                    return jsonResponse(400, sharedPin())
                  case 'wrong':
                    return jsonResponse(400, wrongPin())
                }
              }
              request = { customerId: found.customerId }
            }
            const outcome = await deskCheckIn(deps, { ...request, locationId, user })
            if (outcome.kind === 'customer_not_found') return jsonResponse(404, unknownCard())
            if (outcome.kind === 'unknown_location')
              throw ValidationError.field('location_id', messages.doesNotExist(outcome.locationId))
            const { status, body: out } = kioskCheckInAnswer(outcome)
            if (status !== 201) return jsonResponse(status, out)
            set.status = 201
            return out
          },
          {
            ...requires('staff'),
            ...docs({
              tag: TAG,
              summary: 'Self check-in at the kiosk: a card, or a phone number and PIN',
              description: whoMay('staff', CHECK_IN_RULES),
              body: named('KioskCheckInRequest', KioskCheckInBody),
              ok: { status: 201, schema: named('KioskAnswer', KioskAnswer) },
              errorBodies: {
                400: answer,
                404: answer,
                429: {
                  description: 'Too many wrong PINs: wait Retry-After seconds',
                  json: named('KioskAnswer', KioskAnswer),
                },
              },
            }),
          },
        ),
      )
      .use(
        new Elysia()
          .use(authenticated(deps))
          .post(
            '/api/kiosk/start/',
            async ({ body, credential }) => {
              checkBody(KioskStartBody, body).valid()
              if (credential.kind !== 'session')
                throw new ApiError(403, { detail: kioskMessages.notASession })
              await startKioskSession(deps, credential.key)
              return { kiosk: true as const }
            },
            {
              ...requires('can_manage_members'),
              ...docs({
                tag: TAG,
                summary: "Turn this browser session into the self check-in kiosk's",
                description: whoMay('can_manage_members', KIOSK_RULES),
                body: named('KioskStartRequest', KioskStartBody),
                ok: { status: 200, schema: named('KioskStarted', KioskStarted) },
              }),
            },
          )
          .get(
            PIN_PATH,
            async ({ params }) => {
              if (!(await customerExists(deps.db, params.customer_id))) throw notFound()
              return { has_kiosk_pin: await hasKioskPin(deps.db, params.customer_id) }
            },
            {
              params,
              ...requires('can_manage_members'),
              ...docs({
                tag: TAG,
                summary: 'Whether a customer has a kiosk PIN',
                description: whoMay(
                  'can_manage_members',
                  'The PIN itself is never shown: only whether there is one. 404 for an unknown customer.',
                ),
                ok: { status: 200, schema: named('KioskPin', KioskPinOut) },
                errors: [404],
                params: paramDocs,
              }),
            },
          )
          .put(
            PIN_PATH,
            async ({ params, body }) => {
              const input = checkBody(KioskPinBody, body).valid()
              await setKioskPin(deps, params.customer_id, input.pin)
              return { has_kiosk_pin: true }
            },
            {
              params,
              ...requires('can_manage_members'),
              ...docs({
                tag: TAG,
                summary: "Set a customer's kiosk PIN (self check-in by phone number and PIN)",
                description: whoMay(
                  'can_manage_members',
                  [
                    `\`{"pin": "1234"}\`: ${PIN_LENGTHS} (else \`Enter a PIN of ${PIN_LENGTHS}.\` on \`pin\`),`,
                    'replacing any earlier one. It is kept as an argon2id hash and never shown. The kiosk asks',
                    "for it with the customer's telephone number, so a customer without one is refused",
                    `(\`${pinMessages.noTelephone}\`), and so is a PIN someone else with the same number`,
                    `has (\`${pinMessages.shared}\`), both on \`pin\`. 200 \`{"has_kiosk_pin": true}\`; 404`,
                    'for an unknown customer.',
                  ].join(' '),
                ),
                body: named('KioskPinRequest', KioskPinBody),
                ok: { status: 200, schema: named('KioskPin', KioskPinOut) },
                errors: [404],
                params: paramDocs,
              }),
            },
          )
          .delete(
            PIN_PATH,
            async ({ params, set }) => {
              if (!(await customerExists(deps.db, params.customer_id))) throw notFound()
              if (!(await deleteKioskPin(deps.db, params.customer_id))) throw notFound()
              set.status = 204
            },
            {
              params,
              ...requires('can_manage_members'),
              ...docs({
                tag: TAG,
                summary: "Remove a customer's kiosk PIN",
                description: whoMay(
                  'can_manage_members',
                  '204 with no body; the customer can then check in at the kiosk only with a card. 404 for an unknown customer or one without a PIN.',
                ),
                ok: { status: 204, schema: null },
                errors: [404],
                params: paramDocs,
              }),
            },
          ),
      )
  )
}
