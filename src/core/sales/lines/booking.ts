import { reservationMessages } from '../../../domain/reservations.ts'
import { leaveWaitlistBooked, liveReservationOf, placeRefusal } from '../../classes/booking.ts'
import { loadEventForBooking } from '../../classes/capacity.ts'
import { EventNotBookable } from '../conflicts.ts'
import { insertReservation } from '../queries.ts'
import { getEventForSale, getEventTypeForSale } from '../reads.ts'
import { atMost } from '../refusals.ts'
import { lookUpProduct, type GrantOf, type LineKind } from './line-kind.ts'

/**
 * BOO: the customer booked on an event that is not cancelled, once, when it has a spot, booking is
 * open and its type active (judged when the sale is posted). A booking sold takes no answers: the
 * type's questions are asked when booking at /api/reservations/.
 */
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
    if (
      sale.customerId !== null &&
      (await liveReservationOf(sale.db, sale.customerId, event.id)) !== undefined
    )
      refusals.add('event_id', reservationMessages.duplicate)
    // A scheduled class's event has no name of its own: the line is described by its type's.
    const name =
      event.name === '' ? ((await getEventTypeForSale(sale.db, event.event_type_id))?.name ?? '') : event.name
    return { product: { ...event, name }, grant: { purchaseType: 'BOO', eventId: event.id } }
  },
  async post(line, sale, insertLine) {
    // Capacity, the late-booking window and the type's status are judged here, in the posting
    // transaction, as a booking at /api/reservations/ judges them: the last spot has one winner.
    const event = (await loadEventForBooking(sale.trx, line.eventId))!
    const reason =
      event.type_status !== 'ACT'
        ? reservationMessages.typeNotActive(event.type_status)
        : await placeRefusal(sale.trx, event, sale.now)
    if (reason !== undefined) throw new EventNotBookable(sale.index, reason)
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
    if (customerId !== null && reservationId !== null)
      await leaveWaitlistBooked(sale.trx, line.eventId, customerId, reservationId, sale.at)
    await insertLine({ event_id: line.eventId, reservation_id: reservationId })
  },
}
