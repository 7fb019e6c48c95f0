import {
  getCheckInSummary,
  getCustomerByBarcode,
  getDoorOrganization,
  hasValidWaiver,
  listActiveAlerts,
  listCoveringMemberships,
  listRecentCheckIns,
  listReservationsNow,
  listUsableEntryPasses,
  type DoorCustomer,
  type RecentCheckIn,
} from './queries.ts'
import {
  countCheckIn,
  insertCheckIn,
  markReservationCheckedIn,
  takeEntry,
  type NewCheckIn,
} from './writes.ts'
import type { Database as BunDatabase } from 'bun:sqlite'
import type { StaffUser } from '../../db/schema.ts'
import { syncTransaction } from '../../db/sync-transaction.ts'
import type { Db } from '../../db/connection.ts'
import type { Clock } from '../../lib/clock.ts'
import { localDate, localTimeOfDay } from '../../lib/local-time.ts'
import { resolveGym } from '../gyms/resolve-gym.ts'
import type { Gym } from '../gyms/queries.ts'
import { enqueueCheckInEvent, type CheckInEventData } from '../webhooks/outbox.ts'
import { decideCheckIn, isDuplicate } from './decide.ts'
import type { CheckInDecision, CheckInFacts, FactsAlert, FactsCustomer, FactsReservation } from './facts.ts'

/** A second scan of a customer at a location this soon is a duplicate. */
export const DUPLICATE_WINDOW_MS = 5 * 60 * 1000

/**
 * How far back the door reads a customer's check-ins at the gym: far enough for the duplicate
 * window and for every check-in stamped with today's local date (a local day lasts at most 25 hours,
 * and a gym moved between the farthest zones shifts it by up to 26 more).
 */
const RECENT_CHECK_INS_MS = 2 * 24 * 60 * 60 * 1000

/** What the door endpoints say about a recorded (or, for combine-same-day gyms, earlier) check-in. */
export interface AdmittedCheckIn {
  id: number
  entry_method: string
  entry_method_description: string
  check_in_count: number
  milestones: string[]
  customer_alerts: FactsAlert[]
  reservations: FactsReservation[]
  /** an event reservation was marked checked in by this check-in */
  checked_in_to_event: boolean
}

export type DoorOutcome =
  | { kind: 'customer_not_found' }
  | { kind: 'invalid_location' }
  | {
      kind: 'refused'
      customer: DoorCustomer
      error: 'check_in_alerts' | 'no_entry_method'
      alerts: string[]
    }
  | { kind: 'duplicate'; customer: DoorCustomer }
  | { kind: 'admitted'; customer: DoorCustomer; checkIn: AdmittedCheckIn }

/** What the check_in webhook says about a check-in just written (the outbox shapes the body). */
const checkInEventData = (
  customer: DoorCustomer,
  gym: Gym,
  checkIn: NewCheckIn & { id: number },
): CheckInEventData => ({
  id: checkIn.id,
  customer_id: customer.id,
  customer_first_name: customer.first_name,
  customer_last_name: customer.last_name,
  customer_birthday: customer.birthday,
  customer_email: customer.email,
  checked_in_at: checkIn.created_at,
  time_zone: gym.time_zone,
  entry_method: checkIn.entry_method,
  entry_method_description: checkIn.entry_method_description,
  location_id: gym.id,
  location_name: gym.name,
  check_in_count: checkIn.check_in_count,
})

/**
 * Writes one check-in with everything that goes with it, inside the caller's transaction: the
 * customer's running count (and first check-in time), and the webhook outbox rows, so a committed
 * check-in is always delivered.
 */
export function writeCheckIn(
  sqlite: BunDatabase,
  customer: DoorCustomer,
  gym: Gym,
  checkIn: NewCheckIn,
): number {
  const id = insertCheckIn(sqlite, checkIn)
  countCheckIn(sqlite, customer.id, checkIn.created_at)
  enqueueCheckInEvent(sqlite, checkInEventData(customer, gym, { ...checkIn, id }), checkIn.created_at)
  return id
}

const toFactsCustomer = (c: DoorCustomer): FactsCustomer => ({
  id: c.id,
  first_name: c.first_name,
  last_name: c.last_name,
  email: c.email,
  is_active: c.is_active === 1,
  check_in_count: c.check_in_count,
  first_check_in_timestamp: c.first_check_in_timestamp,
})

const latestCreatedAt = (checkIns: readonly RecentCheckIn[]): string | null =>
  checkIns.reduce<string | null>(
    (latest, c) => (latest === null || c.created_at > latest ? c.created_at : latest),
    null,
  )

/**
 * Whether the customer checked in at the gym within the duplicate window before `now`, by any entry
 * method: the door's duplicate rule, for the check-ins staff take at the desk (a guest's) too.
 */
export function checkedInWithinDuplicateWindow(
  sqlite: BunDatabase,
  customerId: number,
  gymId: number,
  now: Date,
): boolean {
  const recent = listRecentCheckIns(
    sqlite,
    customerId,
    gymId,
    new Date(now.getTime() - DUPLICATE_WINDOW_MS).toISOString(),
  )
  return isDuplicate({ now, lastCheckInAt: latestCreatedAt(recent), duplicateWindowMs: DUPLICATE_WINDOW_MS })
}

/** The lowest id among the check-ins on `localDate`. */
const firstOnDate = (checkIns: readonly RecentCheckIn[], localDate: string): number | null =>
  checkIns.reduce<number | null>(
    (first, c) => (c.local_date === localDate && (first === null || c.id < first) ? c.id : first),
    null,
  )

/** The scan's instant, read once: as a Date, as stored (UTC ISO), and as the gym's local date and time. */
interface ScanTime {
  now: Date
  nowIso: string
  today: string
  timeOfDay: string
}

/** Reads everything the decision needs, as plain data. */
function gatherFacts(
  sqlite: BunDatabase,
  customer: DoorCustomer,
  gym: Gym,
  { now, nowIso, today }: ScanTime,
): CheckInFacts {
  const org = getDoorOrganization(sqlite)
  const combineSameDay = gym.combine_same_day_check_ins === 1
  const recent = listRecentCheckIns(
    sqlite,
    customer.id,
    gym.id,
    new Date(now.getTime() - RECENT_CHECK_INS_MS).toISOString(),
  )
  return {
    now,
    zone: gym.time_zone,
    customer: toFactsCustomer(customer),
    alerts: listActiveAlerts(sqlite, customer.id),
    waiverRequired: org.waiver_required === 1,
    hasValidWaiver: hasValidWaiver(sqlite, customer.id, today),
    lastCheckInAt: latestCreatedAt(recent),
    duplicateWindowMs: DUPLICATE_WINDOW_MS,
    combineSameDay,
    sameDayCheckInId: combineSameDay ? firstOnDate(recent, today) : null,
    reservationsNow: listReservationsNow(sqlite, customer.id, gym.id, nowIso),
    memberships: listCoveringMemberships(sqlite, customer.id),
    entryPasses: listUsableEntryPasses(sqlite, customer.id, today),
    milestones: JSON.parse(org.milestones) as number[],
  }
}

/**
 * What the door's transactions use: the writer connection, as Kysely (whose lock a transaction
 * holds) and as its raw handle (on which its statements run synchronously), and the clock.
 */
export interface DoorDeps {
  db: Db
  sqlite: BunDatabase
  clock: Clock
}

/**
 * A door scan: find the customer by barcode, decide, and record — one short synchronous
 * transaction, so two simultaneous scans of one barcode record one check-in.
 */
export function checkInByBarcode(
  deps: DoorDeps,
  request: { barcode: string; locationId: number | null; user: StaffUser },
): Promise<DoorOutcome> {
  return syncTransaction(deps, (): DoorOutcome => {
    const sqlite = deps.sqlite
    const gym = resolveGym(sqlite, request.locationId, request.user)
    const customer = getCustomerByBarcode(sqlite, request.barcode)
    if (!customer || customer.is_active !== 1) return { kind: 'customer_not_found' }
    if (!gym) return { kind: 'invalid_location' }
    return decideAndRecord(sqlite, customer, gym, deps.clock.now(), request.user).outcome
  })
}

/** A decided check-in: what the door answers, and the facts and decision behind it (for the desk). */
export interface Decided {
  outcome: Exclude<DoorOutcome, { kind: 'customer_not_found' | 'invalid_location' }>
  facts: CheckInFacts
  decision: CheckInDecision
}

/**
 * The door's one decision for a found customer at a gym, and its record when it admits: every
 * check-in by the door's rules (a scan, the desk's check-in by id) goes through here, inside the
 * caller's transaction.
 */
export function decideAndRecord(
  sqlite: BunDatabase,
  customer: DoorCustomer,
  gym: Gym,
  now: Date,
  user: StaffUser,
): Decided {
  const time: ScanTime = {
    now,
    nowIso: now.toISOString(),
    today: localDate(now, gym.time_zone),
    timeOfDay: localTimeOfDay(now, gym.time_zone),
  }
  const facts = gatherFacts(sqlite, customer, gym, time)
  const decision = decideCheckIn(facts)
  const decided = (outcome: Decided['outcome']): Decided => ({ outcome, facts, decision })
  switch (decision.outcome) {
    case 'refuse':
      return decided({ kind: 'refused', customer, error: decision.error, alerts: decision.alerts })
    case 'duplicate':
      return decided({ kind: 'duplicate', customer })
    case 'same_day': {
      const earlier = getCheckInSummary(sqlite, decision.checkInId)
      return decided({
        kind: 'admitted',
        customer,
        checkIn: {
          ...earlier,
          customer_alerts: facts.alerts.filter((a) => !a.prevents_check_in),
          reservations: facts.reservationsNow,
          checked_in_to_event: false,
        },
      })
    }
    case 'admit': {
      const createdAt = time.nowIso
      if (decision.entryPassId !== null) takeEntry(sqlite, decision.entryPassId, createdAt)
      if (decision.reservationId !== null) markReservationCheckedIn(sqlite, decision.reservationId, createdAt)
      const id = writeCheckIn(sqlite, customer, gym, {
        customer_id: customer.id,
        gym_id: gym.id,
        entry_method: decision.entryMethod,
        entry_method_description: decision.description,
        customer_membership_id: decision.customerMembershipId,
        customer_entry_pass_id: decision.entryPassId,
        reservation_id: decision.reservationId,
        host_customer_id: null,
        free_entry_reason: '',
        free_entry_granting_user_id: null,
        milestone_list: JSON.stringify(decision.milestones),
        check_in_count: decision.checkInCount,
        local_date: time.today,
        local_time: time.timeOfDay,
        checked_in_by_id: user.id,
        created_at: createdAt,
      })
      return decided({
        kind: 'admitted',
        customer,
        checkIn: {
          id,
          entry_method: decision.entryMethod,
          entry_method_description: decision.description,
          check_in_count: decision.checkInCount,
          milestones: decision.milestones,
          customer_alerts: decision.customerAlerts,
          reservations: decision.reservations,
          checked_in_to_event: decision.reservationId !== null,
        },
      })
    }
  }
}
