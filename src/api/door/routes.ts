import { Elysia, t } from 'elysia'
import { lookUpMember, type LookUpOutcome } from '../../core/door/look-up.ts'
import { checkInByBarcode, type DoorOutcome } from '../../core/door/record.ts'
import { freeEntryCheckIn, guestCheckIn, type StaffCheckInOutcome } from '../../core/door/staff-check-ins.ts'
import type { StaffUser } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs, named } from '../../http/docs.ts'
import { jsonResponse } from '../../http/error-handler.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { RecordId } from '../../http/record-id.ts'
import { checkBody } from '../../http/validation.ts'
import {
  BarcodeCheckInNotFound,
  BarcodeCheckInOut,
  BarcodeCheckInRefusal,
  DoorBody,
  FreeEntryBody,
  GuestBody,
  lookUpError,
  LookUpNotFound,
  LookUpOut,
  LookUpRefusal,
} from './schema.ts'
import { getCheckIn } from '../check-ins/queries.ts'
import { CheckInOut } from '../check-ins/schema.ts'
import { serializeCheckIn } from '../check-ins/serializer.ts'
import { messages, notFound, ValidationError } from '../../http/errors.ts'
import type { Urls } from '../../http/urls.ts'
import { serializeLookUpCustomer } from './serializer.ts'
import {
  alertPrevents,
  alreadyCheckedIn,
  barcodeResponse,
  doorTextBodies,
  noGuestPassesLeft,
  noGuestPassMembership,
  openDoorScan,
  outcomeLabel,
  ownGuest,
  duplicateWindowMinutes,
} from './answers.ts'
import { guestCheckInRules, notRecordedRule, whoIsLetIn } from './descriptions.ts'

const tag = 'Door'
/**
 * Elysia reads a path segment whose percent escapes are not UTF-8 (`%ff`, a lone `%`) as null. No
 * barcode is spelled that way (a barcode's own `%` is sent as `%25`), so such a scan is of an
 * unknown barcode and gets the door's own 404, not the generic one of a malformed record id.
 */
const barcodeParams = t.Object({ barcode: t.Union([t.String(), t.Null()]) })
const barcodeParamDocs = { barcode: "The customer's barcode" }
const customerParamDocs = { customer_id: "The customer's id" }
/** The door's optional body: without one, the default location. */
const doorRequest = named('DoorRequest', DoorBody)
const checkIn = named('CheckIn', CheckInOut)

/** The door endpoints: what door controllers and the front desk call with a barcode. */
export const doorRoutes = (deps: Deps) => {
  const decisions = deps.monitoring.registry.counter(
    'belay_door_decisions_total',
    'Door scans decided, by endpoint and outcome (admitted, or why not)',
    ['endpoint', 'outcome'],
  )
  /** Counted after the scan's own await: the count adds none to the door's answer. */
  const counted = (endpoint: 'barcode-check-in' | 'open-door-check-in', outcome: DoorOutcome) => {
    decisions.inc([endpoint, outcomeLabel(outcome)])
    return outcome
  }
  const scan = (barcode: string | null, body: unknown, user: StaffUser): Promise<DoorOutcome> => {
    const { location_id } = checkBody(DoorBody, body).valid()
    if (barcode === null) return Promise.resolve({ kind: 'customer_not_found' })
    return checkInByBarcode(deps, { barcode, locationId: location_id ?? null, user })
  }
  /**
   * 201 with the new check-in's record; 404 when the customer is unknown or deactivated; a refusal
   * is a 400 on the field it concerns.
   */
  const staffCheckInResponse = async (
    outcome: StaffCheckInOutcome,
    urls: Urls,
    set: { status?: number | string },
  ) => {
    switch (outcome.kind) {
      case 'checked_in':
        set.status = 201
        return serializeCheckIn((await getCheckIn(deps.db, outcome.id))!, urls, deps.clock.now())
      case 'customer_not_found':
        throw notFound()
      case 'unknown_location':
        throw ValidationError.field('location_id', messages.doesNotExist(outcome.locationId))
      case 'unknown_host':
        throw ValidationError.field('host_customer_id', messages.doesNotExist(outcome.hostCustomerId))
      case 'own_guest':
        throw ValidationError.field('host_customer_id', ownGuest)
      case 'duplicate':
        throw new ValidationError({ non_field_errors: [alreadyCheckedIn] })
      case 'check_in_alerts':
        throw new ValidationError({ non_field_errors: outcome.alerts.map(alertPrevents) })
      case 'no_guest_pass_membership':
        throw ValidationError.field('host_customer_id', noGuestPassMembership)
      case 'no_guest_passes_left':
        throw ValidationError.field('host_customer_id', noGuestPassesLeft)
    }
  }
  const customerParams = t.Object({ customer_id: RecordId() })
  // The desk's own check-ins: edits, which a PIN-mode desk makes as the staff member acting.
  const deskCheckIns = new Elysia()
    .use(authenticated(deps))
    .post(
      '/api/gym-endpoints/free-entry-check-in/:customer_id/',
      async ({ params, body, user, urls, set }) => {
        const input = checkBody(FreeEntryBody, body).valid()
        const outcome = await freeEntryCheckIn(deps, {
          customerId: params.customer_id,
          locationId: input.location_id ?? null,
          user,
          reason: input.free_entry_reason,
        })
        return staffCheckInResponse(outcome, urls, set)
      },
      {
        params: customerParams,
        ...requires('can_manage_members'),
        ...docs({
          tag,
          summary: 'Let a customer in free (staff): entry method FRE, with the reason and the granting user',
          description: whoMay(
            'can_manage_members',
            [
              'Records a check-in with entry method `FRE`, the `free_entry_reason` and the granting user,',
              "whatever the customer's entry methods or alerts; 201 with the check-in record. 404 for an",
              'unknown or deactivated customer; a `location_id` naming no gym is 400 on that field.',
            ].join(' '),
          ),
          body: named('FreeEntryRequest', FreeEntryBody),
          ok: { status: 201, schema: checkIn },
          errors: [404],
          params: customerParamDocs,
        }),
      },
    )
    .post(
      '/api/gym-endpoints/guest-check-in/:customer_id/',
      async ({ params, body, user, urls, set }) => {
        const input = checkBody(GuestBody, body).valid()
        const outcome = await guestCheckIn(deps, {
          customerId: params.customer_id,
          locationId: input.location_id ?? null,
          user,
          hostCustomerId: input.host_customer_id,
        })
        return staffCheckInResponse(outcome, urls, set)
      },
      {
        params: customerParams,
        ...requires('can_manage_members'),
        ...docs({
          tag,
          summary: "Check a guest in on a member's guest pass (staff): entry method GUE",
          description: whoMay('can_manage_members', guestCheckInRules),
          body: named('GuestCheckInRequest', GuestBody),
          ok: { status: 201, schema: checkIn },
          errors: [404],
          params: customerParamDocs,
        }),
      },
    )
  // The scans and the look-up are the door's: no PIN, whoever is signed in.
  const door = new Elysia()
    .use(authenticated(deps, { pin: false }))
    .post(
      '/api/gym-endpoints/barcode-check-in/:barcode/',
      async ({ params, body, user }) =>
        barcodeResponse(counted('barcode-check-in', await scan(params.barcode, body, user))),
      {
        params: barcodeParams,
        ...requires('staff'),
        ...docs({
          tag,
          summary: 'Check a customer in by barcode',
          description: whoMay(
            'staff',
            [
              whoIsLetIn,
              [
                "The desk's scan. 200 with the check-in: `id`, the customer's `customer_*` fields, `entry_method`",
                'and its description, `milestones` (`1st check-in`, `10th check-in`, …, joined by newlines),',
                "`check_in_count` and the customer's `customer_alerts`. `reservations` lists the reservations",
                'happening now (UTC times); `has_any_automatic_check_ins` is true when this check-in checked a',
                'reservation in; `has_any_challenges_completed` is false and',
                '`association_memberships_pending_reverification` `[]` (the appliance keeps neither). A refusal',
                'is 400 with `error` (`check_in_alerts`, with `alerts` to show; `duplicate_check_in`;',
                "`no_entry_method`) and the customer's fields; an unknown customer or location is 404 with",
                '`error` alone (`customer_not_found`, `invalid_location`).',
                `${notRecordedRule} It is answered with the API's DRF 503.`,
              ].join(' '),
            ].join('\n\n'),
          ),
          body: doorRequest,
          ok: { status: 200, schema: named('BarcodeCheckIn', BarcodeCheckInOut) },
          errorBodies: {
            400: {
              description: 'Refused: alerts, a duplicate scan, or no entry method',
              json: named('BarcodeCheckInRefusal', BarcodeCheckInRefusal),
            },
            404: {
              description: 'No active customer with this barcode, or no such location',
              json: named('BarcodeCheckInNotFound', BarcodeCheckInNotFound),
            },
          },
          params: barcodeParamDocs,
        }),
      },
    )
    .post(
      '/api/gym-endpoints/open-door-check-in/:barcode/',
      ({ params, body, user }) =>
        openDoorScan(
          () => scan(params.barcode, body, user),
          (outcome) => counted('open-door-check-in', outcome),
        ),
      {
        params: barcodeParams,
        ...requires('staff'),
        ...docs({
          tag,
          summary: 'Access control: 200 opens the door, 4xx does not (plain-text reason)',
          description: whoMay(
            'staff',
            [
              whoIsLetIn,
              [
                "A door controller's scan, answered in plain text for its display. 200 with no body opens the",
                `door, also for a second scan within the ${duplicateWindowMinutes} minutes (a person at a door that did not open`,
                'must get in; nothing new is recorded). Any other answer keeps it shut: 404',
                '`Unknown or deactivated customer account.` or `Unknown location.`; 400',
                '`The following alert is preventing you from checking in: <alert text>.` (the first, with',
                'several) or the text of no entry method. A body that cannot be read is still a DRF JSON 400.',
                `${notRecordedRule} It is answered 503 with \`Retry-After\` and`,
                '`The check-in could not be recorded. Please see the front desk.`: the fault is the',
                "server's, not the member's.",
              ].join(' '),
            ].join('\n\n'),
          ),
          body: doorRequest,
          ok: { status: 200, schema: null, description: 'Open the door (no body)' },
          errorBodies: {
            400: { description: 'Do not open: the reason to show', text: doorTextBodies[400] },
            404: {
              description: 'Do not open: unknown or deactivated customer, or no such location',
              text: doorTextBodies[404],
            },
            503: {
              description: 'Do not open: the check-in could not be recorded (the disk is full or failing)',
              text: doorTextBodies[503],
            },
          },
          params: barcodeParamDocs,
        }),
      },
    )
    .get(
      '/api/look-up-member-by-barcode/:barcode/',
      async ({ params, urls }) => {
        const outcome: LookUpOutcome =
          params.barcode === null ? { kind: 'not_found' } : await lookUpMember(deps, params.barcode)
        switch (outcome.kind) {
          case 'not_found':
            return jsonResponse(404, { error: lookUpError.notFound })
          case 'no_membership':
            return jsonResponse(400, {
              customer: serializeLookUpCustomer(outcome.customer, urls),
              error: lookUpError.noMembership,
            })
          case 'membership_not_active':
            return jsonResponse(400, {
              customer: serializeLookUpCustomer(outcome.customer, urls),
              error: lookUpError.notActive,
            })
          case 'active_member':
            return { customer: serializeLookUpCustomer(outcome.customer, urls) }
        }
      },
      {
        params: barcodeParams,
        ...requires('staff'),
        ...docs({
          tag,
          summary: 'Look up an active member by barcode',
          description: whoMay(
            'staff',
            [
              'Checks nobody in. An active member is covered by a membership in an active status (`ACT`,',
              '`IPP`, `PPR`) and not individually frozen; access hours do not matter: 200 `{"customer": {…}}`.',
              'Otherwise 404 `{"error": "No customer matching barcode."}`, or 400 with `customer` and',
              '`{"error": "This customer does not have a membership."}` or',
              '`{"error": "This customer\'s membership is not active."}`. The image URLs are `null` without',
              'a picture, and the small one is the same picture.',
            ].join(' '),
          ),
          ok: { status: 200, schema: named('LookUp', LookUpOut) },
          errorBodies: {
            400: {
              description: 'The customer has no membership, or it is not active',
              json: named('LookUpRefusal', LookUpRefusal),
            },
            404: { description: 'No customer matches', json: named('LookUpNotFound', LookUpNotFound) },
          },
          params: barcodeParamDocs,
        }),
      },
    )
  return new Elysia().use(deskCheckIns).use(door)
}
