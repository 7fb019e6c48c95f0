import { changeEntryPassType, createEntryPassType } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { getEntryPassType, listEntryPassTypes } from './queries.ts'
import { EntryPassTypeOut, EntryPassTypeWrite } from './schema.ts'
import { serializeEntryPassType } from './serializer.ts'

/** /api/entry-passes/: entry pass types (products). Admins write; no DELETE (retire instead). */
export const entryPassTypeRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/entry-passes',
    tag: 'Entry pass types',
    noun: 'entry pass type',
    read: 'staff',
    write: 'admin',
    descriptions: {
      list: 'Ordered by id. `status` matches a part of the code (`ACT`), in any case.',
    },
    filters: defineFilters({ status: 'text' }),
    output: EntryPassTypeOut,
    list: ({ deps }, filters) => listEntryPassTypes(deps.db, filters),
    get: ({ deps }, id) => getEntryPassType(deps.db, id),
    serialize: serializeEntryPassType,
    create: { body: EntryPassTypeWrite, run: ({ deps }, body) => createEntryPassType(deps, body) },
    replace: {
      body: EntryPassTypeWrite,
      run: ({ deps }, row, body) => changeEntryPassType(deps, row, body),
    },
  })
