/** Why a booking is refused, whether made at /api/reservations/ or sold on an invoice's BOO line. */
export const reservationMessages = {
  eventCancelled: 'This event is cancelled.',
  duplicate: 'This customer already has a reservation for this event.',
  alreadyCancelled: 'This reservation is already cancelled.',
  full: 'The event is full.',
  closed: 'Booking for this event has closed.',
  typeNotActive: (status: 'DRA' | 'RET') =>
    status === 'DRA' ? "This event's type is a draft." : "This event's type is retired.",
  customerInactive: 'This customer is inactive.',
  perDayLimit: (limit: number, date: string) =>
    `This customer already has ${limit} ${limit === 1 ? 'reservation' : 'reservations'} of this event type on ${date}, the most allowed a day.`,
}

/** Answers to an event type's questions, and its waitlist. */
export const classMessages = {
  doesNotExist: (id: number) => `Invalid pk "${id}" - object does not exist.`,
  answeredTwice: (text: string) => `"${text}" is answered more than once.`,
  yesOrNo: (text: string) => `"${text}" takes true or false.`,
  textAnswer: (text: string) => `"${text}" takes a text answer.`,
  notAChoice: (answer: string, text: string) => `"${answer}" is not one of the choices of "${text}".`,
  required: (text: string) => `"${text}" needs an answer.`,
  voucherOtherType: 'This voucher is for another event type.',
  voucherUsedUp: 'This voucher has no uses left.',
  voucherExpired: 'This voucher has expired.',
  voucherRemoved: 'This voucher was removed.',
  hasSpots: 'The event has spots left: book it instead.',
  alreadyWaiting: 'This customer is already on the waitlist for this event.',
  notWaiting: 'This entry is no longer waiting.',
  expired: 'This event has started: its waitlist has expired.',
}
