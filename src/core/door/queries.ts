import type { Database as BunDatabase } from 'bun:sqlite'
import { compiledStatement, type RowOf } from '../../db/compiled-statement.ts'
import { readAccessHours } from '../../domain/access-hours.ts'
import { ACTIVE_STATUSES, FAILED_STATUSES, FROZEN_STATUSES } from '../../domain/membership-status.ts'
import { usableWaiverExists } from '../../domain/waiver.ts'
import type { FactsAlert, FactsEntryPass, FactsMembership, FactsReservation } from './facts.ts'
import { doorWriteStatements } from './writes.ts'
import { gymStatements } from '../gyms/queries.ts'

/**
 * The door's reads (its writes are in writes.ts): built with Kysely against the table types, compiled once, and run
 * synchronously on the raw connection inside one transaction (see core/door/record.ts), each
 * prepared once per connection (db/compiled-statement.ts).
 */

/*
 * The door's reads are each one single-table statement without ORDER BY, MIN/MAX or a join; rows
 * are joined and ordered here. SQLite answers a single-table read by primary key or index in a
 * fraction of what the same read costs with ORDER BY (even one the index already satisfies), MAX
 * or a join, and at the door's rush that difference is most of a scan; most customers have no
 * reservation, so a reservations join would mostly pay to find nothing. Each statement reads by
 * primary key or an index (test/db/check-in-plans.test.ts asks SQLite how each reaches its rows).
 */

const CUSTOMER_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'birthday',
  'profile_image_url',
  'is_active',
  'check_in_count',
  'first_check_in_timestamp',
] as const

const customerByBarcode = compiledStatement((db, p: { barcode: string }) =>
  db.selectFrom('customers').select(CUSTOMER_COLUMNS).where('barcode', '=', p.barcode),
)

const customerById = compiledStatement((db, p: { id: number }) =>
  db.selectFrom('customers').select(CUSTOMER_COLUMNS).where('id', '=', p.id),
)

const organization = compiledStatement((db) =>
  db.selectFrom('organization').select(['waiver_required', 'milestones']).where('id', '=', 1),
)

const activeAlerts = compiledStatement((db, p: { customerId: number }) =>
  db
    .selectFrom('customer_alerts')
    .select(['id', 'alert_text', 'color_hex', 'created_date', 'prevents_check_in'])
    .where('customer_id', '=', p.customerId)
    .where('is_active', '=', 1),
)

const usableWaiver = compiledStatement((db, p: { customerId: number; today: string }) =>
  db.selectNoFrom((eb) => usableWaiverExists(eb.val(p.customerId), p.today).as('usable')),
)

/**
 * The customer's check-ins at this gym created at or after `since`, in no order: the door's
 * duplicate check (the last few minutes) and same-day check (today, gym-local) in one read of the
 * index check_ins_customer_gym.
 */
const recentCheckIns = compiledStatement((db, p: { customerId: number; gymId: number; since: string }) =>
  db
    .selectFrom('check_ins')
    .select(['id', 'created_at', 'local_date'])
    .where('customer_id', '=', p.customerId)
    .where('gym_id', '=', p.gymId)
    .where('created_at', '>=', p.since),
)

const liveReservations = compiledStatement((db, p: { customerId: number }) =>
  db
    .selectFrom('reservations')
    .select(['id', 'event_id', 'includes_entry'])
    .where('customer_id', '=', p.customerId)
    .where('is_cancelled', '=', 0),
)

/** The event, if it is at this gym, not cancelled and happening at `now`. */
const eventNow = compiledStatement((db, p: { eventId: number; gymId: number; now: string }) =>
  db
    .selectFrom('events')
    .select(['name', 'start_at', 'end_at', 'includes_entry'])
    .where('id', '=', p.eventId)
    .where('gym_id', '=', p.gymId)
    .where('is_cancelled', '=', 0)
    .where('start_at', '<=', p.now)
    .where('end_at', '>', p.now),
)

const covers = compiledStatement((db, p: { customerId: number }) =>
  db
    .selectFrom('membership_members')
    .select(['customer_membership_id', 'is_frozen'])
    .where('customer_id', '=', p.customerId),
)

const membershipById = compiledStatement((db, p: { id: number }) =>
  db
    .selectFrom('customer_memberships')
    .select(['status', 'start_date', 'end_date', 'membership_type_id'])
    .where('id', '=', p.id),
)

const membershipTypeById = compiledStatement((db, p: { id: number }) =>
  db
    .selectFrom('membership_types')
    .select(['purchase_type', 'name', 'access_hours', 'guest_passes_per_month'])
    .where('id', '=', p.id),
)

const anyCover = compiledStatement((db, p: { customerId: number }) =>
  db
    .selectFrom('membership_members')
    .select((eb) => eb.lit(1).as('one'))
    .where('customer_id', '=', p.customerId)
    .limit(1),
)

const usablePasses = compiledStatement((db, p: { customerId: number; today: string }) =>
  db
    .selectFrom('customer_entry_passes')
    .select(['id', 'entry_pass_type_id', 'entries_remaining', 'expiry_date', 'purchaser_id'])
    .where('owner_id', '=', p.customerId)
    .where('entries_remaining', '>', 0)
    .where((eb) => eb.or([eb('expiry_date', 'is', null), eb('expiry_date', '>=', p.today)])),
)

const passTypeName = compiledStatement((db, p: { id: number }) =>
  db.selectFrom('entry_pass_types').select('name').where('id', '=', p.id),
)

const customerName = compiledStatement((db, p: { id: number }) =>
  db.selectFrom('customers').select(['first_name', 'last_name']).where('id', '=', p.id),
)

const guestCheckIns = compiledStatement((db, p: { hostId: number; monthStart: string }) =>
  db
    .selectFrom('check_ins')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('host_customer_id', '=', p.hostId)
    .where('entry_method', '=', 'GUE')
    .where('local_date', '>=', p.monthStart),
)

const checkInSummary = compiledStatement((db, p: { id: number }) =>
  db
    .selectFrom('check_ins')
    .select(['id', 'entry_method', 'entry_method_description', 'check_in_count', 'milestone_list'])
    .where('id', '=', p.id),
)

/** Every statement of the door, for tests that ask SQLite how each one reaches its rows. */
export const doorStatements = {
  ...gymStatements,
  customerByBarcode,
  customerById,
  organization,
  activeAlerts,
  usableWaiver,
  recentCheckIns,
  liveReservations,
  eventNow,
  covers,
  membershipById,
  membershipTypeById,
  anyCover,
  usablePasses,
  passTypeName,
  customerName,
  ...doorWriteStatements,
  guestCheckIns,
  checkInSummary,
}

export type DoorCustomer = RowOf<typeof customerByBarcode>
export type DoorOrganization = RowOf<typeof organization>
export type RecentCheckIn = RowOf<typeof recentCheckIns>

/** Orders for rows the statements return unordered (see the note at the top). */
const byId = (a: { id: number }, b: { id: number }) => a.id - b.id
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

export const getCustomerByBarcode = (sqlite: BunDatabase, barcode: string): DoorCustomer | null =>
  customerByBarcode.get(sqlite, { barcode })

export const getDoorCustomer = (sqlite: BunDatabase, id: number): DoorCustomer | null =>
  customerById.get(sqlite, { id })

export const getDoorOrganization = (sqlite: BunDatabase): DoorOrganization => organization.get(sqlite)!

export const listActiveAlerts = (sqlite: BunDatabase, customerId: number): FactsAlert[] =>
  activeAlerts
    .all(sqlite, { customerId })
    .sort(byId)
    .map((a) => ({
      alert_text: a.alert_text,
      color_hex: a.color_hex,
      created_date: a.created_date,
      prevents_check_in: a.prevents_check_in === 1,
    }))

/** Whether the customer has a waiver usable on `today` (gym-local): see domain/waiver.ts. */
export const hasValidWaiver = (sqlite: BunDatabase, customerId: number, today: string): boolean =>
  usableWaiver.get(sqlite, { customerId, today })!.usable === 1

export const listRecentCheckIns = (
  sqlite: BunDatabase,
  customerId: number,
  gymId: number,
  sinceIso: string,
): RecentCheckIn[] => recentCheckIns.all(sqlite, { customerId, gymId, since: sinceIso })

export function listReservationsNow(
  sqlite: BunDatabase,
  customerId: number,
  gymId: number,
  nowIso: string,
): FactsReservation[] {
  const reservations = liveReservations.all(sqlite, { customerId })
  if (reservations.length === 0) return []
  const happening: FactsReservation[] = []
  for (const r of reservations) {
    const event = eventNow.get(sqlite, { eventId: r.event_id, gymId, now: nowIso })
    if (event === null) continue
    happening.push({
      reservation_id: r.id,
      event_id: r.event_id,
      event_name: event.name,
      start_at: event.start_at,
      end_at: event.end_at,
      includes_entry: r.includes_entry === 1 && event.includes_entry === 1,
    })
  }
  return happening.sort((a, b) => compareText(a.start_at, b.start_at) || a.reservation_id - b.reservation_id)
}

const COVERED_STATUSES = new Set<string>([...ACTIVE_STATUSES, ...FROZEN_STATUSES, ...FAILED_STATUSES])

/** The memberships covering this customer whose status still counts (active, frozen, failed). */
export function listCoveringMemberships(sqlite: BunDatabase, customerId: number): FactsMembership[] {
  const rows = covers.all(sqlite, { customerId })
  if (rows.length === 0) return []
  const memberships: FactsMembership[] = []
  for (const cover of rows) {
    const membership = membershipById.get(sqlite, { id: cover.customer_membership_id })!
    if (!COVERED_STATUSES.has(membership.status)) continue
    const type = membershipTypeById.get(sqlite, { id: membership.membership_type_id })!
    memberships.push({
      customer_membership_id: cover.customer_membership_id,
      status: membership.status,
      member_is_frozen: cover.is_frozen === 1,
      start_date: membership.start_date,
      end_date: membership.end_date,
      purchase_type: type.purchase_type,
      type_name: type.name,
      access_hours: readAccessHours(type.access_hours),
      guest_passes_per_month: type.guest_passes_per_month,
    })
  }
  return memberships.sort((a, b) => a.customer_membership_id - b.customer_membership_id)
}

/** Whether the customer is covered by any membership at all, in any status (member look-up). */
export const hasAnyMembership = (sqlite: BunDatabase, customerId: number): boolean =>
  anyCover.get(sqlite, { customerId }) !== null

/** The customer's passes with entries left that are usable on `today` (gym-local). */
export function listUsableEntryPasses(
  sqlite: BunDatabase,
  customerId: number,
  today: string,
): FactsEntryPass[] {
  const passes = usablePasses.all(sqlite, { customerId, today }).sort(byId)
  if (passes.length === 0) return []
  const purchaserName = (id: number) => {
    const name = customerName.get(sqlite, { id })
    return name === null ? null : `${name.first_name} ${name.last_name}`
  }
  return passes.map((p) => ({
    id: p.id,
    name: passTypeName.get(sqlite, { id: p.entry_pass_type_id })!.name,
    entries_remaining: p.entries_remaining,
    expiry_date: p.expiry_date,
    // Named only when someone else bought it ("Ten Punch from Ana Ruiz").
    purchaser_name:
      p.purchaser_id !== null && p.purchaser_id !== customerId ? purchaserName(p.purchaser_id) : null,
  }))
}

/** Guest check-ins a host has given in the month starting at `monthStart` (a gym-local date). */
export const countGuestCheckIns = (sqlite: BunDatabase, hostId: number, monthStart: string): number =>
  guestCheckIns.get(sqlite, { hostId, monthStart })!.n

/** An earlier check-in as the door reports it again (combine-same-day gyms). */
export type CheckInSummary = Omit<RowOf<typeof checkInSummary>, 'check_in_count' | 'milestone_list'> & {
  check_in_count: number
  milestones: string[]
}

export function getCheckInSummary(sqlite: BunDatabase, id: number): CheckInSummary {
  const row = checkInSummary.get(sqlite, { id })!
  return {
    id: row.id,
    entry_method: row.entry_method,
    entry_method_description: row.entry_method_description,
    check_in_count: row.check_in_count ?? 0,
    milestones: JSON.parse(row.milestone_list) as string[],
  }
}
