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
    descriptions: {
      list: 'Ordered by name, then id. `name` matches a part of the name, in any case.',
      create: [
        '`id` is letters, digits, `_` or `-`; when not given it is made from the name (`locker`,',
        'then `locker-2`, …). An id taken is `add-on with this id already exists.`. Each key of',
        '`revenue_account_codes` and `tax_rate_per_location` must be a gym id.',
      ].join(' '),
      replace: 'The `id` cannot change (`This field cannot be changed.`).',
      update: 'The `id` cannot change (`This field cannot be changed.`).',
    },
    filters: defineFilters({ name: 'text', is_visible: 'bool' }),
    output: AddOnOut,
    list: ({ deps }, filters) => listAddOns(deps.db, filters),
    get: ({ deps }, id) => getAddOn(deps.db, id),
    serialize: serializeAddOn,
    create: { body: AddOnWrite, run: ({ deps }, body) => createAddOn(deps, body) },
    replace: { body: AddOnWrite, run: ({ deps }, row, body) => changeAddOn(deps, row, body) },
  })
