import type { Actor } from '../../domain/actor.ts'
import { organizationToday } from '../organization/queries.ts'
import { loadOrganization } from '../organization/queries.ts'
import { lookUpGym } from '../gyms/queries.ts'
import type { Static } from 'elysia'
import { listExistingAddOnIds } from '../add-ons/queries.ts'
import { customerExists } from '../customers/queries.ts'
import { checkMembers } from '../../core/memberships/members.ts'
import { startMembership } from '../../core/memberships/start.ts'
import { updateCustomerMembership, type CustomerMembershipRow } from './queries.ts'
import type { CustomerMembershipCreate, CustomerMembershipUpdate } from './schema.ts'
import { getMembershipType } from '../membership-types/queries.ts'
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
  const members = await checkMembers(
    deps.db,
    {
      sent: fields.member_ids,
      ownerId: fields.owner_id,
      isGroup: type === undefined ? undefined : type.is_group === 1,
    },
    messages.doesNotExist,
  )
  for (const refusal of members.refusals) errors.add('member_ids', refusal)
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
      memberIds: members.ids!,
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
