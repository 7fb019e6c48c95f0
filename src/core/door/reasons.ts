import { addDays, isExpired, localDate } from '../../lib/local-time.ts'
import { ACTIVE_STATUSES, FAILED_STATUSES } from '../../domain/membership-status.ts'
import { isWithinAccessHours } from '../../domain/access-hours.ts'
import {
  NO_WAIVER_ALERT,
  type AdmitNotice,
  type CheckInDecision,
  type CheckInFacts,
  type ReasonMembership,
  type RefusalFacts,
  type RefusalReason,
} from './facts.ts'

/**
 * The door's decision, said in full for the desk: why a refusal refused, and what an admission
 * should tell staff. Pure functions of the facts, like decide.ts, and run only by the desk's
 * check-ins, after the decision: the door endpoints' answers never carry them.
 */

/** A membership ending within this many days, its last day included, is told at check-in. */
export const ENDING_SOON_DAYS = 7

/** Why `decideCheckIn` refused: each blocking alert in its order, the waiver, then the entry methods. */
export function refusalReasons(
  facts: CheckInFacts,
  refusal: Extract<CheckInDecision, { outcome: 'refuse' }>,
  more: RefusalFacts,
): RefusalReason[] {
  if (refusal.error === 'check_in_alerts') {
    return refusal.alerts.map((text): RefusalReason => {
      if (text !== NO_WAIVER_ALERT) return { code: 'alert', text }
      return more.waiverExpiredOn === null
        ? { code: 'no_waiver' }
        : { code: 'waiver_expired', date: more.waiverExpiredOn }
    })
  }
  const reasons = more.memberships
    .map((m) => membershipReason(m, facts.now, facts.zone))
    .filter((r): r is RefusalReason => r !== null)
  const ended = reasons.filter((r) => r.code === 'membership_ended')
  // Of memberships that ended, only the latest says anything: the rest are history.
  const current = reasons.filter((r) => r.code !== 'membership_ended')
  const latestEnded = ended.at(-1)
  const shown: RefusalReason[] = current.length > 0 || latestEnded === undefined ? current : [latestEnded]
  const pass = more.latestPass
  if (pass !== null) {
    if (pass.entries_remaining <= 0) shown.push({ code: 'pass_used_up', name: pass.name })
    else if (pass.expiry_date !== null && isExpired(pass.expiry_date, facts.zone, facts.now))
      shown.push({ code: 'pass_expired', name: pass.name, date: pass.expiry_date })
  }
  return shown.length > 0 ? shown : [{ code: 'no_entry_method' }]
}

/** Why this membership does not let its member in now, or null when nothing about it says why. */
function membershipReason(m: ReasonMembership, now: Date, zone: string): RefusalReason | null {
  const today = localDate(now, zone)
  const name = m.name
  if (m.status === 'END' || m.status === 'CAN') return { code: 'membership_ended', name, date: m.end_date }
  if (m.member_is_frozen || m.status === 'FRZ' || m.status === 'FPR')
    return { code: 'membership_frozen', name }
  if (FAILED_STATUSES.includes(m.status)) return { code: 'membership_payment_failed', name }
  if (!ACTIVE_STATUSES.includes(m.status)) return { code: 'membership_not_active', name, status: m.status }
  if (m.start_date > today) return { code: 'membership_not_started', name, date: m.start_date }
  if (m.purchase_type !== 'REC' && m.end_date !== null && m.end_date < today)
    return { code: 'membership_ended', name, date: m.end_date }
  if (!isWithinAccessHours(m.access_hours, now, zone))
    return { code: 'outside_access_hours', name, hours: m.access_hours ?? [] }
  return null
}

/**
 * What an admission tells staff: the pass's last entry was just taken, or the membership that let
 * the customer in ends within ENDING_SOON_DAYS (a recurring one's end date is its next bill, never
 * an end).
 */
export function admitNotices(
  facts: CheckInFacts,
  admit: Extract<CheckInDecision, { outcome: 'admit' }>,
): AdmitNotice[] {
  if (admit.entryPassId !== null) {
    const pass = facts.entryPasses.find((p) => p.id === admit.entryPassId)
    return pass !== undefined && pass.entries_remaining === 1 ? [{ code: 'last_entry', name: pass.name }] : []
  }
  if (admit.customerMembershipId !== null) {
    const m = facts.memberships.find((c) => c.customer_membership_id === admit.customerMembershipId)
    if (m === undefined || m.purchase_type === 'REC' || m.end_date === null) return []
    const today = localDate(facts.now, facts.zone)
    if (m.end_date <= addDays(today, ENDING_SOON_DAYS))
      return [{ code: 'membership_ends', name: m.type_name, date: m.end_date }]
  }
  return []
}
