import { Elysia, t } from 'elysia'
import { deskCheckIn, type DeskCheckInOutcome } from '../../core/door/desk-check-in.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs, named } from '../../http/docs.ts'
import { jsonResponse } from '../../http/error-handler.ts'
import { messages, notFound, ValidationError } from '../../http/errors.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { RecordId } from '../../http/record-id.ts'
import type { Urls } from '../../http/urls.ts'
import { checkBody } from '../../http/validation.ts'
import { getCheckIn } from '../check-ins/queries.ts'
import { serializeCheckIn } from '../check-ins/serializer.ts'
import { serializeBarcodeCheckIn } from '../door/serializer.ts'
import {
  DeskBarcodeCheckInBody,
  DeskBarcodeNotFound,
  DeskCheckInBody,
  DeskCheckInOut,
  DeskCheckInRefusal,
} from './schema.ts'
import { noticeOut, photoUrl, refusalBody } from './serializer.ts'

const tag = 'Door'
const NO_BARCODE = 'No active customer has this barcode.'

/** The rules both desk check-ins answer by, for their descriptions. */
const DESK_RULES = [
  "The door's decision (see barcode check-in's rules: alerts and the waiver, the duplicate window,",
  'combine-same-day, then `EVE`, `MEM`, `ENT`), recorded as a barcode check-in is: the same row, count,',
  'milestones, pass entry and `check_in` webhook; two requests at once record one check-in. 201 with',
  'the check-in record as `/api/check-ins/` gives it, plus `customer_profile_image_url` (the',
  "customer's photo, null without one), `customer_alerts` (alerts that do not",
  'prevent check-in), `reservations` happening now and `notices`: `last_entry` ("Last entry on this',
  'pass") when the entry taken was the pass\'s last, `membership_ends` ("Membership ends <date>") when a',
  'prepaid membership that let them in ends within 7 days. At a combine-same-day gym a second check-in',
  "the same day answers 201 with the first. A refusal is 400 with the door's `error` code",
  '(`check_in_alerts`, `duplicate_check_in`, `no_entry_method`), `detail` in words, `reasons` (each',
  "`code` and `detail`: `alert` with the alert's own text, `no_waiver`, `waiver_expired` with its",
  '`date`, `membership_frozen`, `outside_access_hours` with the `hours`, `membership_not_started`,',
  '`membership_ended` with its `date`, `membership_payment_failed`, `membership_not_active`,',
  '`pass_used_up`, `pass_expired`, or `no_entry_method` when there is nothing at all), for a duplicate',
  '`inside_since` (the earlier check-in, the gym\'s wall clock; `detail` "Already inside since',
  'HH:MM.") and the customer\'s fields (with `customer_birthday` and `customer_profile_image_url`, so',
  'the card shows their age and photo); a refusal records nothing. A `location_id` naming no gym is 400',
  'on that field.',
].join(' ')

/**
 * The desk's check-ins by the door's rules: by customer id (a customer without their card) and by
 * barcode (the desk's scan), each telling why not in full.
 */
export const deskCheckInRoutes = (deps: Deps) => {
  const respond = async (outcome: DeskCheckInOutcome, urls: Urls, set: { status?: number | string }) => {
    switch (outcome.kind) {
      case 'customer_not_found':
        throw notFound()
      case 'unknown_location':
        throw ValidationError.field('location_id', messages.doesNotExist(outcome.locationId))
      case 'refused':
      case 'duplicate':
        return jsonResponse(400, refusalBody(outcome, urls))
      case 'admitted': {
        set.status = 201
        const door = serializeBarcodeCheckIn(outcome.customer, outcome.checkIn)
        return {
          ...serializeCheckIn((await getCheckIn(deps.db, outcome.checkIn.id))!, urls, deps.clock.now()),
          customer_profile_image_url: photoUrl(outcome.customer, urls),
          customer_alerts: door.customer_alerts,
          reservations: door.reservations,
          notices: outcome.notices.map(noticeOut),
        }
      }
    }
  }
  const checkIn = named('DeskCheckIn', DeskCheckInOut)
  const refusal = {
    description: 'Refused: alerts or the waiver, a duplicate, or no entry method; why, in words',
    json: named('DeskCheckInRefusal', DeskCheckInRefusal),
  }
  return (
    new Elysia()
      // A check-in takes the door's own decision, not the desk's word: like the door's scans, it asks
      // no staff PIN (a PIN for every scan would stop the queue at the desk).
      .use(authenticated(deps, { pin: false }))
      .post(
        '/api/customers/:customer_id/check-in/',
        async ({ params, body, user, urls, set }) => {
          const input = checkBody(DeskCheckInBody, body).valid()
          const outcome = await deskCheckIn(deps, {
            customerId: params.customer_id,
            locationId: input.location_id ?? null,
            user,
          })
          return respond(outcome, urls, set)
        },
        {
          params: t.Object({ customer_id: RecordId() }),
          ...requires('can_manage_members'),
          ...docs({
            tag,
            summary: 'Check a customer in by id (the desk, for a customer without their card)',
            description: whoMay(
              'can_manage_members',
              `${DESK_RULES} 404 for an unknown or deactivated customer.`,
            ),
            body: named('DeskCheckInRequest', DeskCheckInBody),
            ok: { status: 201, schema: checkIn },
            errorBodies: { 400: refusal },
            errors: [404],
            params: { customer_id: "The customer's id" },
          }),
        },
      )
      .post(
        '/api/customers/check-in-by-barcode/',
        async ({ body, user, urls, set }) => {
          const input = checkBody(DeskBarcodeCheckInBody, body).valid()
          const outcome = await deskCheckIn(deps, {
            barcode: input.barcode,
            locationId: input.location_id ?? null,
            user,
          })
          if (outcome.kind === 'customer_not_found')
            return jsonResponse(404, { error: 'customer_not_found', detail: NO_BARCODE })
          return respond(outcome, urls, set)
        },
        {
          ...requires('staff'),
          ...docs({
            tag,
            summary: "The desk's scan: check a customer in by barcode, telling why not in full",
            description: whoMay(
              'staff',
              [
                "The front desk's scan, as barcode check-in but answered as the check-in by id is.",
                DESK_RULES,
                `No active customer with the barcode is 404 \`{"error": "customer_not_found", "detail": "${NO_BARCODE}"}\`.`,
              ].join(' '),
            ),
            body: named('DeskBarcodeCheckInRequest', DeskBarcodeCheckInBody),
            ok: { status: 201, schema: checkIn },
            errorBodies: {
              400: refusal,
              404: {
                description: 'No active customer has the barcode',
                json: named('DeskBarcodeNotFound', DeskBarcodeNotFound),
              },
            },
          }),
        },
      )
  )
}
