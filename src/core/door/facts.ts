import type { EntryMethod, MembershipStatus, PurchaseType } from '../../db/schema.ts'
import type { AccessWindow } from '../../domain/access-hours.ts'

/**
 * Everything the door decision needs, read in the check-in transaction as plain data, so the rules
 * (decide.ts) are a pure function that table-driven tests can pin without a database.
 */

export interface FactsCustomer {
  id: number
  first_name: string
  last_name: string
  email: string | null
  is_active: boolean
  /** check-ins recorded before this one */
  check_in_count: number
  first_check_in_timestamp: string | null
}

export interface FactsAlert {
  alert_text: string
  color_hex: string
  created_date: string
  prevents_check_in: boolean
}

/** A membership this customer is covered by (a membership_members row), with its type. */
export interface FactsMembership {
  customer_membership_id: number
  status: MembershipStatus
  /** this member individually frozen */
  member_is_frozen: boolean
  start_date: string
  end_date: string | null
  purchase_type: PurchaseType
  type_name: string
  /** null = any time */
  access_hours: AccessWindow[] | null
  /** guest check-ins the type grants its members per calendar month (0 = none) */
  guest_passes_per_month: number
}

export interface FactsEntryPass {
  id: number
  name: string
  entries_remaining: number
  expiry_date: string | null
  /** "First Last" of the purchaser when someone else bought it, else null */
  purchaser_name: string | null
}

/** A non-cancelled reservation of this customer for an event at this gym happening now. */
export interface FactsReservation {
  reservation_id: number
  event_id: number
  event_name: string
  start_at: string
  end_at: string
  /** the reservation and its event both include entry */
  includes_entry: boolean
}

export interface CheckInFacts {
  now: Date
  /** the gym's IANA zone: access hours, expiry and "same local day" are judged in it */
  zone: string
  customer: FactsCustomer
  /** the customer's active alerts */
  alerts: FactsAlert[]
  waiverRequired: boolean
  /** the customer has a waiver usable today, gym-local (domain/waiver.ts) */
  hasValidWaiver: boolean
  /**
   * created_at of the customer's latest check-in at this gym, if any in the last two days (the
   * door reads no further back: an older one can make neither a duplicate nor a same-day check-in)
   */
  lastCheckInAt: string | null
  duplicateWindowMs: number
  combineSameDay: boolean
  /** id of a check-in at this gym on today's local date, for combine-same-day gyms */
  sameDayCheckInId: number | null
  reservationsNow: FactsReservation[]
  memberships: FactsMembership[]
  entryPasses: FactsEntryPass[]
  /** the organization's milestone counts, e.g. [1, 10, 25, 50, 100] */
  milestones: number[]
}

export const NO_WAIVER_ALERT = 'No waiver'

export type RefusalError = 'check_in_alerts' | 'duplicate_check_in' | 'no_entry_method'

export type CheckInDecision =
  /** Let in and record a check-in. */
  | {
      outcome: 'admit'
      entryMethod: Exclude<EntryMethod, 'GUE' | 'FRE' | 'MIG'>
      description: string
      customerMembershipId: number | null
      /** take one entry from this pass */
      entryPassId: number | null
      reservationId: number | null
      /** this check-in's number for the customer (1 = first ever) */
      checkInCount: number
      /** milestone texts reached by this check-in, e.g. ["10th check-in"] */
      milestones: string[]
      /** alerts that do not prevent check-in, shown to staff */
      customerAlerts: FactsAlert[]
      reservations: FactsReservation[]
    }
  /** Already in: the duplicate window (barcode check-in answers 400, the door opens without a record). */
  | { outcome: 'duplicate' }
  /** A combine-same-day gym: already checked in today; let in, record nothing new. */
  | { outcome: 'same_day'; checkInId: number }
  | { outcome: 'refuse'; error: Exclude<RefusalError, 'duplicate_check_in'>; alerts: string[] }

/*
 * Why not, and what to tell: the desk's check-ins (core/door/desk-check-in.ts) explain a refusal and
 * give notices with an admission. The door endpoints never compute them: the reads behind a
 * refusal's reasons run only once the decision has refused.
 */

/** A membership as a refusal names it, in any status (an ended one too). */
export interface ReasonMembership {
  name: string
  status: MembershipStatus
  member_is_frozen: boolean
  start_date: string
  end_date: string | null
  purchase_type: PurchaseType
  access_hours: AccessWindow[] | null
}

/** What a refusal's reasons read beyond the decision's facts, only once it has refused. */
export interface RefusalFacts {
  /** the latest expiration date among the customer's waivers; null: none, or one never expiring */
  waiverExpiredOn: string | null
  /** every membership covering the customer, any status, lowest id first */
  memberships: ReasonMembership[]
  /** the customer's newest entry pass, usable or not */
  latestPass: { name: string; entries_remaining: number; expiry_date: string | null } | null
}

/** One reason a customer is not let in, in the door's terms (api/ words it). */
export type RefusalReason =
  | { code: 'alert'; text: string }
  | { code: 'no_waiver' }
  | { code: 'waiver_expired'; date: string }
  | { code: 'membership_frozen'; name: string }
  | { code: 'outside_access_hours'; name: string; hours: AccessWindow[] }
  | { code: 'membership_not_started'; name: string; date: string }
  | { code: 'membership_ended'; name: string; date: string | null }
  | { code: 'membership_payment_failed'; name: string }
  | { code: 'membership_not_active'; name: string; status: MembershipStatus }
  | { code: 'pass_used_up'; name: string }
  | { code: 'pass_expired'; name: string; date: string }
  | { code: 'no_entry_method' }

/** Something staff should know about an admission: the pass's last entry, a membership ending soon. */
export type AdmitNotice =
  { code: 'last_entry'; name: string } | { code: 'membership_ends'; name: string; date: string }
