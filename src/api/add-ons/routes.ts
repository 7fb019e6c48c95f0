import { changeAddOn, createAddOn } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { getAddOn, listAddOns } from './queries.ts'
import { AddOnOut, AddOnWrite } from './schema.ts'
import { serializeAddOn } from './serializer.ts'

/** /api/add-ons/: add-ons (keyed by a text id, as in member rows). Admins write; no DELETE. */
export const addOnRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/add-ons',
    idType: 'string',
    tag: 'Add-ons',
    noun: 'add-on',
    read: 'staff',
    write: 'admin',
    filters: defineFilters({ name: 'text', is_visible: 'bool' }),
    output: AddOnOut,
    list: ({ deps }, filters) => listAddOns(deps.db, filters),
    get: ({ deps }, id) => getAddOn(deps.db, id),
    serialize: serializeAddOn,
    create: { body: AddOnWrite, run: ({ deps }, body) => createAddOn(deps, body) },
    replace: { body: AddOnWrite, run: ({ deps }, row, body) => changeAddOn(deps, row, body) },
  })
