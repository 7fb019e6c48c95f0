import type { MembershipStatus, MembershipStatusClass } from '../db/schema.ts'
import { choices, someOf, type Choices } from '../lib/choices.ts'

/**
 * Every membership status and its name: reference 3.3's, then those the members report leaves out
 * (not started, awaiting the initial payment; over).
 */
export const MEMBERSHIP_STATUSES: Choices<MembershipStatus> = choices({
  ACT: 'Active',
  IPP: 'Initial Payment Processing',
  PPR: 'Renewal Payment Processing',
  FRZ: 'Frozen',
  FPR: 'Freeze Payment Processing',
  PAF: 'Renewal Payment Failed',
  FPF: 'Freeze Payment Failed',
  PAY: 'Awaiting Initial Payment',
  IPC: 'Initial Payment Pending',
  CAN: 'Cancelled',
  END: 'Ended',
  DEN: 'Denied',
} satisfies Record<MembershipStatus, string>)

/**
 * How membership statuses group. The members report, the door and the metrics all
 * read these, so they are defined once.
 */
export const ACTIVE_STATUSES: readonly MembershipStatus[] = ['ACT', 'IPP', 'PPR']
export const FROZEN_STATUSES: readonly MembershipStatus[] = ['FRZ', 'FPR']
export const FAILED_STATUSES: readonly MembershipStatus[] = ['PAF', 'FPF']

/** `status_in` tokens of the members report, and the statuses each stands for. */
export const STATUS_TOKENS = {
  active: ACTIVE_STATUSES,
  frozen: FROZEN_STATUSES,
  failed: FAILED_STATUSES,
} as const satisfies Record<string, readonly MembershipStatus[]>

/**
 * What each status counts as in membership counts: payments still processing count with the
 * status they would settle into, failed renewals (frozen or not) as payment_failed. The statuses of
 * no class (not started, awaiting the initial payment, over) count under none.
 */
export const STATUS_CLASSES: Readonly<Record<MembershipStatusClass, readonly MembershipStatus[]>> = {
  active: ACTIVE_STATUSES,
  frozen: FROZEN_STATUSES,
  payment_failed: FAILED_STATUSES,
}

/** Over for good: cancelled, ended, denied. Such a membership cannot be cancelled again. */
export const FINISHED_STATUSES: readonly MembershipStatus[] = ['CAN', 'END', 'DEN']

/**
 * What a sale's MRE line can renew: an active membership, or one whose last renewal failed. Not
 * one still awaiting a payment (IPP, PPR: it would be billed twice), a frozen one (a freeze is
 * billed by its own fee) or one not started or over.
 */
export const RENEWABLE_STATUSES: readonly MembershipStatus[] = ['ACT', 'PAF']

/** Not yet started (awaiting initial payment), cancelled, ended, denied: never in the members report. */
export const EXCLUDED_STATUSES: readonly MembershipStatus[] = ['PAY', 'IPC', ...FINISHED_STATUSES]

/** Every status, the groups above in order, with their names. */
export const ALL_STATUSES = someOf(MEMBERSHIP_STATUSES, [
  ...ACTIVE_STATUSES,
  ...FROZEN_STATUSES,
  ...FAILED_STATUSES,
  ...EXCLUDED_STATUSES,
])
