import { t } from 'elysia'
import { DUPLICATE_WINDOW_MS, type DoorOutcome } from '../../core/door/record.ts'
import { storageFailureOf } from '../../db/storage-failure.ts'
import { jsonResponse } from '../../http/error-handler.ts'
import { STORAGE_RETRY_AFTER_SECONDS } from '../../http/errors.ts'
import { customerFields, serializeBarcodeCheckIn } from './serializer.ts'

/*
 * How the door answers: its refusals in words, and each scan's outcome as the barcode endpoint's
 * JSON or the open-door endpoint's plain text for the controller's display.
 */

/** Why a customer is refused at the door, shown for each preventing alert ("No waiver" too). */
export const alertPrevents = (text: string) =>
  `The following alert is preventing you from checking in: ${text}.`
export const noGuestPassMembership = 'This customer has no active membership with guest passes.'
export const noGuestPassesLeft = 'No guest passes left this month.'
export const ownGuest = 'A customer cannot be their own guest.'
/** The door's duplicate window, in the minutes its refusals and rules name. */
export const duplicateWindowMinutes = DUPLICATE_WINDOW_MS / 60_000

export const alreadyCheckedIn = `This customer already checked in at this location within the last ${duplicateWindowMinutes} minutes.`

/** Plain-text bodies of open-door check-in, for the door controller's display. */
export const doorText = {
  unknownCustomer: 'Unknown or deactivated customer account.',
  unknownLocation: 'Unknown location.',
  alert: alertPrevents,
  noEntryMethod:
    'You do not have an available entry method. Please ensure you have an active membership, entry pass, or event booking.',
  notRecorded: 'The check-in could not be recorded. Please see the front desk.',
}

/** What the door controller may be shown, as the document gives it. */
export const doorTextBodies = {
  400: t.Union([
    t.Literal(doorText.noEntryMethod),
    t.String({ pattern: `^${doorText.alert('[\\s\\S]*').replace(/\.$/, '\\.')}$` }),
  ]),
  404: t.Union([t.Literal(doorText.unknownCustomer), t.Literal(doorText.unknownLocation)]),
  503: t.Literal(doorText.notRecorded),
}

const text = (status: number, body = '', headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } })

/**
 * Open-door check-in's scan: a check-in the database would not take (a full or failing disk) is
 * never a 200, which opens the door as if it were recorded, but a 503 in the door's own words: the
 * controller keeps the door shut and shows it, as for any refusal. `decided` is shown each outcome
 * (the decisions' count) as it comes back, with no await of its own.
 */
export async function openDoorScan(
  scan: () => Promise<DoorOutcome>,
  decided: (outcome: DoorOutcome) => DoorOutcome,
): Promise<Response> {
  try {
    return openDoorResponse(decided(await scan()))
  } catch (error) {
    if (storageFailureOf(error) === undefined) throw error
    return text(503, doorText.notRecorded, { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) })
  }
}

/** Barcode check-in's body for each outcome: the customer's fields with every refusal but a 404. */
export function barcodeResponse(outcome: DoorOutcome) {
  switch (outcome.kind) {
    case 'customer_not_found':
    case 'invalid_location':
      return jsonResponse(404, { error: outcome.kind })
    case 'refused':
      return jsonResponse(400, {
        error: outcome.error,
        ...(outcome.error === 'check_in_alerts' ? { alerts: outcome.alerts } : {}),
        ...customerFields(outcome.customer),
      })
    case 'duplicate':
      return jsonResponse(400, { error: 'duplicate_check_in', ...customerFields(outcome.customer) })
    case 'admitted':
      return serializeBarcodeCheckIn(outcome.customer, outcome.checkIn)
  }
}

/** 200 opens the door; a duplicate scan opens it again without a new record. */
function openDoorResponse(outcome: DoorOutcome) {
  switch (outcome.kind) {
    case 'customer_not_found':
      return text(404, doorText.unknownCustomer)
    case 'invalid_location':
      return text(404, doorText.unknownLocation)
    case 'refused':
      return text(
        400,
        outcome.error === 'check_in_alerts' ? doorText.alert(outcome.alerts[0]!) : doorText.noEntryMethod,
      )
    case 'duplicate':
    case 'admitted':
      return text(200)
  }
}

/**
 * A scan's outcome as the barcode endpoint names it (its `error` values, or admitted): a small fixed
 * set, so it can be a metric's label.
 */
export const outcomeLabel = (outcome: DoorOutcome) =>
  outcome.kind === 'refused' ? outcome.error : outcome.kind
