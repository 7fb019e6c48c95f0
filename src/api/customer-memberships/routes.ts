import { changeCustomerMembership, createCustomerMembership } from './rules.ts'
import { cancelMembership, freezeMembership, unfreezeMembership } from './actions.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { paragraphs } from '../../http/docs.ts'
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

/** What every status action shares. */
const MEMBERSHIP_ACTIONS = [
  'Each change is kept in `status_history` with its organization-local date, and applies once: a',
  'second request sent at the same moment that finds the membership changed meanwhile is `This',
  'membership was changed by another request while this one was recorded; nothing was changed.`.',
  'Answers 200 with the membership.',
].join(' ')

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
    descriptions: {
      list: 'Newest start first (then newest id). `status` matches a part of the code (`FRZ`), in any case.',
      create: paragraphs(
        [
          '`member_ids` defaults to the owner; a type that is not a group type covers exactly its owner',
          '(`This membership type is not a group type: it covers exactly its owner.`); a customer listed',
          'twice is `Customer 7 is listed more than once.`, an empty list `This list may not be empty.`,',
          'all on `member_ids`. `end_date` is not before `start_date` (`The end date cannot be before',
          'the start date.`). Each of `add_on_ids` must name an add-on.',
        ],
        [
          'The first `status_history` row is dated the start date when that is already past (an',
          'imported membership has been active since it started), else today.',
        ],
      ),
      update: [
        'Amends billing details. `membership_id`, `owner_id` and `start_date` cannot change (`This',
        'field cannot be changed.`); a different `status` is `The status changes only through the',
        'freeze/, unfreeze/ and cancel/ actions.`, so that every change is in the history. There is no',
        'PUT or DELETE (405).',
      ].join(' '),
    },
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
        description: paragraphs(
          [
            'Without `member_id`: the whole membership, from an active status (`ACT`, `IPP`, `PPR`) to',
            '`FRZ`, else `Only an active membership can be frozen.`. With `member_id`: that member',
            'alone, while the membership is active (`Members can be frozen or unfrozen only while the',
            'membership is active.`); a customer not covered is `This customer is not a member of this',
            'membership.` and one frozen already `This member is already frozen.` on `member_id`.',
          ],
          [MEMBERSHIP_ACTIONS],
        ),
        body: MemberAction,
        run: ({ deps }, row, body, actor) => freezeMembership(deps, row, body, actor),
      },
      {
        name: 'unfreeze',
        summary: 'Unfreeze a customer membership, or one member of it',
        description: paragraphs(
          [
            'Without `member_id`: the whole membership, from a frozen status (`FRZ`, `FPR`) to `ACT`,',
            'else `Only a frozen membership can be unfrozen.`. With `member_id`: that member alone, while',
            'the membership is active; one not frozen is `This member is not frozen.` on `member_id`.',
          ],
          [MEMBERSHIP_ACTIONS],
        ),
        body: MemberAction,
        run: ({ deps }, row, body, actor) => unfreezeMembership(deps, row, body, actor),
      },
      {
        name: 'cancel',
        summary: 'Cancel a customer membership',
        description: paragraphs(
          [
            'No body, or `{}`. Sets the status to `CAN` from any status but a finished one (`This',
            'membership is already cancelled, ended or denied.`). The membership ends today unless it',
            'already ends earlier; one not started yet ends on its start date.',
          ],
          [MEMBERSHIP_ACTIONS],
        ),
        body: NoBody,
        run: ({ deps }, row, body, actor) => cancelMembership(deps, row, body, actor),
      },
    ],
  })
