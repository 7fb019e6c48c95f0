import type { Actor } from '../../domain/actor.ts'
import { organizationToday } from '../organization/queries.ts'
import { loadOrganization } from '../organization/queries.ts'
import { lookUpGym } from '../gyms/queries.ts'
import type { Static } from 'elysia'
import { listExistingAddOnIds } from '../add-ons/queries.ts'
import { customerExists } from '../customers/queries.ts'
import { startMembership } from '../../core/memberships/start.ts'
import { listExistingCustomerIds, updateCustomerMembership, type CustomerMembershipRow } from './queries.ts'
import type { CustomerMembershipCreate, CustomerMembershipUpdate } from './schema.ts'
import { getMembershipType, type MembershipTypeRow } from '../membership-types/queries.ts'
import type { Deps } from '../../deps.ts'
import { checkDecimal } from '../../http/decimal.ts'
import { messages, type FieldErrorCollector } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { localDate } from '../../lib/local-time.ts'
import { toFlag } from '../../db/flags.ts'
import { lookUpReferenced } from '../../http/references.ts'

type CreateInput = Static<typeof CustomerMembershipCreate>
type UpdateInput = Partial<Static<typeof CustomerMembershipUpdate>>

export const customerMembershipMessages = {
  endBeforeStart: 'The end date cannot be before the start date.',
  soloMembers: 'This membership type is not a group type: it covers exactly its owner.',
  emptyList: 'This list may not be empty.',
  duplicateMember: (id: number) => `Customer ${id} is listed more than once.`,
  statusByAction: 'The status changes only through the freeze/, unfreeze/ and cancel/ actions.',
}

function checkEndDate(
  start: string | undefined,
  end: string | null | undefined,
  errors: FieldErrorCollector,
) {
  if (start !== undefined && typeof end === 'string' && end < start) {
    errors.add('end_date', customerMembershipMessages.endBeforeStart)
  }
}

/**
 * Who the membership covers (the data convention the members report and the metrics read): a
 * solo membership exactly its owner, a group membership the listed customers (the owner only if
 * listed). Returns the ids to store, or undefined when they cannot be known yet.
 */
async function checkMembers(
  deps: Pick<Deps, 'db'>,
  fields: Partial<CreateInput>,
  type: MembershipTypeRow | undefined,
  errors: FieldErrorCollector,
): Promise<number[] | undefined> {
  const owner = fields.owner_id
  const ids = fields.member_ids ?? (owner === undefined ? undefined : [owner])
  if (ids === undefined) return undefined
  if (fields.member_ids !== undefined) {
    const existing = await listExistingCustomerIds(deps.db, ids)
    const seen = new Set<number>()
    for (const id of ids) {
      if (seen.has(id)) errors.add('member_ids', customerMembershipMessages.duplicateMember(id))
      else if (!existing.has(id)) errors.add('member_ids', messages.doesNotExist(id))
      seen.add(id)
    }
  }
  if (type && type.is_group === 0 && owner !== undefined && (ids.length !== 1 || ids[0] !== owner)) {
    errors.add('member_ids', customerMembershipMessages.soloMembers)
  } else if (type && type.is_group === 1 && ids.length === 0) {
    errors.add('member_ids', customerMembershipMessages.emptyList)
  }
  return ids
}

/** Starts a membership (core/memberships/start.ts) once every field has passed, in one transaction. */
export async function createCustomerMembership(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<CreateInput>,
  actor: Actor,
): Promise<number> {
  const { fields, errors } = body
  const isCustomer = (id: number) => customerExists(deps.db, id)
  const type = await lookUpReferenced(errors, 'membership_id', fields.membership_id, (id) =>
    getMembershipType(deps.db, id),
  )
  await lookUpReferenced(errors, 'owner_id', fields.owner_id, isCustomer)
  checkEndDate(fields.start_date, fields.end_date, errors)
  await lookUpGym(deps.db, errors, 'billing_location_id', fields.billing_location_id)
  const billingCents = checkDecimal(fields, errors, 'billing_amount')
  const memberIds = await checkMembers(deps, fields, type, errors)
  const addOnIds = [...new Set(fields.add_on_ids ?? [])]
  const knownAddOns = await listExistingAddOnIds(deps.db, addOnIds)
  for (const id of addOnIds) if (!knownAddOns.has(id)) errors.add('add_on_ids', messages.doesNotExist(id))
  await lookUpReferenced(errors, 'referring_customer_id', fields.referring_customer_id, isCustomer)
  const input = body.valid()

  const now = deps.clock.now().toISOString()
  const today = await organizationToday(deps)
  return deps.db.transaction().execute((trx) =>
    startMembership(trx, {
      row: {
        membership_type_id: input.membership_id,
        owner_id: input.owner_id,
        status: input.status ?? 'ACT',
        start_date: input.start_date,
        end_date: input.end_date ?? null,
        billing_location_id: input.billing_location_id ?? null,
        has_payment_method: toFlag(input.has_payment_method) ?? 0,
        is_pending_staff_approval: toFlag(input.is_pending_staff_approval) ?? 0,
        billing_amount_cents: billingCents ?? (type!.purchase_type === 'REC' ? type!.price_cents : 0),
        discount_association_id: null,
        referring_customer_id: input.referring_customer_id ?? null,
        created_at: now,
        updated_at: now,
      },
      memberIds: memberIds!,
      addOnIds,
      today,
      changedById: actor.user.id,
    }),
  )
}

/** PATCH: billing details and the end date; what was fixed at creation may be sent but not changed. */
export async function changeCustomerMembership(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: CustomerMembershipRow,
  body: CheckedBody<UpdateInput>,
): Promise<void> {
  const { fields, errors } = body
  const fixed: Array<[keyof UpdateInput, unknown]> = [
    ['membership_id', row.membership_type_id],
    ['owner_id', row.owner_id],
    ['start_date', row.start_date],
  ]
  for (const [name, value] of fixed) {
    if (fields[name] !== undefined && fields[name] !== value) errors.add(name, messages.cannotChange)
  }
  if (fields.status !== undefined && fields.status !== row.status) {
    errors.add('status', customerMembershipMessages.statusByAction)
  }
  checkEndDate(row.start_date, fields.end_date, errors)
  await lookUpGym(deps.db, errors, 'billing_location_id', fields.billing_location_id)
  const billingCents = checkDecimal(fields, errors, 'billing_amount')
  const input = body.valid()
  await updateCustomerMembership(deps.db, row.id, {
    end_date: input.end_date,
    billing_location_id: input.billing_location_id,
    has_payment_method: toFlag(input.has_payment_method),
    is_pending_staff_approval: toFlag(input.is_pending_staff_approval),
    billing_amount_cents: billingCents,
    updated_at: deps.clock.now().toISOString(),
  })
}
