import { organizationToday } from '../organization/queries.ts'
import { changeCustomer, createCustomer } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { paragraphs } from '../../http/docs.ts'
import { defineFilters } from '../../http/filters.ts'
import { getCustomer, getStoredCustomer, listCustomers } from './queries.ts'
import { CustomerOut, CustomerWrite } from './schema.ts'
import { serializeCustomer } from './serializer.ts'

/** The checks a customer's fields meet beyond their types, on every write. */
const WRITE_RULES = paragraphs(
  [
    "`birthday` is neither after the organization's today nor before 1900-01-01",
    '(`Ensure this value is less than or equal to <today>.`). A barcode already taken is',
    '`customer with this barcode already exists.` on `barcode`, also when two writes race.',
    '`address_country` that is no ISO 3166-1 code is `"XX" is not a valid choice.`.',
    '`profile_image_url` is `""` or an `http`/`https` URL (the scheme in any case, as DRF takes it)',
    "that is a valid URI (RFC 3986: no space, every `%` followed by two hex digits), as the door's",
    'look-up shows it; anything else is `Enter a valid URL.`. `home_location_id` must name a gym.',
  ],
  ['Customers are never deleted (DELETE is 405): set `is_active` false.'],
)

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
    descriptions: {
      list: paragraphs(
        [
          'Ordered by last name, then first name, then id. `search` takes space-separated words, each',
          'found (any case) in the first, last or preferred name, the email or the barcode; a word of',
          'at least three digits, written as telephone numbers are (with `(`, `)`, `-`, `.` or `+`), is',
          'also looked for among the digits of the telephone, so `303-555` finds `(303) 555-0182`.',
          '`barcode` is exact, and case-sensitive.',
        ],
        ['Deactivated customers are listed too: filter with `is_active`.'],
      ),
      read: 'The customer, with links to their records (`credits_url`, `alerts_url`, …).',
      create: WRITE_RULES,
      replace: WRITE_RULES,
      update: WRITE_RULES,
    },
    filters: defineFilters({ search: 'text', barcode: 'exact', home_location_id: 'id', is_active: 'bool' }),
    csv: { permission: 'can_export_customers', today: organizationToday },
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
