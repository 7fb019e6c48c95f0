import { Elysia } from 'elysia'
import { changeGym, createGym } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { emptySubCollections } from '../../http/empty-collections.ts'
import { defineFilters } from '../../http/filters.ts'
import { getGym, gymExists, listGyms } from './queries.ts'
import { GymOut, GymWrite } from './schema.ts'
import { serializeGym } from './serializer.ts'

export const gymRoutes = (deps: Deps) =>
  new Elysia()
    .use(
      collectionRoutes(deps, {
        path: '/api/gyms',
        tag: 'Gyms',
        noun: 'gym',
        read: 'staff',
        write: 'admin',
        descriptions: {
          list: 'Ordered by id.',
          read: 'The gym, with links to its climbs (empty in this version), grades and sections.',
          create: 'Needs `name` and `time_zone`; the other fields take their defaults.',
        },
        filters: defineFilters({}),
        output: GymOut,
        list: ({ deps }) => listGyms(deps.db),
        get: ({ deps }, id) => getGym(deps.db, id),
        serialize: serializeGym,
        create: { body: GymWrite, run: ({ deps }, body) => createGym(deps, body) },
        replace: { body: GymWrite, run: ({ deps }, gym, body) => changeGym(deps, gym, body) },
      }),
    )
    .use(
      emptySubCollections(deps, {
        path: '/api/gyms',
        tag: 'Gyms',
        names: ['climbs'],
        parentExists: (id) => gymExists(deps.db, id),
      }),
    )
