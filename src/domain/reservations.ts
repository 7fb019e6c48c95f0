/** Why a booking is refused, whether made at /api/reservations/ or sold on an invoice's BOO line. */
export const reservationMessages = {
  eventCancelled: 'This event is cancelled.',
  duplicate: 'This customer already has a reservation for this event.',
  alreadyCancelled: 'This reservation is already cancelled.',
}
