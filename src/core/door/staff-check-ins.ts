import {
  countGuestCheckIns,
  getDoorCustomer,
  getDoorOrganization,
  hasValidWaiver,
  listActiveAlerts,
  listCoveringMemberships,
  type DoorCustomer,
} from './queries.ts'
import type { NewCheckIn } from './writes.ts'
import type { StaffUser } from '../../db/schema.ts'
import { syncTransaction } from '../../db/sync-transaction.ts'
import { localDate, localTimeOfDay } from '../../lib/local-time.ts'
import { membershipAdmits, preventingAlerts } from './decide.ts'
import { FREE_ENTRY_DESCRIPTION, guestDescription } from './descriptions.ts'
import { reachedMilestones } from './milestones.ts'
import { checkedInWithinDuplicateWindow, writeCheckIn, type DoorDeps } from './record.ts'
import type { Gym } from '../gyms/queries.ts'
import { resolveGym } from '../gyms/resolve-gym.ts'

/**
 * Check-ins staff take at the desk: free entry (FRE), granted by the signed-in user, and a member's
 * guest (GUE) on one of the host's monthly guest passes. Each answers with the new check-in's id,
 * or says why there is none, in the door's terms (api/door turns each answer into its response).
 * Every check comes before anything is written.
 */
export type StaffCheckInOutcome =
  | { kind: 'checked_in'; id: number }
  /** the customer is unknown or deactivated */
  | { kind: 'customer_not_found' }
  /** the location asked for (or, without one, the user's default gym) is no gym */
  | { kind: 'unknown_location'; locationId: number | null }
  /** the host is unknown or deactivated */
  | { kind: 'unknown_host'; hostCustomerId: number }
  /** the host named is the guest: a member cannot use a guest pass on themselves */
  | { kind: 'own_guest' }
  /** the guest already checked in at this gym within the door's duplicate window */
  | { kind: 'duplicate' }
  /** the guest's alerts that prevent check-in, in the door's order ("No waiver" last) */
  | { kind: 'check_in_alerts'; alerts: string[] }
  /** the host has no membership that both lets them in now and grants guest passes */
  | { kind: 'no_guest_pass_membership' }
  /** the host's guest passes for this calendar month are used up */
  | { kind: 'no_guest_passes_left' }

interface StaffCheckIn {
  customerId: number
  locationId: number | null
  user: StaffUser
}

function newCheckIn(
  customer: DoorCustomer,
  gym: Gym,
  now: Date,
  user: StaffUser,
  milestones: number[],
  fields: Pick<NewCheckIn, 'entry_method' | 'entry_method_description'> & Partial<NewCheckIn>,
): NewCheckIn {
  const count = customer.check_in_count + 1
  return {
    customer_id: customer.id,
    gym_id: gym.id,
    customer_membership_id: null,
    customer_entry_pass_id: null,
    reservation_id: null,
    host_customer_id: null,
    free_entry_reason: '',
    free_entry_granting_user_id: null,
    milestone_list: JSON.stringify(reachedMilestones(milestones, count)),
    check_in_count: count,
    local_date: localDate(now, gym.time_zone),
    local_time: localTimeOfDay(now, gym.time_zone),
    checked_in_by_id: user.id,
    created_at: now.toISOString(),
    ...fields,
  }
}

const activeCustomer = (deps: Pick<DoorDeps, 'sqlite'>, id: number) => {
  const customer = getDoorCustomer(deps.sqlite, id)
  return customer && customer.is_active === 1 ? customer : null
}

/** Free entry: staff let a customer in without an entry method; the reason and granter are kept. */
export function freeEntryCheckIn(
  deps: DoorDeps,
  request: StaffCheckIn & { reason: string },
): Promise<StaffCheckInOutcome> {
  return syncTransaction(deps, (): StaffCheckInOutcome => {
    const customer = activeCustomer(deps, request.customerId)
    if (!customer) return { kind: 'customer_not_found' }
    const gym = resolveGym(deps.sqlite, request.locationId, request.user)
    if (!gym) return { kind: 'unknown_location', locationId: request.locationId }
    const now = deps.clock.now()
    const org = getDoorOrganization(deps.sqlite)
    const milestones = JSON.parse(org.milestones) as number[]
    const id = writeCheckIn(
      deps.sqlite,
      customer,
      gym,
      newCheckIn(customer, gym, now, request.user, milestones, {
        entry_method: 'FRE',
        entry_method_description: FREE_ENTRY_DESCRIPTION,
        free_entry_reason: request.reason,
        free_entry_granting_user_id: request.user.id,
      }),
    )
    return { kind: 'checked_in', id }
  })
}

/**
 * A guest of a member: the host needs a membership that lets them in now and grants guest passes,
 * with passes left this calendar month (gym-local); the host cannot be the guest, and the guest's
 * own blocking alerts, the waiver rule and the duplicate window apply as at the door, so a request
 * sent twice (a double click, two desks) records one check-in and uses one pass.
 */
export function guestCheckIn(
  deps: DoorDeps,
  request: StaffCheckIn & { hostCustomerId: number },
): Promise<StaffCheckInOutcome> {
  return syncTransaction(deps, (): StaffCheckInOutcome => {
    const guest = activeCustomer(deps, request.customerId)
    if (!guest) return { kind: 'customer_not_found' }
    if (request.hostCustomerId === guest.id) return { kind: 'own_guest' }
    const host = activeCustomer(deps, request.hostCustomerId)
    if (!host) return { kind: 'unknown_host', hostCustomerId: request.hostCustomerId }
    const gym = resolveGym(deps.sqlite, request.locationId, request.user)
    if (!gym) return { kind: 'unknown_location', locationId: request.locationId }
    const now = deps.clock.now()
    const today = localDate(now, gym.time_zone)
    const org = getDoorOrganization(deps.sqlite)

    const blocking = preventingAlerts({
      alerts: listActiveAlerts(deps.sqlite, guest.id),
      waiverRequired: org.waiver_required === 1,
      hasValidWaiver: hasValidWaiver(deps.sqlite, guest.id, today),
    })
    if (blocking.length > 0) return { kind: 'check_in_alerts', alerts: blocking }
    if (checkedInWithinDuplicateWindow(deps.sqlite, guest.id, gym.id, now)) return { kind: 'duplicate' }

    const granting = listCoveringMemberships(deps.sqlite, host.id).filter(
      (m) => m.guest_passes_per_month > 0 && membershipAdmits(m, now, gym.time_zone),
    )
    if (granting.length === 0) return { kind: 'no_guest_pass_membership' }
    const allowance = granting.reduce((sum, m) => sum + m.guest_passes_per_month, 0)
    if (countGuestCheckIns(deps.sqlite, host.id, `${today.slice(0, 7)}-01`) >= allowance) {
      return { kind: 'no_guest_passes_left' }
    }
    const id = writeCheckIn(
      deps.sqlite,
      guest,
      gym,
      newCheckIn(guest, gym, now, request.user, JSON.parse(org.milestones) as number[], {
        entry_method: 'GUE',
        entry_method_description: guestDescription(host),
        host_customer_id: host.id,
        customer_membership_id: granting[0]!.customer_membership_id,
      }),
    )
    return { kind: 'checked_in', id }
  })
}
