import { changeMembershipType, createMembershipType } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { getMembershipType, listMembershipTypes } from './queries.ts'
import { MembershipTypeOut, MembershipTypeWrite } from './schema.ts'
import { serializeMembershipType } from './serializer.ts'

/** /api/memberships/: membership types (products). Admins write; no DELETE (retire instead). */
export const membershipTypeRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/memberships',
    tag: 'Membership types',
    noun: 'membership type',
    read: 'staff',
    write: 'admin',
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
