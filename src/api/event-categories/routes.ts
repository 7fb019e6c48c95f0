import { changeEventCategory, createEventCategory, removeEventCategory } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { getEventCategory, listEventCategories } from './queries.ts'
import { EventCategoryOut, EventCategoryWrite } from './schema.ts'
import { serializeEventCategory } from './serializer.ts'

/**
 * /api/event-categories/: what event types are filed under (Youth, Instruction, ...), which the
 * metrics filter by. Any staff user reads them; event managers write them, as event types.
 */
export const eventCategoryRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/event-categories',
    tag: 'Event categories',
    noun: 'event category',
    plural: 'event categories',
    read: 'staff',
    write: 'can_manage_events',
    descriptions: {
      list: 'Ordered by name, then id; removed categories are not listed.',
      remove: [
        'Removes the category softly: it leaves the list and reads 404, but event types filed under',
        "it keep it in their `category_ids` (the metrics' `event_category_ids` filter still matches",
        'it), and sending it back with the rest of their list is accepted; nothing is filed under it',
        'anew. Answers 204 with no body.',
      ].join(' '),
    },
    filters: defineFilters({}),
    output: EventCategoryOut,
    list: ({ deps }) => listEventCategories(deps.db),
    get: ({ deps }, id) => getEventCategory(deps.db, id),
    serialize: serializeEventCategory,
    create: { body: EventCategoryWrite, run: ({ deps }, body) => createEventCategory(deps, body) },
    replace: { body: EventCategoryWrite, run: ({ deps }, row, body) => changeEventCategory(deps, row, body) },
    remove: { run: ({ deps }, row) => removeEventCategory(deps, row) },
  })
