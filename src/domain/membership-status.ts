import type { MembershipStatus, MembershipStatusClass } from '../db/schema.ts'

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

export const ALL_STATUSES: readonly MembershipStatus[] = [
  ...ACTIVE_STATUSES,
  ...FROZEN_STATUSES,
  ...FAILED_STATUSES,
  ...EXCLUDED_STATUSES,
]
