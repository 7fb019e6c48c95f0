import { localDate, isExpired } from '../../lib/local-time.ts'
import { ACTIVE_STATUSES } from '../../domain/membership-status.ts'
import { isWithinAccessHours } from '../../domain/access-hours.ts'
import { entryPassDescription, membershipDescription, reservationDescription } from './descriptions.ts'
import {
  NO_WAIVER_ALERT,
  type CheckInDecision,
  type CheckInFacts,
  type FactsEntryPass,
  type FactsMembership,
  type FactsReservation,
} from './facts.ts'
import { reachedMilestones } from './milestones.ts'

/**
 * The door's decision: a pure function of the facts
 * the check-in transaction read, so every rule is pinned by table tests without a database or a
 * clock. The rules run in this order and the first that answers wins:
 *
 * 1. alerts that prevent check-in (the customer's, then the built-in "No waiver") -> check_in_alerts;
 * 2. a check-in at this gym within the duplicate window -> duplicate;
 * 3. a combine-same-day gym where the customer already checked in today -> same_day;
 * 4. the entry method: EVE, then MEM, then ENT, else no_entry_method;
 * 5. admit, with the check-in's count, milestones, the alerts to show staff and the reservations.
 *
 * The customer is assumed found and active: the look-up answers customer_not_found before this.
 */
export function decideCheckIn(facts: CheckInFacts): CheckInDecision {
  const preventing = preventingAlerts(facts)
  if (preventing.length > 0) return { outcome: 'refuse', error: 'check_in_alerts', alerts: preventing }

  if (isDuplicate(facts)) return { outcome: 'duplicate' }

  if (facts.combineSameDay && facts.sameDayCheckInId !== null) {
    return { outcome: 'same_day', checkInId: facts.sameDayCheckInId }
  }

  const entry = chooseEntry(facts)
  if (entry === null) return { outcome: 'refuse', error: 'no_entry_method', alerts: [] }

  const checkInCount = facts.customer.check_in_count + 1
  return {
    outcome: 'admit',
    ...entry,
    checkInCount,
    milestones: reachedMilestones(facts.milestones, checkInCount),
    customerAlerts: facts.alerts.filter((alert) => !alert.prevents_check_in),
    reservations: facts.reservationsNow,
  }
}

/** The texts shown to the customer: their own blocking alerts in the given order, then "No waiver". */
export function preventingAlerts(
  facts: Pick<CheckInFacts, 'alerts' | 'waiverRequired' | 'hasValidWaiver'>,
): string[] {
  const texts = facts.alerts.filter((alert) => alert.prevents_check_in).map((alert) => alert.alert_text)
  if (facts.waiverRequired && !facts.hasValidWaiver) texts.push(NO_WAIVER_ALERT)
  return texts
}

/**
 * Within the window, bound included: a scan exactly `duplicateWindowMs` after the last check-in is
 * still a duplicate, one a millisecond later is not. A last check-in stamped after `now` (the clock
 * was set back) counts as a duplicate too: recording a second visit is the worse mistake, and the
 * open-door endpoint opens the door for a duplicate anyway.
 */
export function isDuplicate(
  facts: Pick<CheckInFacts, 'now' | 'lastCheckInAt' | 'duplicateWindowMs'>,
): boolean {
  if (facts.lastCheckInAt === null) return false
  return facts.now.getTime() - Date.parse(facts.lastCheckInAt) <= facts.duplicateWindowMs
}

type Entry = Pick<
  Extract<CheckInDecision, { outcome: 'admit' }>,
  'entryMethod' | 'description' | 'customerMembershipId' | 'entryPassId' | 'reservationId'
>

/** The first entry method that applies: an event reservation, a membership, an entry pass. */
function chooseEntry(facts: CheckInFacts): Entry | null {
  const reservation = reservationGivingEntry(facts.reservationsNow)
  if (reservation) {
    return {
      entryMethod: 'EVE',
      description: reservationDescription(reservation),
      customerMembershipId: null,
      entryPassId: null,
      reservationId: reservation.reservation_id,
    }
  }
  const membership = membershipGivingEntry(facts.memberships, facts.now, facts.zone)
  if (membership) {
    return {
      entryMethod: 'MEM',
      description: membershipDescription(membership),
      customerMembershipId: membership.customer_membership_id,
      entryPassId: null,
      reservationId: null,
    }
  }
  const pass = entryPassToUse(facts.entryPasses, facts.now, facts.zone)
  if (pass) {
    return {
      entryMethod: 'ENT',
      description: entryPassDescription(pass, pass.entries_remaining - 1),
      customerMembershipId: null,
      entryPassId: pass.id,
      reservationId: null,
    }
  }
  return null
}

/**
 * A reservation happening now that includes entry; "happening now" is the query's (the facts hold
 * only those). Several: the earliest start, then the lowest reservation id.
 */
export function reservationGivingEntry(reservations: readonly FactsReservation[]): FactsReservation | null {
  const candidates = reservations.filter((r) => r.includes_entry)
  candidates.sort(
    (a, b) => Date.parse(a.start_at) - Date.parse(b.start_at) || a.reservation_id - b.reservation_id,
  )
  return candidates[0] ?? null
}

/**
 * Whether a membership lets its member in at `now`: an active status (ACT, IPP, PPR),
 * the member not individually frozen, started (start_date <= today in the gym's zone), not past its
 * end date, and inside its type's access hours.
 *
 * The end date of a recurring (REC) membership is its next bill date, not an end: renewing is the
 * billing side's job and shows in the status (PPR while a renewal is processing, PAF when it failed,
 * CAN/END when it stopped), so a bill date in the past does not lock out a member whose status is
 * still active (the appliance admits while it cannot reach the processor). Prepaid and benefit
 * memberships end on their end date, which is usable through its last local day.
 */
export function membershipAdmits(membership: FactsMembership, now: Date, zone: string): boolean {
  if (!ACTIVE_STATUSES.includes(membership.status) || membership.member_is_frozen) return false
  const today = localDate(now, zone)
  if (membership.start_date > today) return false
  if (membership.purchase_type !== 'REC' && membership.end_date !== null && membership.end_date < today) {
    return false
  }
  return isWithinAccessHours(membership.access_hours, now, zone)
}

/** The membership that admits now; several: the lowest customer membership id, so the choice is stable. */
export function membershipGivingEntry(
  memberships: readonly FactsMembership[],
  now: Date,
  zone: string,
): FactsMembership | null {
  const admitting = memberships.filter((m) => membershipAdmits(m, now, zone))
  admitting.sort((a, b) => a.customer_membership_id - b.customer_membership_id)
  return admitting[0] ?? null
}

/**
 * The pass to take an entry from: unexpired (usable through the end of its expiry day in the gym's
 * zone; no expiry date never expires) with entries left; the one expiring soonest, passes without an
 * expiry date last, ties by lowest id, so the entry that would be lost first is used first.
 */
export function entryPassToUse(
  passes: readonly FactsEntryPass[],
  now: Date,
  zone: string,
): FactsEntryPass | null {
  const usable = passes.filter((p) => p.entries_remaining > 0 && !isExpired(p.expiry_date, zone, now))
  usable.sort((a, b) => compareExpiry(a.expiry_date, b.expiry_date) || a.id - b.id)
  return usable[0] ?? null
}

/** Earlier dates first, null (never expires) after every date. */
function compareExpiry(a: string | null, b: string | null): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  return a < b ? -1 : 1
}
