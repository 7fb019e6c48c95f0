import type { FactsEntryPass, FactsMembership, FactsReservation } from './facts.ts'

/**
 * entry_method_description: what let the person in, as staff and the webhook receiver
 * read it. Kept in one place so the door, the check-in history and the webhook body agree.
 */

/** EVE: the event's name. */
export const reservationDescription = (reservation: FactsReservation): string => reservation.event_name

/** MEM: the membership type's name. */
export const membershipDescription = (membership: FactsMembership): string => membership.type_name

/**
 * ENT: `<name> (<N> remaining)`, or `<name> from <purchaser> (<N> remaining)` when someone else
 * bought the pass; N counts the entries left AFTER this one is taken.
 */
export const entryPassDescription = (pass: FactsEntryPass, remainingAfter: number): string =>
  pass.purchaser_name === null
    ? `${pass.name} (${remainingAfter} remaining)`
    : `${pass.name} from ${pass.purchaser_name} (${remainingAfter} remaining)`
