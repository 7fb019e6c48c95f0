import type { Static } from 'elysia'
import { joinIn, leaveIn, promoteByHandIn } from '../../core/classes/waitlist.ts'
import type { Deps } from '../../deps.ts'
import { lookUpReferenced } from '../../http/references.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { customerExists } from '../customers/queries.ts'
import { getEvent } from '../events/queries.ts'
import type { WaitlistEntryRow } from './queries.ts'
import type { WaitlistEntryCreate } from './schema.ts'

/** POST: the references, then joining in one transaction (core/classes/waitlist.ts). */
export async function joinWaitlist(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<Static<typeof WaitlistEntryCreate>>,
): Promise<number> {
  const { fields, errors } = body
  await lookUpReferenced(errors, 'event_id', fields.event_id, (id) => getEvent(deps.db, id))
  await lookUpReferenced(errors, 'customer_id', fields.customer_id, (id) => customerExists(deps.db, id))
  const input = body.valid()
  const request = { eventId: input.event_id, customerId: input.customer_id, answers: input.answers ?? [] }
  return deps.db.transaction().execute((trx) => joinIn(trx, request, deps.clock.now()))
}

export async function leaveWaitlist(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: WaitlistEntryRow,
  body: CheckedBody<Record<string, never>>,
): Promise<void> {
  body.valid()
  await deps.db.transaction().execute((trx) => leaveIn(trx, row.id, deps.clock.now()))
}

export async function promoteEntry(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: WaitlistEntryRow,
  body: CheckedBody<Record<string, never>>,
): Promise<void> {
  body.valid()
  await deps.db.transaction().execute((trx) => promoteByHandIn(trx, row.id, deps.clock.now()))
}
