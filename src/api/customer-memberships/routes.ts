import { changeCustomerMembership, createCustomerMembership } from './rules.ts'
import { cancelMembership, freezeMembership, unfreezeMembership } from './actions.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { getCustomerMembership, listCustomerMemberships } from './queries.ts'
import {
  CustomerMembershipCreate,
  CustomerMembershipOut,
  CustomerMembershipUpdate,
  MemberAction,
  NoBody,
} from './schema.ts'
import { serializeCustomerMembership } from './serializer.ts'

/**
 * /api/customer-memberships/: memberships customers hold. PATCH amends billing details; the status
 * changes only through the actions, so every change is in the history. No PUT, no DELETE.
 */
export const customerMembershipRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/customer-memberships',
    tag: 'Customer memberships',
    noun: 'customer membership',
    read: 'staff',
    write: 'can_manage_members',
    filters: defineFilters({
      owner_id: 'id',
      status: 'text',
      membership_id: 'id',
      billing_location_id: 'id',
    }),
    output: CustomerMembershipOut,
    list: ({ deps }, filters) => listCustomerMemberships(deps.db, filters),
    get: ({ deps }, id) => getCustomerMembership(deps.db, id),
    serialize: serializeCustomerMembership,
    create: {
      body: CustomerMembershipCreate,
      run: ({ deps }, body, actor) => createCustomerMembership(deps, body, actor),
    },
    replace: {
      body: CustomerMembershipUpdate,
      patchOnly: true,
      run: ({ deps }, row, body) => changeCustomerMembership(deps, row, body),
    },
    actions: [
      {
        name: 'freeze',
        summary: 'Freeze a customer membership, or one member of it',
        body: MemberAction,
        run: ({ deps }, row, body, actor) => freezeMembership(deps, row, body, actor),
      },
      {
        name: 'unfreeze',
        summary: 'Unfreeze a customer membership, or one member of it',
        body: MemberAction,
        run: ({ deps }, row, body, actor) => unfreezeMembership(deps, row, body, actor),
      },
      {
        name: 'cancel',
        summary: 'Cancel a customer membership',
        body: NoBody,
        run: ({ deps }, row, body, actor) => cancelMembership(deps, row, body, actor),
      },
    ],
  })
