import { getCustomerByBarcode, getDoorCustomer, type DoorCustomer } from './queries.ts'
import type { StaffUser } from '../../db/schema.ts'
import { syncTransaction } from '../../db/sync-transaction.ts'
import { localDateTime } from '../../lib/local-time.ts'
import { resolveGym } from '../gyms/resolve-gym.ts'
import type { AdmitNotice, RefusalReason } from './facts.ts'
import { admitNotices, refusalReasons } from './reasons.ts'
import { readRefusalFacts } from './refusal-queries.ts'
import { decideAndRecord, type AdmittedCheckIn, type DoorDeps } from './record.ts'

/**
 * The desk's check-ins by the door's rules: by customer id (a customer without their card) or by
 * barcode (the desk's scan). The same decision and record as a door scan (record.ts), told in full:
 * a refusal says why (reasons.ts, read only once refused), a duplicate says since when, an
 * admission what staff should know.
 */
export type DeskCheckInOutcome =
  | { kind: 'customer_not_found' }
  | { kind: 'unknown_location'; locationId: number | null }
  | {
      kind: 'refused'
      customer: DoorCustomer
      error: 'check_in_alerts' | 'no_entry_method'
      reasons: RefusalReason[]
    }
  /** `insideSince`: the earlier check-in, on the gym's wall clock (YYYY-MM-DDTHH:MM:SS) */
  | { kind: 'duplicate'; customer: DoorCustomer; insideSince: string }
  | { kind: 'admitted'; customer: DoorCustomer; checkIn: AdmittedCheckIn; notices: AdmitNotice[] }

export function deskCheckIn(
  deps: DoorDeps,
  request: ({ customerId: number } | { barcode: string }) & { locationId: number | null; user: StaffUser },
): Promise<DeskCheckInOutcome> {
  return syncTransaction(deps, (): DeskCheckInOutcome => {
    const sqlite = deps.sqlite
    const customer =
      'barcode' in request
        ? getCustomerByBarcode(sqlite, request.barcode)
        : getDoorCustomer(sqlite, request.customerId)
    if (!customer || customer.is_active !== 1) return { kind: 'customer_not_found' }
    const gym = resolveGym(sqlite, request.locationId, request.user)
    if (!gym) return { kind: 'unknown_location', locationId: request.locationId }

    const { outcome, facts, decision } = decideAndRecord(
      sqlite,
      customer,
      gym,
      deps.clock.now(),
      request.user,
    )
    switch (outcome.kind) {
      case 'refused':
        return {
          kind: 'refused',
          customer,
          error: outcome.error,
          reasons:
            decision.outcome === 'refuse'
              ? refusalReasons(facts, decision, readRefusalFacts(sqlite, customer.id))
              : [],
        }
      case 'duplicate':
        return {
          kind: 'duplicate',
          customer,
          insideSince: localDateTime(new Date(facts.lastCheckInAt!), gym.time_zone),
        }
      case 'admitted':
        return {
          kind: 'admitted',
          customer,
          checkIn: outcome.checkIn,
          notices: decision.outcome === 'admit' ? admitNotices(facts, decision) : [],
        }
    }
  })
}
