import { t } from 'elysia'
import {
  changeEvent,
  checkEventTimeFilters,
  createEvent,
  resolveEventFilters,
  throwFilterErrors,
} from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { ValidationError } from '../../http/errors.ts'
import { defineFilters } from '../../http/filters.ts'
import { getEventWithLoad, listEventsWithLoads } from './queries.ts'
import { EventOut, EventWrite } from './schema.ts'
import { serializeEvent } from './serializer.ts'

const idFilters = defineFilters({
  gym_id: 'id',
  event_type_id: 'id',
  starts_after: 'exact',
  starts_before: 'exact',
})

const timeFilter = (description: string) =>
  t.Optional(
    t.String({
      description: `${description}: an ISO datetime with an offset or Z, or a date (from the start of that organization-local day)`,
    }),
  )

const EVENT_RULES = [
  "An event's gym defaults to its type's gym, and its name to the type's name. `end_at` is after",
  '`start_at` (`The end must be after the start.`). Cancel an event with `is_cancelled`; there is no',
  "DELETE. `capacity` (0-1000, null: only the type's facility capacity limits it, 0: waitlist only)",
  'limits its live reservations; raising it offers the new spots to its waitlist. Cancelling an event',
  'leaves its reservations as they are.',
].join(' ')

/** The id filters plus start-time bounds, every bad parameter reported in one 400. */
const eventFilters = {
  query: t.Object(
    {
      ...idFilters.query.properties,
      starts_after: timeFilter('Events starting at or after this'),
      starts_before: timeFilter('Events starting before this'),
    },
    { additionalProperties: true },
  ),
  parse(query: Record<string, string | undefined>) {
    const errors = {}
    let values: ReturnType<typeof idFilters.parse> = {}
    try {
      values = idFilters.parse(query)
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      Object.assign(errors, error.fields)
    }
    throwFilterErrors({ ...errors, ...checkEventTimeFilters(query) })
    return values
  },
}

/** /api/events/: scheduled events at a gym. can_manage_events writes; cancel with is_cancelled. */
export const eventRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/events',
    tag: 'Events',
    noun: 'event',
    read: 'staff',
    write: 'can_manage_events',
    descriptions: {
      list: [
        'Ordered by start, then id. `starts_after` is inclusive and `starts_before` exclusive; each',
        "takes a datetime with an offset or `Z`, or a date (that day's start in the organization's",
        'zone); anything else is `Enter a valid date/time.` on that parameter.',
      ].join(' '),
      create: EVENT_RULES,
      replace: EVENT_RULES,
      update: EVENT_RULES,
    },
    filters: eventFilters,
    output: EventOut,
    list: async ({ deps }, filters) =>
      listEventsWithLoads(deps.db, await resolveEventFilters(deps, filters), deps.clock.now()),
    get: ({ deps }, id) => getEventWithLoad(deps.db, id, deps.clock.now()),
    serialize: serializeEvent,
    create: { body: EventWrite, run: ({ deps }, body) => createEvent(deps, body) },
    replace: { body: EventWrite, run: ({ deps }, row, body) => changeEvent(deps, row, body) },
  })
