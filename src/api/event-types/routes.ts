import { Elysia } from 'elysia'
import { changeEventType, createEventType } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { emptySubCollections } from '../../http/empty-collections.ts'
import { defineFilters } from '../../http/filters.ts'
import { getEventType, listEventTypes } from './queries.ts'
import { EventTypeOut, EventTypeWrite } from './schema.ts'
import { serializeEventType } from './serializer.ts'

export const eventTypeRoutes = (deps: Deps) =>
  new Elysia()
    .use(
      collectionRoutes(deps, {
        path: '/api/event-types',
        tag: 'Event types',
        noun: 'event type',
        read: 'staff',
        write: 'can_manage_events',
        filters: defineFilters({ gym_id: 'id', status: 'text' }),
        output: EventTypeOut,
        list: ({ deps }, filters) => listEventTypes(deps.db, filters),
        get: ({ deps }, id) => getEventType(deps.db, id),
        serialize: serializeEventType,
        create: { body: EventTypeWrite, run: ({ deps }, body) => createEventType(deps, body) },
        replace: { body: EventTypeWrite, run: ({ deps }, row, body) => changeEventType(deps, row, body) },
      }),
    )
    .use(
      emptySubCollections(deps, {
        path: '/api/event-types',
        tag: 'Event types',
        names: ['questions', 'schedules'],
        parentExists: async (id) => (await getEventType(deps.db, id)) !== undefined,
      }),
    )
