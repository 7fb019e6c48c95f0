import { changeEventType, createEventType } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { getEventType, listEventTypes } from './queries.ts'
import { EventTypeOut, EventTypeWrite } from './schema.ts'
import { serializeEventType } from './serializer.ts'

const CHANGE_RULES = [
  '`gym_id` cannot change (`This field cannot be changed.`). Sending `category_ids` replaces the',
  'list: each id must name an event category in use or one the type is already filed under (a',
  'category removed since stays among its `category_ids`, so sending back what was read keeps it,',
  'but nothing is filed under it anew), else `Invalid pk "99" - object does not exist.` on',
  '`category_ids`, one message per id. There is no DELETE: retire a type with `status: "RET"`.',
].join(' ')

export const eventTypeRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/event-types',
    tag: 'Event types',
    noun: 'event type',
    read: 'staff',
    write: 'can_manage_events',
    descriptions: {
      list: 'Ordered by id. `status` matches a part of the status code (`ACT`), in any case.',
      create: [
        '`gym_id` must name a gym; each of `category_ids` must name an event category in use, else',
        '`Invalid pk "99" - object does not exist.` on `category_ids`, one message per id.',
      ].join(' '),
      replace: CHANGE_RULES,
      update: CHANGE_RULES,
    },
    filters: defineFilters({ gym_id: 'id', status: 'text' }),
    output: EventTypeOut,
    list: ({ deps }, filters) => listEventTypes(deps.db, filters),
    get: ({ deps }, id) => getEventType(deps.db, id),
    serialize: serializeEventType,
    create: { body: EventTypeWrite, run: ({ deps }, body) => createEventType(deps, body) },
    replace: { body: EventTypeWrite, run: ({ deps }, row, body) => changeEventType(deps, row, body) },
  })
