import type { Deps } from '../../deps.ts'
import {
  listAllAddOns,
  listGymNames,
  listMemberRows,
  listReportMembershipTypes,
  type MemberAddOnRow,
  type MemberFilters,
  type MemberRow,
  type ReportMembershipType,
} from './queries.ts'

/**
 * The members report: who is covered by a membership that counts
 * (active, frozen, payment failed), one row per covered person per membership.
 */

export interface MembersReportRequest {
  filters: MemberFilters
  /** Adds each membership's number of members (and the serializer its billing fields) */
  includeBillingInfo: boolean
}

export interface MembersReport {
  /** Each with `add_on_ids`, a JSON array of the member's add-on ids on that membership */
  rows: MemberRow[]
  /** What rows share, read once: membership types and gym names by id, add-ons by name then id */
  types: Map<number, ReportMembershipType>
  gymNames: Map<number, string>
  addOns: MemberAddOnRow[]
  includeBillingInfo: boolean
}

/**
 * The report's rows for filters already read (api/members/rules.ts). Read through `deps.reader`
 * (committed data, off the server's thread): the report writes nothing.
 */
export async function reportMembers(
  deps: Pick<Deps, 'reader'>,
  { filters, includeBillingInfo }: MembersReportRequest,
): Promise<MembersReport> {
  // One snapshot, so every type, gym and add-on a row names is in the lists.
  return deps.reader.transaction().execute(async (trx) => {
    const types = new Map((await listReportMembershipTypes(trx)).map((type) => [type.id, type]))
    const gymNames = new Map((await listGymNames(trx)).map((gym) => [gym.id, gym.name]))
    const addOns = await listAllAddOns(trx)
    const rows = await listMemberRows(trx, filters, includeBillingInfo)
    return { rows, types, gymNames, addOns, includeBillingInfo }
  })
}
