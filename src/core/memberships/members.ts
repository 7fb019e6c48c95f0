import type { Db } from '../../db/connection.ts'
import { listExistingCustomerIds } from './queries.ts'

/** Why a membership's member list is refused, whether at /api/customer-memberships/ or on a MIN line. */
export const memberMessages = {
  soloMembers: 'This membership type is not a group type: it covers exactly its owner.',
  emptyList: 'This list may not be empty.',
  duplicateMember: (id: number) => `Customer ${id} is listed more than once.`,
}

/** The members a new membership is asked to cover. */
export interface MemberList {
  /** member_ids as sent; undefined covers the owner alone */
  sent: readonly number[] | undefined
  ownerId: number | undefined
  /** The type's is_group; undefined while the type is not known */
  isGroup: boolean | undefined
}

/**
 * Who the membership covers (the data convention the members report and the metrics read): a
 * solo membership exactly its owner, a group membership the listed customers (the owner only if
 * listed). Returns the ids to store (undefined when they cannot be known yet) and, in order, why
 * the list is refused; an id naming no customer is refused in the caller's words, `unknown(id)`.
 */
export async function checkMembers<Unknown = string>(
  db: Db,
  list: MemberList,
  unknown: (id: number) => Unknown,
): Promise<{ ids: number[] | undefined; refusals: (string | Unknown)[] }> {
  const { sent, ownerId, isGroup } = list
  const ids = sent ? [...sent] : ownerId === undefined ? undefined : [ownerId]
  const refusals: (string | Unknown)[] = []
  if (ids === undefined) return { ids, refusals }
  if (sent !== undefined) {
    const existing = await listExistingCustomerIds(db, ids)
    const seen = new Set<number>()
    for (const id of ids) {
      if (seen.has(id)) refusals.push(memberMessages.duplicateMember(id))
      else if (!existing.has(id)) refusals.push(unknown(id))
      seen.add(id)
    }
  }
  if (isGroup === false && ownerId !== undefined && (ids.length !== 1 || ids[0] !== ownerId)) {
    refusals.push(memberMessages.soloMembers)
  } else if (isGroup === true && ids.length === 0) {
    refusals.push(memberMessages.emptyList)
  }
  return { ids, refusals }
}
