import { cancelReservation, changeReservation, createReservation } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { getReservation, listReservations } from './queries.ts'
import { NoBody, ReservationCreate, ReservationOut, ReservationReplace } from './schema.ts'
import { serializeReservation } from './serializer.ts'

/** /api/reservations/: a customer's place at an event. Cancel with the action; no DELETE. */
export const reservationRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/reservations',
    tag: 'Reservations',
    noun: 'reservation',
    read: 'staff',
    write: 'can_manage_events',
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
        body: NoBody,
        run: ({ deps }, row, body) => cancelReservation(deps, row, body),
      },
    ],
  })
