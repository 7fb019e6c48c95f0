import { createScheduleException, removeScheduleException } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { eventTypeParent } from '../event-schedules/queries.ts'
import { getScheduleException, listScheduleExceptions } from './queries.ts'
import { ScheduleExceptionOut, ScheduleExceptionWrite } from './schema.ts'
import { serializeScheduleException } from './serializer.ts'

/** /api/event-types/<id>/schedule-exceptions/: dates a schedule has no event on. No PUT or PATCH. */
export const eventScheduleExceptionRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/event-types/:id/schedule-exceptions',
    parent: eventTypeParent,
    idParam: 'exception_id',
    tag: 'Event types',
    noun: 'schedule exception',
    read: 'staff',
    write: 'can_manage_events',
    descriptions: {
      list: "The exceptions of the event type's schedules, by date, then id.",
      create: [
        '`schedule_id` must name a schedule of this event type, else `Invalid pk "99" - object does',
        'not exist.`. One exception per schedule and date: a second is `{"non_field_errors": ["This',
        'schedule already has an exception on 2027-03-10."]}`. Before the answer, the event the',
        'schedule made for that date, if it has not started, is cancelled (`is_cancelled` true, kept)',
        'with its reservations, whose event voucher uses are given back, and its waiting entries (the',
        "spots this frees at the type's overlapping events are offered to their waitlists); no event is",
        'made for the date while the exception stands.',
      ].join(' '),
      remove: [
        'The date gets its event again, before the answer, while its start is still to come and it',
        "matches the schedule: the event cancelled for it is uncancelled with the schedule's terms (the",
        'reservations cancelled with it stay cancelled), or, when none was made yet, it is made as any',
        'other date is. To change an exception, remove it and create another.',
      ].join(' '),
    },
    filters: defineFilters({}),
    output: ScheduleExceptionOut,
    list: ({ deps, parentId }) => listScheduleExceptions(deps.db, parentId),
    get: ({ deps, parentId }, id) => getScheduleException(deps.db, parentId, id),
    serialize: serializeScheduleException,
    create: {
      body: ScheduleExceptionWrite,
      run: ({ deps, parentId }, body) => createScheduleException(deps, parentId, body),
    },
    remove: { run: ({ deps }, row) => removeScheduleException(deps, row) },
  })
