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
        'One live reservation per customer and event (`This customer already has a reservation for',
        'this event.`); a cancelled event is `This event is cancelled.` on `event_id`. Capacity and',
        "the event type's late-booking window are not enforced yet. A reservation lets its holder in",
        'at the door while its event is happening when both it and its event have `includes_entry`.',
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
          'No body, or `{}`. Frees the place and answers 200 with the reservation; one already',
          'cancelled is `This reservation is already cancelled.`: book again instead.',
        ].join(' '),
        body: NoBody,
        run: ({ deps }, row, body) => cancelReservation(deps, row, body),
      },
    ],
  })
