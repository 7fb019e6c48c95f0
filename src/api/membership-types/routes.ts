import { changeMembershipType, createMembershipType } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { getMembershipType, listMembershipTypes } from './queries.ts'
import { MembershipTypeOut, MembershipTypeWrite } from './schema.ts'
import { serializeMembershipType } from './serializer.ts'

const INTERVAL_RULES = [
  '`interval` is required for a recurring (`REC`) type (`A recurring membership type needs a billing',
  'interval.`) and must be empty otherwise (`Only a recurring membership type has a billing',
  'interval; leave it empty.`). `location_id` must name a gym, and `tax_rate_id` a tax rate.',
].join(' ')

/** /api/memberships/: membership types (products). Admins write; no DELETE (retire instead). */
export const membershipTypeRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/memberships',
    tag: 'Membership types',
    noun: 'membership type',
    read: 'staff',
    write: 'admin',
    descriptions: {
      list: [
        'Ordered by id. `status` and `purchase_type` match a part of the code (`ACT`, `REC`), in any',
        'case.',
      ].join(' '),
      create: INTERVAL_RULES,
      replace: INTERVAL_RULES,
      update: `${INTERVAL_RULES} A change away from \`REC\` clears the interval.`,
    },
    filters: defineFilters({ status: 'text', purchase_type: 'text', is_group: 'bool' }),
    output: MembershipTypeOut,
    list: ({ deps }, filters) => listMembershipTypes(deps.db, filters),
    get: ({ deps }, id) => getMembershipType(deps.db, id),
    serialize: serializeMembershipType,
    create: { body: MembershipTypeWrite, run: ({ deps }, body) => createMembershipType(deps, body) },
    replace: {
      body: MembershipTypeWrite,
      run: ({ deps }, row, body) => changeMembershipType(deps, row, body),
    },
  })
