import type { FactsEntryPass, FactsMembership, FactsReservation } from './facts.ts'

/**
 * entry_method_description: what let the person in, as staff and the webhook receiver
 * read it. Kept in one place so the door, the check-in history and the webhook body agree.
 */

/** EVE: the event's name. */
export const reservationDescription = (reservation: Pick<FactsReservation, 'event_name'>): string =>
  reservation.event_name

/** MEM: the membership type's name. */
export const membershipDescription = (membership: Pick<FactsMembership, 'type_name'>): string =>
  membership.type_name

/**
 * ENT: `<name> (<N> remaining)`, or `<name> from <purchaser> (<N> remaining)` when someone else
 * bought the pass; N counts the entries left AFTER this one is taken.
 */
export const entryPassDescription = (
  pass: Pick<FactsEntryPass, 'name' | 'purchaser_name'>,
  remainingAfter: number,
): string =>
  pass.purchaser_name === null
    ? `${pass.name} (${remainingAfter} remaining)`
    : `${pass.name} from ${pass.purchaser_name} (${remainingAfter} remaining)`

/** FRE: staff let the customer in free (the reason is kept apart, in free_entry_reason). */
export const FREE_ENTRY_DESCRIPTION = 'Free entry'

/** GUE: whose guest pass let the customer in. */
export const guestDescription = (host: { first_name: string; last_name: string }): string =>
  `Guest of ${host.first_name} ${host.last_name}`
