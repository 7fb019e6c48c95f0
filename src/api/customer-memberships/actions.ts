import type { Actor } from '../../domain/actor.ts'
import { organizationToday } from '../organization/queries.ts'
import type { Static } from 'elysia'
import { customerExists } from '../customers/queries.ts'
import {
  insertStatusChange,
  updateMemberFrozen,
  updateMembershipFrom,
  type CustomerMembershipRow,
} from './queries.ts'
import type { MemberAction } from './schema.ts'
import type { Db } from '../../db/connection.ts'
import type { MembershipStatus } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { ApiError, messages } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { ACTIVE_STATUSES, FINISHED_STATUSES, FROZEN_STATUSES } from '../../domain/membership-status.ts'

/**
 * The status changes staff make by hand: freeze and unfreeze (the whole membership or one member)
 * and cancel. Each is one transaction that changes the record and appends its dated history row,
 * which membership counts and churn read.
 */

type MemberActionInput = Static<typeof MemberAction>

export const membershipActionMessages = {
  freezeNotActive: 'Only an active membership can be frozen.',
  unfreezeNotFrozen: 'Only a frozen membership can be unfrozen.',
  memberNotActive: 'Members can be frozen or unfrozen only while the membership is active.',
  notAMember: 'This customer is not a member of this membership.',
  memberAlreadyFrozen: 'This member is already frozen.',
  memberNotFrozen: 'This member is not frozen.',
  alreadyFinished: 'This membership is already cancelled, ended or denied.',
  changedMeanwhile:
    'This membership was changed by another request while this one was recorded; nothing was changed.',
}

/** Another request changed the membership between this one's checks and its write. */
const changedMeanwhile = () =>
  new ApiError(400, { non_field_errors: [membershipActionMessages.changedMeanwhile] })

interface Change {
  from: MembershipStatus
  to: MembershipStatus
  memberId: number | null
  /** organization-local day, read before the transaction (which holds the one connection) */
  on: string
}

async function recordChange(
  deps: Pick<Deps, 'clock'>,
  trx: Db,
  row: CustomerMembershipRow,
  change: Change,
  actor: Actor,
): Promise<void> {
  await insertStatusChange(trx, {
    customer_membership_id: row.id,
    member_customer_id: change.memberId,
    from_status: change.from,
    to_status: change.to,
    changed_on: change.on,
    changed_by_id: actor.user.id,
    created_at: deps.clock.now().toISOString(),
  })
}

/**
 * Sets the whole membership's status and records the change, provided it is still in the status
 * and at the bill date the request was checked against: of two requests changing one membership at
 * once (two desks, a double click, a renewal beside a freeze), the second is refused, not applied
 * on top of the first.
 */
async function changeStatus(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: CustomerMembershipRow,
  to: MembershipStatus,
  actor: Actor,
  extra: { end_date?: string } = {},
): Promise<void> {
  const on = await organizationToday(deps)
  await deps.db.transaction().execute(async (trx) => {
    const changes = { status: to, ...extra, updated_at: deps.clock.now().toISOString() }
    if (!(await updateMembershipFrom(trx, row.id, row, changes))) throw changedMeanwhile()
    await recordChange(deps, trx, row, { from: row.status, to, memberId: null, on }, actor)
  })
}

/**
 * Freezes or unfreezes one member of an active membership: the member's flag, and a history row
 * naming them whose statuses are the member's effective ones (the membership's, or FRZ).
 */
async function setMemberFrozen(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: CustomerMembershipRow,
  body: CheckedBody<MemberActionInput>,
  frozen: boolean,
  actor: Actor,
): Promise<void> {
  const memberId = body.fields.member_id as number
  const member = row.members.find((m) => m.customer_id === memberId)
  if (!member) {
    const known = await customerExists(deps.db, memberId)
    body.errors.add(
      'member_id',
      known ? membershipActionMessages.notAMember : messages.doesNotExist(memberId),
    )
  } else if (frozen && member.is_frozen === 1) {
    body.errors.add('member_id', membershipActionMessages.memberAlreadyFrozen)
  } else if (!frozen && member.is_frozen === 0) {
    body.errors.add('member_id', membershipActionMessages.memberNotFrozen)
  }
  if (!ACTIVE_STATUSES.includes(row.status)) {
    body.errors.add('non_field_errors', membershipActionMessages.memberNotActive)
  }
  body.valid()
  const on = await organizationToday(deps)
  const change: Change = frozen
    ? { from: row.status, to: 'FRZ', memberId, on }
    : { from: 'FRZ', to: row.status, memberId, on }
  await deps.db.transaction().execute(async (trx) => {
    // The membership must still be active as checked, and the member not frozen or unfrozen since.
    const touched = { updated_at: deps.clock.now().toISOString() }
    if (!(await updateMembershipFrom(trx, row.id, row, touched))) throw changedMeanwhile()
    if (!(await updateMemberFrozen(trx, row.id, memberId, frozen ? 1 : 0))) throw changedMeanwhile()
    await recordChange(deps, trx, row, change, actor)
  })
}

/** POST freeze/: the whole membership (active -> FRZ), or with `member_id` that one member. */
export async function freezeMembership(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: CustomerMembershipRow,
  body: CheckedBody<MemberActionInput>,
  actor: Actor,
): Promise<void> {
  if (typeof body.fields.member_id === 'number') return setMemberFrozen(deps, row, body, true, actor)
  if (!ACTIVE_STATUSES.includes(row.status)) {
    body.errors.add('non_field_errors', membershipActionMessages.freezeNotActive)
  }
  body.valid()
  await changeStatus(deps, row, 'FRZ', actor)
}

/** POST unfreeze/: the whole membership (frozen -> ACT), or with `member_id` that one member. */
export async function unfreezeMembership(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: CustomerMembershipRow,
  body: CheckedBody<MemberActionInput>,
  actor: Actor,
): Promise<void> {
  if (typeof body.fields.member_id === 'number') return setMemberFrozen(deps, row, body, false, actor)
  if (!FROZEN_STATUSES.includes(row.status)) {
    body.errors.add('non_field_errors', membershipActionMessages.unfreezeNotFrozen)
  }
  body.valid()
  await changeStatus(deps, row, 'ACT', actor)
}

/**
 * POST cancel/: -> CAN from any status but a finished one. The membership ends today unless it
 * already ends earlier (or on its start date when it has not started yet, so it never ends before
 * it starts).
 */
export async function cancelMembership(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: CustomerMembershipRow,
  body: CheckedBody<Record<string, never>>,
  actor: Actor,
): Promise<void> {
  if (FINISHED_STATUSES.includes(row.status)) {
    body.errors.add('non_field_errors', membershipActionMessages.alreadyFinished)
  }
  body.valid()
  const today = await organizationToday(deps)
  const lastDay = row.start_date > today ? row.start_date : today
  const endDate = row.end_date === null || row.end_date > lastDay ? lastDay : undefined
  await changeStatus(deps, row, 'CAN', actor, endDate === undefined ? {} : { end_date: endDate })
}
