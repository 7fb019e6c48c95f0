import type { Static } from 'elysia'
import { customerExists } from '../customers/queries.ts'
import { getEvent } from '../events/queries.ts'
import { insertReservation, updateReservation, type ReservationRow } from './queries.ts'
// One live reservation per customer and event, as a booking sold at the desk checks it too.
import { hasActiveReservation } from '../../core/sales/reads.ts'
import type { ReservationCreate, ReservationReplace } from './schema.ts'
import type { Deps } from '../../deps.ts'
import { messages } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { toFlag } from '../../db/flags.ts'
import { lookUpReferenced } from '../../http/references.ts'
import { reservationMessages } from '../../domain/reservations.ts'

export { reservationMessages }

export async function createReservation(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<Static<typeof ReservationCreate>>,
): Promise<number> {
  const { fields, errors } = body
  const event = await lookUpReferenced(errors, 'event_id', fields.event_id, (id) => getEvent(deps.db, id))
  if (event?.is_cancelled === 1) errors.add('event_id', reservationMessages.eventCancelled)
  await lookUpReferenced(errors, 'customer_id', fields.customer_id, (id) => customerExists(deps.db, id))
  if (
    !errors.has('event_id') &&
    !errors.has('customer_id') &&
    fields.event_id !== undefined &&
    fields.customer_id !== undefined &&
    (await hasActiveReservation(deps.db, fields.customer_id, fields.event_id))
  ) {
    errors.add('non_field_errors', reservationMessages.duplicate)
  }
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return insertReservation(deps.db, {
    event_id: input.event_id,
    customer_id: input.customer_id,
    includes_entry: toFlag(input.includes_entry) ?? 1,
    is_cancelled: 0,
    checked_in: 0,
    created_at: now,
    updated_at: now,
  })
}

/** PUT/PATCH: whether it includes entry, and whether its holder came. */
export async function changeReservation(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: ReservationRow,
  body: CheckedBody<Partial<Static<typeof ReservationReplace>>>,
): Promise<void> {
  const { fields, errors } = body
  if (fields.event_id !== undefined && fields.event_id !== row.event_id)
    errors.add('event_id', messages.cannotChange)
  if (fields.customer_id !== undefined && fields.customer_id !== row.customer_id) {
    errors.add('customer_id', messages.cannotChange)
  }
  const input = body.valid()
  await updateReservation(deps.db, row.id, {
    includes_entry: toFlag(input.includes_entry),
    checked_in: toFlag(input.checked_in),
    updated_at: deps.clock.now().toISOString(),
  })
}

/** POST cancel/: frees the place; a cancelled reservation stays cancelled (book again instead). */
export async function cancelReservation(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: ReservationRow,
  body: CheckedBody<Record<string, never>>,
): Promise<void> {
  if (row.is_cancelled === 1) body.errors.add('non_field_errors', reservationMessages.alreadyCancelled)
  body.valid()
  await updateReservation(deps.db, row.id, { is_cancelled: 1, updated_at: deps.clock.now().toISOString() })
}
