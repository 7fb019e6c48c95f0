import type { Static } from 'elysia'
import { customerExists } from '../customers/queries.ts'
import { getEvent } from '../events/queries.ts'
import { updateReservation, type ReservationRow } from './queries.ts'
import { book } from '../../core/classes/booking.ts'
import { cancelAndPromote } from '../../core/classes/waitlist.ts'
import type { ReservationCreate, ReservationReplace } from './schema.ts'
import type { Deps } from '../../deps.ts'
import { messages } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { toFlag } from '../../db/flags.ts'
import { lookUpReferenced } from '../../http/references.ts'
import { reservationMessages } from '../../domain/reservations.ts'

export { reservationMessages }

/**
 * POST: the references first (an event and a customer that exist), then the booking itself, checks
 * and write in one transaction (core/classes/booking.ts): full, closed, the per-day limit, answers
 * and voucher are refused there with nothing written.
 */
export async function createReservation(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<Static<typeof ReservationCreate>>,
): Promise<number> {
  const { fields, errors } = body
  await lookUpReferenced(errors, 'event_id', fields.event_id, (id) => getEvent(deps.db, id))
  await lookUpReferenced(errors, 'customer_id', fields.customer_id, (id) => customerExists(deps.db, id))
  const input = body.valid()
  return book(
    deps.db,
    {
      eventId: input.event_id,
      customerId: input.customer_id,
      answers: input.answers ?? [],
      eventVoucherId: input.event_voucher_id ?? null,
      includesEntry: input.includes_entry ?? true,
    },
    deps.clock.now(),
  )
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

/**
 * POST cancel/: frees the place at once (offered to the waitlist), gives back a voucher use before
 * the start; a cancelled reservation stays cancelled (book again instead).
 */
export async function cancelReservation(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: ReservationRow,
  body: CheckedBody<Record<string, never>>,
): Promise<void> {
  if (row.is_cancelled === 1) body.errors.add('non_field_errors', reservationMessages.alreadyCancelled)
  body.valid()
  await cancelAndPromote(deps.db, row.id, deps.clock.now())
}
