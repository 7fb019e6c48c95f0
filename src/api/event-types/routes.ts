import { Elysia } from 'elysia'
import { changeEventType, createEventType } from '../../core/event-types.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes, emptySubCollections } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { countEventTypes, getEventType, listEventTypes } from './queries.ts'
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
        count: (d, filters) => countEventTypes(d.db, filters),
        list: (d, filters, limit, offset) => listEventTypes(d.db, filters, limit, offset),
        get: (d, id) => getEventType(d.db, id),
        serialize: serializeEventType,
        create: { body: EventTypeWrite, run: (d, body) => createEventType(d, body) },
        replace: { body: EventTypeWrite, run: (d, row, body) => changeEventType(d, row, body) },
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
