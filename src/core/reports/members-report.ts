import type { Db } from '../../db/connection.ts'
import { readJsonArray } from '../../db/reader.ts'
import {
  listAllAddOns,
  memberRowsQuery,
  type MemberAddOnRow,
  type MemberFilters,
  type MemberRowKey,
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

/** A member row as the report writes it, as far as its place in the order goes. */
interface RowKeys {
  last_name: string
  first_name: string
  membership_id: number
  customer_id: number
}

/**
 * The same report's rows, `size` at a time (an export): each chunk one statement on `deps.reader`
 * reading on from the last row of the one before by the report's order (a keyset), its rows' JSON
 * written by the same statement as the whole report's. The add-ons are read once, at the start.
 * Each chunk sees the data as it is when it is read (no transaction holds a snapshot open for as
 * long as a client takes to download).
 */
export async function* reportMembersChunks<Row extends RowKeys>(
  deps: { reader: Db },
  { filters, includeBillingInfo }: MembersReportRequest,
  writing: MembersReportWriting,
  size: number,
): AsyncGenerator<Row[], void, undefined> {
  const addOns = (await listAllAddOns(deps.reader)).map(
    (addOn) => [addOn.id, writing.addOnJson(addOn)] as const,
  )
  let after: MemberRowKey | undefined
  for (;;) {
    const query = await memberRowsQuery(deps.reader, filters, {
      urls: writing.urls,
      addOns,
      billing: includeBillingInfo,
      chunk: { after, limit: size },
    })
    const { rows } = await deps.reader.executeQuery<{ json: string }>(query)
    const records = rows.map((row) => JSON.parse(row.json) as Row)
    if (records.length > 0) yield records
    if (records.length < size) return
    const last = records.at(-1)!
    after = [last.last_name, last.first_name, last.membership_id, last.customer_id]
  }
}
