import { organizationToday } from '../organization/queries.ts'
import { changeCustomer, createCustomer } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { getCustomer, getStoredCustomer, listCustomers } from './queries.ts'
import { CustomerOut, CustomerWrite } from './schema.ts'
import { serializeCustomer } from './serializer.ts'

/**
 * /api/customers/: ordered by last name, first name, then id. No DELETE (405): deactivate with
 * `is_active: false`, so check-ins, memberships and payments keep their customer.
 */
export const customerRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/customers',
    idParam: 'customer_id',
    tag: 'Customers',
    noun: 'customer',
    read: 'staff',
    write: 'can_manage_members',
    filters: defineFilters({ search: 'text', barcode: 'exact', home_location_id: 'id', is_active: 'bool' }),
    output: CustomerOut,
    // The list and its search on the reader (committed data, off the server's thread).
    list: async ({ deps }, filters) => listCustomers(deps.reader, filters, await organizationToday(deps)),
    get: async ({ deps }, id) => getCustomer(deps.db, id, await organizationToday(deps)),
    // A change needs the stored columns only: the record (and today, for its computed fields) is
    // read once, for the response, after the write.
    target: ({ deps }, id) => getStoredCustomer(deps.db, id),
    serialize: serializeCustomer,
    create: { body: CustomerWrite, run: ({ deps }, body) => createCustomer(deps, body) },
    replace: { body: CustomerWrite, run: ({ deps }, row, body) => changeCustomer(deps, row, body) },
  })
