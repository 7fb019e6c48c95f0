import { changeGym, createGym } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { getGym, listGyms } from './queries.ts'
import { GymOut, GymWrite } from './schema.ts'
import { serializeGym } from './serializer.ts'

export const gymRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/gyms',
    tag: 'Gyms',
    noun: 'gym',
    read: 'staff',
    write: 'admin',
    descriptions: {
      list: 'Ordered by id.',
      read: 'The gym, with links to its climbs, grades and sections.',
      create: 'Needs `name` and `time_zone`; the other fields take their defaults.',
    },
    filters: defineFilters({}),
    output: GymOut,
    list: ({ deps }) => listGyms(deps.db),
    get: ({ deps }, id) => getGym(deps.db, id),
    serialize: serializeGym,
    create: { body: GymWrite, run: ({ deps }, body) => createGym(deps, body) },
    replace: { body: GymWrite, run: ({ deps }, gym, body) => changeGym(deps, gym, body) },
  })
