import { reservationMessages } from '../../../domain/reservations.ts'
import { insertReservation } from '../queries.ts'
import { getEventForSale, getEventTypeForSale, hasActiveReservation } from '../reads.ts'
import { atMost } from '../refusals.ts'
import { lookUpProduct, type GrantOf, type LineKind } from './line-kind.ts'

/** BOO: the customer booked on an event that is not cancelled, once. */
export const bookingLine: LineKind<GrantOf<'BOO'>> = {
  async check(line, sale, refusals) {
    if ((line.quantity ?? 1) > 1) refusals.add('quantity', atMost(1))
    const event = await lookUpProduct(
      refusals,
      'event_id',
      line.event_id,
      (id) => getEventForSale(sale.db, id),
      (e) => (e.is_cancelled === 1 ? reservationMessages.eventCancelled : undefined),
    )
    if (!event) return undefined
    if (sale.customerId !== null && (await hasActiveReservation(sale.db, sale.customerId, event.id)))
      refusals.add('event_id', reservationMessages.duplicate)
    // A scheduled class's event has no name of its own: the line is described by its type's.
    const name =
      event.name === '' ? ((await getEventTypeForSale(sale.db, event.event_type_id))?.name ?? '') : event.name
    return { product: { ...event, name }, grant: { purchaseType: 'BOO', eventId: event.id } }
  },
  async post(line, sale, insertLine) {
    const customerId = sale.sale.customerId
    const reservationId =
      customerId === null
        ? null
        : await insertReservation(sale.trx, {
            event_id: line.eventId,
            customer_id: customerId,
            includes_entry: 1,
            is_cancelled: 0,
            checked_in: 0,
            created_at: sale.at,
            updated_at: sale.at,
          })
    await insertLine({ event_id: line.eventId, reservation_id: reservationId })
  },
}
