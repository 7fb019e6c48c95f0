import { changeCustomerEntryPass, createCustomerEntryPass } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { getCustomerEntryPass, listCustomerEntryPasses } from './queries.ts'
import { CustomerEntryPassCreate, CustomerEntryPassOut, CustomerEntryPassUpdate } from './schema.ts'
import { serializeCustomerEntryPass } from './serializer.ts'

/** /api/customer-entry-passes/: passes customers hold. No PUT or DELETE: amend with PATCH. */
export const customerEntryPassRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/customer-entry-passes',
    tag: 'Customer entry passes',
    noun: 'customer entry pass',
    read: 'staff',
    write: 'can_manage_members',
    descriptions: {
      list: "Ordered by id; `owner_id` selects one customer's passes.",
      create: [
        "Issues a pass of `entry_pass_id` to `owner_id`, with the type's number of entries. Without",
        '`expiry_date` it expires `valid_days` after issue, counting the issue day, in the',
        "organization's zone (never, for a type without `valid_days`); `expiry_date: null` means never.",
      ].join(' '),
      update: [
        '`entries_remaining` is from 0 to `entries_total` (`Ensure this value is less than or equal to',
        '<entries_total>.`); `entry_pass_id` and `owner_id` cannot change (`This field cannot be',
        'changed.`). There is no PUT or DELETE (405).',
      ].join(' '),
    },
    filters: defineFilters({ owner_id: 'id' }),
    output: CustomerEntryPassOut,
    list: ({ deps }, filters) => listCustomerEntryPasses(deps.db, filters),
    get: ({ deps }, id) => getCustomerEntryPass(deps.db, id),
    serialize: (row, urls) => serializeCustomerEntryPass(row, urls, deps.clock.now()),
    create: {
      body: CustomerEntryPassCreate,
      run: ({ deps }, body, actor) => createCustomerEntryPass(deps, body, actor),
    },
    replace: {
      body: CustomerEntryPassUpdate,
      patchOnly: true,
      run: ({ deps }, row, body) => changeCustomerEntryPass(deps, row, body),
    },
  })
