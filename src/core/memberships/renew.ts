import type { Db } from '../../db/connection.ts'
import type { BillingInterval, MembershipStatus } from '../../db/schema.ts'
import { billDateAfter } from '../../domain/billing.ts'
import { insertStatusChange, updateMembershipFrom } from './queries.ts'

/** A recurring membership as a renewal reads it. */
export interface RenewableMembership {
  id: number
  status: MembershipStatus
  start_date: string
  /** The next bill date; null when none is on record */
  end_date: string | null
  interval: Exclude<BillingInterval, ''>
}

/**
 * Where a renewal stands: paid (its payments complete), processing (one is still at the terminal)
 * or failed (the terminal declined it).
 */
export type RenewalOutcome = 'paid' | 'processing' | 'failed'

const STATUS_AFTER: Record<RenewalOutcome, MembershipStatus> = {
  paid: 'ACT',
  processing: 'PPR',
  failed: 'PAF',
}

/** Who renews, when: the history row is dated the organization's `today`. */
export interface RenewalBy {
  today: string
  at: string
  changedById: number
}

/**
 * A renewal, inside the caller's transaction. Paid: the next bill date moves on one interval and
 * the membership is ACT (a PAF one again). Processing: it waits in PPR, its bill date where it was,
 * until the payment settles. Failed: PAF. A status change gets its history row. False (nothing
 * changed) when the membership is no longer as the caller read it: something renewed or changed
 * it first.
 */
export async function renewMembership(
  trx: Db,
  membership: RenewableMembership,
  outcome: RenewalOutcome,
  by: RenewalBy,
): Promise<boolean> {
  const to = STATUS_AFTER[outcome]
  const moved =
    outcome === 'paid'
      ? { end_date: billDateAfter(membership.start_date, membership.end_date, membership.interval) }
      : {}
  const changed = await updateMembershipFrom(trx, membership.id, membership, {
    status: to,
    ...moved,
    updated_at: by.at,
  })
  if (!changed) return false
  if (to !== membership.status) {
    await insertStatusChange(trx, {
      customer_membership_id: membership.id,
      member_customer_id: null,
      from_status: membership.status,
      to_status: to,
      changed_on: by.today,
      changed_by_id: by.changedById,
      created_at: by.at,
    })
  }
  return true
}
