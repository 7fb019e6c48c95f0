import type { Actor } from '../../domain/actor.ts'
import { loadOrganization } from '../organization/queries.ts'
import type { Static } from 'elysia'
import { insertCustomerEntryPass, updateCustomerEntryPass, type CustomerEntryPassRow } from './queries.ts'
import type { CustomerEntryPassCreate, CustomerEntryPassUpdate } from './schema.ts'
import { customerExists } from '../customers/queries.ts'
import { getEntryPassType } from '../entry-pass-types/queries.ts'
import type { Deps } from '../../deps.ts'
import { messages } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { defaultExpiryDate } from '../../domain/expiry.ts'
import { lookUpReferenced } from '../../http/references.ts'

type CreateInput = Static<typeof CustomerEntryPassCreate>
type UpdateInput = Partial<Static<typeof CustomerEntryPassUpdate>>

/** Issues a pass: as many entries as its type gives, expiring as the type says unless told. */
export async function createCustomerEntryPass(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<CreateInput>,
  actor: Actor,
): Promise<number> {
  const { fields, errors } = body
  const type = await lookUpReferenced(errors, 'entry_pass_id', fields.entry_pass_id, (id) =>
    getEntryPassType(deps.db, id),
  )
  for (const name of ['owner_id', 'purchaser_id'] as const) {
    await lookUpReferenced(errors, name, fields[name], (id) => customerExists(deps.db, id))
  }
  const input = body.valid()
  const now = deps.clock.now()
  const expiryDate =
    input.expiry_date !== undefined
      ? input.expiry_date
      : defaultExpiryDate(type!.valid_days, now, (await loadOrganization(deps.db)).time_zone)
  return insertCustomerEntryPass(deps.db, {
    entry_pass_type_id: input.entry_pass_id,
    owner_id: input.owner_id,
    purchaser_id: input.purchaser_id ?? null,
    entries_total: type!.number_of_entries,
    entries_remaining: type!.number_of_entries,
    expiry_date: expiryDate,
    acquired_via: input.acquired_via ?? 'manual',
    invoice_id: null,
    created_by_id: actor.user.id,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  })
}

/** PATCH: entries left (never more than the pass had) and the expiry date. */
export async function changeCustomerEntryPass(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: CustomerEntryPassRow,
  body: CheckedBody<UpdateInput>,
): Promise<void> {
  const { fields, errors } = body
  if (fields.entries_remaining !== undefined && fields.entries_remaining > row.entries_total) {
    errors.add('entries_remaining', messages.max(row.entries_total))
  }
  if (fields.entry_pass_id !== undefined && fields.entry_pass_id !== row.entry_pass_type_id) {
    errors.add('entry_pass_id', messages.cannotChange)
  }
  if (fields.owner_id !== undefined && fields.owner_id !== row.owner_id)
    errors.add('owner_id', messages.cannotChange)
  const input = body.valid()
  await updateCustomerEntryPass(deps.db, row.id, {
    entries_remaining: input.entries_remaining,
    expiry_date: input.expiry_date,
    updated_at: deps.clock.now().toISOString(),
  })
}
