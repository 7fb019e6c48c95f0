import type { Db } from '../../db/connection.ts'
import { bringMembershipRollupCurrent } from '../membership-rollup/catch-up.ts'
import { listRollupAddOnNames } from '../membership-rollup/read.ts'
import { readRange } from './query.ts'

/**
 * The add-on names a membership_count metric can chart: those in the daily membership rollup, on
 * the days a query with the same interval, start_date and end_date reads (its buckets and their
 * lead-in day), or over all of its history when neither date is given. Bad input is refused as the
 * query refuses it (MetricsQueryRefused).
 */
export async function listMembershipAddOnNames(
  deps: { db: Db; reader: Db },
  params: Record<string, unknown>,
  organization: { timeZone: string; today: string },
): Promise<string[]> {
  const plan = readRange(params, organization)
  const scoped = params.start_date !== undefined || params.end_date !== undefined
  await bringMembershipRollupCurrent(deps.db, organization.today)
  return listRollupAddOnNames(
    deps.reader,
    scoped ? { from: plan.leadInDay, through: plan.lastDay } : undefined,
  )
}
