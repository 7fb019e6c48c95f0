import type { Database as BunDatabase } from 'bun:sqlite'
import {
  getCustomerByBarcode,
  hasAnyMembership,
  listCoveringMemberships,
  type DoorCustomer,
} from './queries.ts'
import { syncRead } from '../../db/sync-transaction.ts'
import type { Db } from '../../db/connection.ts'
import { ACTIVE_STATUSES } from '../../domain/membership-status.ts'

export type LookUpOutcome =
  | { kind: 'not_found' }
  | { kind: 'active_member'; customer: DoorCustomer }
  | { kind: 'no_membership'; customer: DoorCustomer }
  | { kind: 'membership_not_active'; customer: DoorCustomer }

/**
 * Identity check at the desk: an active member is one covered by a membership in
 * an active status and not individually frozen (access hours do not matter here).
 */
export function lookUpMember(deps: { db: Db; sqlite: BunDatabase }, barcode: string): Promise<LookUpOutcome> {
  return syncRead(deps, (): LookUpOutcome => {
    const customer = getCustomerByBarcode(deps.sqlite, barcode)
    if (!customer || customer.is_active !== 1) return { kind: 'not_found' }
    const active = listCoveringMemberships(deps.sqlite, customer.id).some(
      (m) => ACTIVE_STATUSES.includes(m.status) && !m.member_is_frozen,
    )
    if (active) return { kind: 'active_member', customer }
    if (hasAnyMembership(deps.sqlite, customer.id)) return { kind: 'membership_not_active', customer }
    return { kind: 'no_membership', customer }
  })
}
