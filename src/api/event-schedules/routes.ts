import { changeSchedule, createSchedule } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { eventTypeParent, getSchedule, listSchedules } from './queries.ts'
import { ScheduleOut, ScheduleWrite } from './schema.ts'
import { serializeSchedule } from './serializer.ts'

const FIELD_RULES = [
  '`weekdays` lists `MON`..`SUN`, at least one (`This list may not be empty.`), each once (`"MON" is',
  'given more than once.`), and is read back Monday first. `start_time` is `HH:MM`, 00:00 to 23:59',
  '(`Time has wrong format. Use one of these formats instead: hh:mm.`). `end_date` (null:',
  'open-ended) is not before `start_date` (`The end date must not be before the start date.`).',
  "`gym_id` must name a gym (default: the event type's gym). `price` is at least 0 with at most 2",
  'decimal places.',
].join(' ')

const GENERATOR_RULES = [
  "**Its events.** The box keeps each active schedule's events made from today to the event",
  "type's `booking_horizon_days` (default 28) ahead, today being the local date in the schedule's",
  'gym: one event for each date within `start_date`..`end_date`, on one of its `weekdays`, with no',
  'schedule exception, whose start is still to come, never two for one date. An event starts on its',
  "date at `start_time` on the gym's wall clock (the same local time on both sides of a",
  'daylight-saving change; a time that does not exist that day, such as 02:30 on a spring-forward',
  'day, is moved forward by the gap: 03:30; a time that happens twice is the second, in standard',
  "time), lasts `duration_minutes`, and takes the schedule's `capacity` and `price`, the type's",
  'name, and `includes_entry` true. They are made before this request answers, and as days pass',
  "without any request (at the server's start and every hour). Events of a retired event type are",
  'no longer made.',
].join(' ')

const CHANGE_RULES = [
  '**Changing it** changes its events that have not started and hold no live reservation, before the',
  'answer: those on dates it no longer matches (a weekday taken off, `end_date` brought forward,',
  '`is_active` false) are cancelled (`is_cancelled` true, kept), the others take the new times, gym,',
  'capacity and price (only what the change changed: an event edited by hand keeps the rest). An',
  'event cancelled on a date the change brings back (a weekday put back, the schedule reactivated)',
  'is uncancelled. Events with live reservations stay as they are. Spots the change opens (a raised',
  "capacity, an event moved out of its type's overlap) are offered to the waitlists, as a raised",
  'event capacity is. Deactivating (`is_active: false`) cancels its events to come without',
  'reservations and makes no new ones. There is no DELETE.',
].join(' ')

const SITE_RULES = [
  '**Sites.** On a box that is a site of a hub, only the site that created a schedule makes new',
  "events for it: the site whose number is the schedule's `id` modulo 1024 (a site gives the",
  'records it creates ids congruent to its number). Any site applies a change of a schedule, or an',
  'exception, to the events already made. A schedule created before its box joined a hub keeps its',
  'id, and the site its id names makes its events: to have another site make them, deactivate it',
  'and create it again there.',
].join(' ')

/** /api/event-types/<id>/schedules/: when an event type's events recur; the box makes the events. */
export const eventScheduleRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/event-types/:id/schedules',
    parent: eventTypeParent,
    idParam: 'schedule_id',
    tag: 'Event types',
    noun: 'event schedule',
    read: 'staff',
    write: 'can_manage_events',
    descriptions: {
      list: `The event type's schedules, by id (inactive ones too). ${GENERATOR_RULES} ${SITE_RULES}`,
      create: `${FIELD_RULES} ${GENERATOR_RULES} ${SITE_RULES}`,
      replace: `${FIELD_RULES} ${CHANGE_RULES}`,
      update: `${FIELD_RULES} ${CHANGE_RULES}`,
    },
    filters: defineFilters({}),
    output: ScheduleOut,
    list: ({ deps, parentId }) => listSchedules(deps.db, parentId),
    get: ({ deps, parentId }, id) => getSchedule(deps.db, parentId, id),
    serialize: serializeSchedule,
    create: { body: ScheduleWrite, run: ({ deps, parentId }, body) => createSchedule(deps, parentId, body) },
    replace: { body: ScheduleWrite, run: ({ deps }, row, body) => changeSchedule(deps, row, body) },
  })
