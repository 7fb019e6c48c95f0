import type { Db } from '../../db/connection.ts'
import { readJsonArray } from '../../db/reader.ts'
import {
  listAllAddOns,
  memberRowsQuery,
  type MemberAddOnRow,
  type MemberFilters,
  type MemberRowsText,
} from './queries.ts'

/**
 * The members report: who is covered by a membership that counts
 * (active, frozen, payment failed), one row per covered person per membership.
 */

export interface MembersReportRequest {
  filters: MemberFilters
  /** Adds each membership's number of members and the billing fields */
  includeBillingInfo: boolean
}

/** How the report is written where the database does not know: URLs, and an add-on's JSON object. */
export interface MembersReportWriting {
  urls: MemberRowsText['urls']
  addOnJson(addOn: MemberAddOnRow): string
}

/**
 * The report for filters already read (api/members/rules.ts), as a Blob of its JSON array's UTF-8 bytes.
 * Read through `deps.reader` (committed data, off the server's thread): the report writes nothing.
 */
export async function reportMembersJson(
  deps: { reader: Db },
  { filters, includeBillingInfo }: MembersReportRequest,
  writing: MembersReportWriting,
): Promise<Blob> {
  // One snapshot, so every add-on a row names is in the list.
  return deps.reader.transaction().execute(async (trx) => {
    const addOns = (await listAllAddOns(trx)).map((addOn) => [addOn.id, writing.addOnJson(addOn)] as const)
    const rows = await memberRowsQuery(trx, filters, {
      urls: writing.urls,
      addOns,
      billing: includeBillingInfo,
    })
    return readJsonArray(trx, rows)
  })
}
