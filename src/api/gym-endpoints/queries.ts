import type { Database as BunDatabase } from 'bun:sqlite'
import { ACTIVE_STATUSES, FAILED_STATUSES, FROZEN_STATUSES } from '../../core/membership-status.ts'
import type {
  AccessWindow,
  FactsAlert,
  FactsEntryPass,
  FactsMembership,
  FactsReservation,
} from '../../core/check-in/facts.ts'
import type { Selectable } from 'kysely'
import type { CheckInTable } from '../../db/schema.ts'

/**
 * The door's statements, run synchronously on the raw connection inside one transaction (see
 * core/check-in/record.ts). bun:sqlite caches each prepared statement by its SQL text.
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

export const getDoorGym = (sqlite: BunDatabase, id: number): DoorGym | null =>
  sqlite
    .query<DoorGym, [number]>('SELECT id, name, time_zone, combine_same_day_check_ins FROM gyms WHERE id = ?')
    .get(id)

/** The only gym's id when the organization has exactly one, else null. */
export function getOnlyGymId(sqlite: BunDatabase): number | null {
  const rows = sqlite.query<{ id: number }, []>('SELECT id FROM gyms ORDER BY id LIMIT 2').all()
  return rows.length === 1 ? rows[0]!.id : null
}

export const getCustomerByBarcode = (sqlite: BunDatabase, barcode: string): DoorCustomer | null =>
  sqlite
    .query<DoorCustomer, [string]>(`SELECT ${CUSTOMER_COLUMNS} FROM customers WHERE barcode = ?`)
    .get(barcode)

export const getDoorCustomer = (sqlite: BunDatabase, id: number): DoorCustomer | null =>
  sqlite.query<DoorCustomer, [number]>(`SELECT ${CUSTOMER_COLUMNS} FROM customers WHERE id = ?`).get(id)

export const getDoorOrganization = (sqlite: BunDatabase): DoorOrganization =>
  sqlite
    .query<DoorOrganization, []>('SELECT waiver_required, milestones FROM organization WHERE id = 1')
    .get()!

export const listActiveAlerts = (sqlite: BunDatabase, customerId: number): FactsAlert[] =>
  sqlite
    .query<
      { alert_text: string; color_hex: string; created_date: string; prevents_check_in: number },
      [number]
    >(
      `SELECT alert_text, color_hex, created_date, prevents_check_in FROM customer_alerts
       WHERE customer_id = ? AND is_active = 1 ORDER BY id`,
    )
    .all(customerId)
    .map((a) => ({ ...a, prevents_check_in: a.prevents_check_in === 1 }))

/** A waiver that is usable on `today` (gym-local): no expiry, or expiring today or later. */
export const hasValidWaiver = (sqlite: BunDatabase, customerId: number, today: string): boolean =>
  sqlite
    .query<{ one: number }, [number, string]>(
      `SELECT 1 AS one FROM customer_documents WHERE customer_id = ? AND kind = 'waiver'
       AND (expiration_date IS NULL OR expiration_date >= ?) LIMIT 1`,
    )
    .get(customerId, today) !== null

export const getLastCheckInAt = (sqlite: BunDatabase, customerId: number, gymId: number): string | null =>
  sqlite
    .query<{ created_at: string }, [number, number]>(
      'SELECT created_at FROM check_ins WHERE customer_id = ? AND gym_id = ? ORDER BY created_at DESC LIMIT 1',
    )
    .get(customerId, gymId)?.created_at ?? null

export const getSameDayCheckInId = (
  sqlite: BunDatabase,
  customerId: number,
  gymId: number,
  localDate: string,
): number | null =>
  sqlite
    .query<{ id: number }, [number, number, string]>(
      'SELECT id FROM check_ins WHERE customer_id = ? AND gym_id = ? AND local_date = ? ORDER BY id LIMIT 1',
    )
    .get(customerId, gymId, localDate)?.id ?? null

export const listReservationsNow = (
  sqlite: BunDatabase,
  customerId: number,
  gymId: number,
  nowIso: string,
): FactsReservation[] =>
  sqlite
    .query<
      {
        reservation_id: number
        event_id: number
        event_name: string
        start_at: string
        end_at: string
        includes_entry: number
      },
      [number, number, string, string]
    >(
      `SELECT r.id AS reservation_id, e.id AS event_id, e.name AS event_name, e.start_at, e.end_at,
              (r.includes_entry AND e.includes_entry) AS includes_entry
       FROM reservations r JOIN events e ON e.id = r.event_id
       WHERE r.customer_id = ? AND e.gym_id = ? AND r.is_cancelled = 0 AND e.is_cancelled = 0
         AND e.start_at <= ? AND e.end_at > ?
       ORDER BY e.start_at, r.id`,
    )
    .all(customerId, gymId, nowIso, nowIso)
    .map((r) => ({ ...r, includes_entry: r.includes_entry === 1 }))

const COVERED_STATUSES = [...ACTIVE_STATUSES, ...FROZEN_STATUSES, ...FAILED_STATUSES]
  .map((s) => `'${s}'`)
  .join(', ')

/** The memberships covering this customer whose status still counts (active, frozen, failed). */
export const listCoveringMemberships = (sqlite: BunDatabase, customerId: number): FactsMembership[] =>
  sqlite
    .query<
      Omit<FactsMembership, 'member_is_frozen' | 'access_hours'> & {
        member_is_frozen: number
        access_hours: string | null
      },
      [number]
    >(
      `SELECT cm.id AS customer_membership_id, cm.status, mm.is_frozen AS member_is_frozen, cm.start_date,
              cm.end_date, mt.purchase_type, mt.name AS type_name, mt.access_hours, mt.guest_passes_per_month
       FROM membership_members mm
       JOIN customer_memberships cm ON cm.id = mm.customer_membership_id
       JOIN membership_types mt ON mt.id = cm.membership_type_id
       WHERE mm.customer_id = ? AND cm.status IN (${COVERED_STATUSES})
       ORDER BY cm.id`,
    )
    .all(customerId)
    .map((m) => ({
      ...m,
      member_is_frozen: m.member_is_frozen === 1,
      access_hours: m.access_hours === null ? null : (JSON.parse(m.access_hours) as AccessWindow[]),
    }))

/** Whether the customer is covered by any membership at all, in any status (member look-up). */
export const hasAnyMembership = (sqlite: BunDatabase, customerId: number): boolean =>
  sqlite
    .query<{ one: number }, [number]>('SELECT 1 AS one FROM membership_members WHERE customer_id = ? LIMIT 1')
    .get(customerId) !== null

/** The customer's passes with entries left that are usable on `today` (gym-local). */
export const listUsableEntryPasses = (
  sqlite: BunDatabase,
  customerId: number,
  today: string,
): FactsEntryPass[] =>
  sqlite
    .query<FactsEntryPass, [number, string]>(
      `SELECT p.id, t.name, p.entries_remaining, p.expiry_date,
              CASE WHEN p.purchaser_id IS NOT NULL AND p.purchaser_id <> p.owner_id
                   THEN b.first_name || ' ' || b.last_name END AS purchaser_name
       FROM customer_entry_passes p
       JOIN entry_pass_types t ON t.id = p.entry_pass_type_id
       LEFT JOIN customers b ON b.id = p.purchaser_id
       WHERE p.owner_id = ? AND p.entries_remaining > 0 AND (p.expiry_date IS NULL OR p.expiry_date >= ?)
       ORDER BY p.id`,
    )
    .all(customerId, today)

/** A check-in as the door writes it: every column but the ones the database or later actions fill. */
export type NewCheckIn = Omit<
  Selectable<CheckInTable>,
  'id' | 'converted_from_free_entry' | 'check_out_at' | 'updated_at' | 'check_in_count'
> & { check_in_count: number }

export function insertCheckIn(sqlite: BunDatabase, c: NewCheckIn): number {
  const row = sqlite
    .query<{ id: number }, (string | number | null)[]>(
      `INSERT INTO check_ins (customer_id, gym_id, entry_method, entry_method_description, customer_membership_id,
         customer_entry_pass_id, reservation_id, host_customer_id, free_entry_reason, free_entry_granting_user_id,
         milestone_list, check_in_count, local_date, checked_in_by_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .get(
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
  return row!.id
}

/** One more check-in for the customer; the first one also sets first_check_in_timestamp. */
export function countCheckIn(sqlite: BunDatabase, customerId: number, at: string): void {
  sqlite
    .query(
      `UPDATE customers SET check_in_count = check_in_count + 1,
         first_check_in_timestamp = COALESCE(first_check_in_timestamp, ?) WHERE id = ?`,
    )
    .run(at, customerId)
}

export function takeEntry(sqlite: BunDatabase, passId: number, at: string): void {
  sqlite
    .query(
      'UPDATE customer_entry_passes SET entries_remaining = entries_remaining - 1, updated_at = ? WHERE id = ? AND entries_remaining > 0',
    )
    .run(at, passId)
}

export function markReservationCheckedIn(sqlite: BunDatabase, reservationId: number, at: string): void {
  sqlite.query('UPDATE reservations SET checked_in = 1, updated_at = ? WHERE id = ?').run(at, reservationId)
}

/** Guest check-ins a host has given in the month starting at `monthStart` (a gym-local date). */
export const countGuestCheckIns = (sqlite: BunDatabase, hostId: number, monthStart: string): number =>
  sqlite
    .query<{ n: number }, [number, string]>(
      "SELECT COUNT(*) AS n FROM check_ins WHERE host_customer_id = ? AND entry_method = 'GUE' AND local_date >= ?",
    )
    .get(hostId, monthStart)!.n

export interface CheckInSummary {
  id: number
  entry_method: string
  entry_method_description: string
  check_in_count: number
  milestones: string[]
}

/** An earlier check-in as the door reports it again (combine-same-day gyms). */
export function getCheckInSummary(sqlite: BunDatabase, id: number): CheckInSummary {
  const row = sqlite
    .query<
      {
        id: number
        entry_method: string
        entry_method_description: string
        check_in_count: number | null
        milestone_list: string
      },
      [number]
    >(
      'SELECT id, entry_method, entry_method_description, check_in_count, milestone_list FROM check_ins WHERE id = ?',
    )
    .get(id)!
  return {
    id: row.id,
    entry_method: row.entry_method,
    entry_method_description: row.entry_method_description,
    check_in_count: row.check_in_count ?? 0,
    milestones: JSON.parse(row.milestone_list) as string[],
  }
}
