import type { Database as BunDatabase } from 'bun:sqlite'
import { ACTIVE_STATUSES, FAILED_STATUSES, FROZEN_STATUSES } from '../../domain/membership-status.ts'
import type { AccessWindow, FactsAlert, FactsEntryPass, FactsMembership, FactsReservation } from './facts.ts'
import type { Selectable } from 'kysely'
import type { CheckInTable } from '../../db/schema.ts'
import { compiledStatement } from '../../db/compiled-statement.ts'
import { prepared } from '../../db/statements.ts'
import { usableWaiverExists } from '../../domain/waiver.ts'

/**
 * The door's statements, run synchronously on the raw connection inside one transaction (see
 * core/door/record.ts), each prepared once per connection (src/db/statements.ts).
 */

export interface DoorGym {
  id: number
  name: string
  time_zone: string
  combine_same_day_check_ins: number
}

export interface DoorCustomer {
  id: number
  first_name: string
  last_name: string
  email: string | null
  birthday: string
  profile_image_url: string
  is_active: number
  check_in_count: number
  first_check_in_timestamp: string | null
}

export interface DoorOrganization {
  waiver_required: number
  milestones: string
}

const CUSTOMER_COLUMNS =
  'id, first_name, last_name, email, birthday, profile_image_url, is_active, check_in_count, first_check_in_timestamp'

/** Orders for rows the statements return unordered (see the note above listReservationsNow). */
const byId = (a: { id: number }, b: { id: number }) => a.id - b.id
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

export const getDoorGym = (sqlite: BunDatabase, id: number): DoorGym | null =>
  prepared<DoorGym, [number]>(
    sqlite,
    'SELECT id, name, time_zone, combine_same_day_check_ins FROM gyms WHERE id = ?',
  ).get(id)

/** The only gym's id when the organization has exactly one, else null. */
export function getOnlyGymId(sqlite: BunDatabase): number | null {
  const rows = prepared<{ id: number }, []>(sqlite, 'SELECT id FROM gyms ORDER BY id LIMIT 2').all()
  return rows.length === 1 ? rows[0]!.id : null
}

export const getCustomerByBarcode = (sqlite: BunDatabase, barcode: string): DoorCustomer | null =>
  prepared<DoorCustomer, [string]>(sqlite, `SELECT ${CUSTOMER_COLUMNS} FROM customers WHERE barcode = ?`).get(
    barcode,
  )

export const getDoorCustomer = (sqlite: BunDatabase, id: number): DoorCustomer | null =>
  prepared<DoorCustomer, [number]>(sqlite, `SELECT ${CUSTOMER_COLUMNS} FROM customers WHERE id = ?`).get(id)

export const getDoorOrganization = (sqlite: BunDatabase): DoorOrganization =>
  prepared<DoorOrganization, []>(
    sqlite,
    'SELECT waiver_required, milestones FROM organization WHERE id = 1',
  ).get()!

export const listActiveAlerts = (sqlite: BunDatabase, customerId: number): FactsAlert[] =>
  prepared<
    { id: number; alert_text: string; color_hex: string; created_date: string; prevents_check_in: number },
    [number]
  >(
    sqlite,
    `SELECT id, alert_text, color_hex, created_date, prevents_check_in FROM customer_alerts
       WHERE customer_id = ? AND is_active = 1`,
  )
    .all(customerId)
    .sort(byId)
    .map((a) => ({
      alert_text: a.alert_text,
      color_hex: a.color_hex,
      created_date: a.created_date,
      prevents_check_in: a.prevents_check_in === 1,
    }))

const usableWaiver = compiledStatement((db, p: { customerId: number; today: string }) =>
  db.selectNoFrom((eb) => usableWaiverExists(eb.val(p.customerId), p.today).as('usable')),
)

/** Whether the customer has a waiver usable on `today` (gym-local): see domain/waiver.ts. */
export const hasValidWaiver = (sqlite: BunDatabase, customerId: number, today: string): boolean =>
  usableWaiver.get(sqlite, { customerId, today })!.usable === 1

export interface RecentCheckIn {
  id: number
  created_at: string
  local_date: string
}

/**
 * The customer's check-ins at this gym created at or after `sinceIso`, in no order: the door's
 * duplicate check (the last few minutes) and same-day check (today, gym-local) in one read of the
 * index check_ins_customer_gym.
 */
export const listRecentCheckIns = (
  sqlite: BunDatabase,
  customerId: number,
  gymId: number,
  sinceIso: string,
): RecentCheckIn[] =>
  prepared<RecentCheckIn, [number, number, string]>(
    sqlite,
    'SELECT id, created_at, local_date FROM check_ins WHERE customer_id = ? AND gym_id = ? AND created_at >= ?',
  ).all(customerId, gymId, sinceIso)

/*
 * The door's reads are each one single-table statement without ORDER BY, MIN/MAX or a join; rows
 * are joined and ordered here. Measured with bun:sqlite (SQLite 3.54.1) on the large demo set,
 * inside a transaction: an indexed read costs ~1 µs, and the same read with ORDER BY (even one the
 * index already satisfies) or MAX ~11 µs; the three-table membership join ~40-80 µs against ~10 µs
 * split up, the reservations join ~40 µs against ~2 µs (most customers have none). At the door's
 * rush that difference was most of a scan. Each statement reads by primary key or an index.
 */

export const listReservationsNow = (
  sqlite: BunDatabase,
  customerId: number,
  gymId: number,
  nowIso: string,
): FactsReservation[] => {
  const reservations = prepared<{ id: number; event_id: number; includes_entry: number }, [number]>(
    sqlite,
    'SELECT id, event_id, includes_entry FROM reservations WHERE customer_id = ? AND is_cancelled = 0',
  ).all(customerId)
  if (reservations.length === 0) return []
  const eventNow = prepared<
    { name: string; start_at: string; end_at: string; includes_entry: number },
    [number, number, string, string]
  >(
    sqlite,
    `SELECT name, start_at, end_at, includes_entry FROM events
     WHERE id = ? AND gym_id = ? AND is_cancelled = 0 AND start_at <= ? AND end_at > ?`,
  )
  const happening: FactsReservation[] = []
  for (const r of reservations) {
    const event = eventNow.get(r.event_id, gymId, nowIso, nowIso)
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
  const covers = prepared<{ customer_membership_id: number; is_frozen: number }, [number]>(
    sqlite,
    'SELECT customer_membership_id, is_frozen FROM membership_members WHERE customer_id = ?',
  ).all(customerId)
  if (covers.length === 0) return []
  const getMembership = prepared<
    Pick<FactsMembership, 'status' | 'start_date' | 'end_date'> & { membership_type_id: number },
    [number]
  >(sqlite, 'SELECT status, start_date, end_date, membership_type_id FROM customer_memberships WHERE id = ?')
  const getType = prepared<
    Pick<FactsMembership, 'purchase_type' | 'guest_passes_per_month'> & {
      name: string
      access_hours: string | null
    },
    [number]
  >(
    sqlite,
    'SELECT purchase_type, name, access_hours, guest_passes_per_month FROM membership_types WHERE id = ?',
  )
  const memberships: FactsMembership[] = []
  for (const cover of covers) {
    const membership = getMembership.get(cover.customer_membership_id)!
    if (!COVERED_STATUSES.has(membership.status)) continue
    const type = getType.get(membership.membership_type_id)!
    memberships.push({
      customer_membership_id: cover.customer_membership_id,
      status: membership.status,
      member_is_frozen: cover.is_frozen === 1,
      start_date: membership.start_date,
      end_date: membership.end_date,
      purchase_type: type.purchase_type,
      type_name: type.name,
      access_hours: type.access_hours === null ? null : (JSON.parse(type.access_hours) as AccessWindow[]),
      guest_passes_per_month: type.guest_passes_per_month,
    })
  }
  return memberships.sort((a, b) => a.customer_membership_id - b.customer_membership_id)
}

/** Whether the customer is covered by any membership at all, in any status (member look-up). */
export const hasAnyMembership = (sqlite: BunDatabase, customerId: number): boolean =>
  prepared<{ one: number }, [number]>(
    sqlite,
    'SELECT 1 AS one FROM membership_members WHERE customer_id = ? LIMIT 1',
  ).get(customerId) !== null

/** The customer's passes with entries left that are usable on `today` (gym-local). */
export function listUsableEntryPasses(
  sqlite: BunDatabase,
  customerId: number,
  today: string,
): FactsEntryPass[] {
  const passes = prepared<
    Pick<FactsEntryPass, 'id' | 'entries_remaining' | 'expiry_date'> & {
      entry_pass_type_id: number
      purchaser_id: number | null
    },
    [number, string]
  >(
    sqlite,
    `SELECT id, entry_pass_type_id, entries_remaining, expiry_date, purchaser_id FROM customer_entry_passes
     WHERE owner_id = ? AND entries_remaining > 0 AND (expiry_date IS NULL OR expiry_date >= ?)`,
  )
    .all(customerId, today)
    .sort(byId)
  if (passes.length === 0) return []
  const getTypeName = prepared<{ name: string }, [number]>(
    sqlite,
    'SELECT name FROM entry_pass_types WHERE id = ?',
  )
  const getName = prepared<{ name: string }, [number]>(
    sqlite,
    "SELECT first_name || ' ' || last_name AS name FROM customers WHERE id = ?",
  )
  return passes.map((p) => ({
    id: p.id,
    name: getTypeName.get(p.entry_pass_type_id)!.name,
    entries_remaining: p.entries_remaining,
    expiry_date: p.expiry_date,
    // Named only when someone else bought it ("Ten Punch from Ana Ruiz").
    purchaser_name:
      p.purchaser_id !== null && p.purchaser_id !== customerId
        ? (getName.get(p.purchaser_id)?.name ?? null)
        : null,
  }))
}

/** A check-in as the door writes it: every column but the ones the database or later actions fill. */
export type NewCheckIn = Omit<
  Selectable<CheckInTable>,
  'id' | 'converted_from_free_entry' | 'check_out_at' | 'updated_at' | 'check_in_count'
> & { check_in_count: number }

export function insertCheckIn(sqlite: BunDatabase, c: NewCheckIn): number {
  const { lastInsertRowid } = prepared<never, (string | number | null)[]>(
    sqlite,
    `INSERT INTO check_ins (customer_id, gym_id, entry_method, entry_method_description, customer_membership_id,
         customer_entry_pass_id, reservation_id, host_customer_id, free_entry_reason, free_entry_granting_user_id,
         milestone_list, check_in_count, local_date, checked_in_by_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    c.customer_id,
    c.gym_id,
    c.entry_method,
    c.entry_method_description,
    c.customer_membership_id,
    c.customer_entry_pass_id,
    c.reservation_id,
    c.host_customer_id,
    c.free_entry_reason,
    c.free_entry_granting_user_id,
    c.milestone_list,
    c.check_in_count,
    c.local_date,
    c.checked_in_by_id,
    c.created_at,
    c.created_at,
  )
  return Number(lastInsertRowid)
}

/** One more check-in for the customer; the first one also sets first_check_in_timestamp. */
export function countCheckIn(sqlite: BunDatabase, customerId: number, at: string): void {
  prepared(
    sqlite,
    `UPDATE customers SET check_in_count = check_in_count + 1,
         first_check_in_timestamp = COALESCE(first_check_in_timestamp, ?) WHERE id = ?`,
  ).run(at, customerId)
}

export function takeEntry(sqlite: BunDatabase, passId: number, at: string): void {
  prepared(
    sqlite,
    'UPDATE customer_entry_passes SET entries_remaining = entries_remaining - 1, updated_at = ? WHERE id = ? AND entries_remaining > 0',
  ).run(at, passId)
}

export function markReservationCheckedIn(sqlite: BunDatabase, reservationId: number, at: string): void {
  prepared(sqlite, 'UPDATE reservations SET checked_in = 1, updated_at = ? WHERE id = ?').run(
    at,
    reservationId,
  )
}

/** Guest check-ins a host has given in the month starting at `monthStart` (a gym-local date). */
export const countGuestCheckIns = (sqlite: BunDatabase, hostId: number, monthStart: string): number =>
  prepared<{ n: number }, [number, string]>(
    sqlite,
    "SELECT COUNT(*) AS n FROM check_ins WHERE host_customer_id = ? AND entry_method = 'GUE' AND local_date >= ?",
  ).get(hostId, monthStart)!.n

export interface CheckInSummary {
  id: number
  entry_method: string
  entry_method_description: string
  check_in_count: number
  milestones: string[]
}

/** An earlier check-in as the door reports it again (combine-same-day gyms). */
export function getCheckInSummary(sqlite: BunDatabase, id: number): CheckInSummary {
  const row = prepared<
    {
      id: number
      entry_method: string
      entry_method_description: string
      check_in_count: number | null
      milestone_list: string
    },
    [number]
  >(
    sqlite,
    'SELECT id, entry_method, entry_method_description, check_in_count, milestone_list FROM check_ins WHERE id = ?',
  ).get(id)!
  return {
    id: row.id,
    entry_method: row.entry_method,
    entry_method_description: row.entry_method_description,
    check_in_count: row.check_in_count ?? 0,
    milestones: JSON.parse(row.milestone_list) as string[],
  }
}
