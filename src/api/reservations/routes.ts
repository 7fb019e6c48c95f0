import { cancelReservation, changeReservation, createReservation } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { getReservation, listReservations } from './queries.ts'
import { NoBody, ReservationCreate, ReservationOut, ReservationReplace } from './schema.ts'
import { serializeReservation } from './serializer.ts'

/** /api/reservations/: a customer's place at an event. Cancel with the action; no DELETE. */
const RESERVATION_CHANGE = [
  '`event_id` and `customer_id` cannot change (`This field cannot be changed.`). Cancel with',
  '`cancel/`; there is no DELETE.',
].join(' ')

export const reservationRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/reservations',
    tag: 'Reservations',
    noun: 'reservation',
    read: 'staff',
    write: 'can_manage_events',
    descriptions: {
      list: 'Ordered by id.',
      create: [
        'Books a customer on an event. Refused with 400 and nothing written when: the event is full,',
        "whichever of its own `capacity` and its type's facility capacity is reached (`The event is",
        "full.`); booking has closed, now being later than its start plus the type's",
        '`late_booking_window_minutes` (`Booking for this event has closed.`); the event is',
        "cancelled (`This event is cancelled.`) or its type a draft or retired (`This event's type is a",
        'draft.`, `...is retired.`, on `event_id`); the customer is inactive (`This customer is',
        'inactive.`), already holds a live reservation for it (`This customer already has a',
        "reservation for this event.`) or would pass the type's `max_reservations_per_day_for_customer`",
        "on the event's local day; a required question is unanswered or an answer does not fit its",
        'question (on `answers`); `event_voucher_id` is not a usable voucher of the customer for the',
        'type. Of any number of simultaneous bookings of the last spot exactly one wins. A',
        'reservation lets its holder in at the door while its event is happening when both it and its',
        'event have `includes_entry`. A customer waiting for the event who is booked leaves the',
        'waitlist promoted.',
      ].join(' '),
      replace: RESERVATION_CHANGE,
      update: RESERVATION_CHANGE,
    },
    filters: defineFilters({ customer_id: 'id', event_id: 'id' }),
    output: ReservationOut,
    list: ({ deps }, filters) => listReservations(deps.db, filters),
    get: ({ deps }, id) => getReservation(deps.db, id),
    serialize: serializeReservation,
    create: { body: ReservationCreate, run: ({ deps }, body) => createReservation(deps, body) },
    replace: { body: ReservationReplace, run: ({ deps }, row, body) => changeReservation(deps, row, body) },
    actions: [
      {
        name: 'cancel',
        summary: 'Cancel a reservation',
        description: [
          'No body, or `{}`. Frees the place at once and answers 200 with the reservation; a voucher',
          'use it took is given back when the event has not started. The spot goes to the first',
          "waiting customer when the event starts more than the type's `waitlist_promotion_cutoff_hours`",
          "from now; under the type's facility capacity, to the waiting of its overlapping events too,",
          'earliest first. One already cancelled is `This reservation is already cancelled.`: book again',
          'instead.',
        ].join(' '),
        body: NoBody,
        run: ({ deps }, row, body) => cancelReservation(deps, row, body),
      },
    ],
  })
