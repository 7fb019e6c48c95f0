import type { Database as BunDatabase } from 'bun:sqlite'
import type { Selectable } from 'kysely'
import { compiledStatement } from '../../db/compiled-statement.ts'
import { nextSiteId } from '../../db/site-ids.ts'
import type { CheckInTable } from '../../db/schema.ts'

/**
 * What a check-in writes, inside the door's one transaction (core/door/record.ts): the check-in
 * row, the customer's count, a pass's entry, a reservation marked; compiled once, like the reads
 * in queries.ts.
 */

/** A check-in as the door writes it: every column but the ones the database or later actions fill. */
export type NewCheckIn = Omit<
  Selectable<CheckInTable>,
  'id' | 'converted_from_free_entry' | 'check_out_at' | 'updated_at' | 'check_in_count'
> & { check_in_count: number }

const insertCheckInStatement = compiledStatement((db, c: NewCheckIn & { id: number | null }) =>
  db.insertInto('check_ins').values({
    // null (typed as the column's number): SQLite picks it, unless the box is a site of a hub
    // and allocates its own (db/site-ids.ts).
    id: c.id as number,
    customer_id: c.customer_id,
    gym_id: c.gym_id,
    entry_method: c.entry_method,
    entry_method_description: c.entry_method_description,
    customer_membership_id: c.customer_membership_id,
    customer_entry_pass_id: c.customer_entry_pass_id,
    reservation_id: c.reservation_id,
    host_customer_id: c.host_customer_id,
    free_entry_reason: c.free_entry_reason,
    free_entry_granting_user_id: c.free_entry_granting_user_id,
    milestone_list: c.milestone_list,
    check_in_count: c.check_in_count,
    local_date: c.local_date,
    local_time: c.local_time,
    checked_in_by_id: c.checked_in_by_id,
    created_at: c.created_at,
    updated_at: c.created_at,
  }),
)

const countCheckInStatement = compiledStatement((db, p: { customerId: number; at: string }) =>
  db
    .updateTable('customers')
    .set((eb) => ({
      check_in_count: eb('check_in_count', '+', 1),
      first_check_in_timestamp: eb.fn.coalesce('first_check_in_timestamp', eb.val(p.at)),
    }))
    .where('id', '=', p.customerId),
)

const takeEntryStatement = compiledStatement((db, p: { passId: number; at: string }) =>
  db
    .updateTable('customer_entry_passes')
    .set((eb) => ({ entries_remaining: eb('entries_remaining', '-', 1), updated_at: p.at }))
    .where('id', '=', p.passId)
    .where('entries_remaining', '>', 0),
)

const markReservationStatement = compiledStatement((db, p: { reservationId: number; at: string }) =>
  db.updateTable('reservations').set({ checked_in: 1, updated_at: p.at }).where('id', '=', p.reservationId),
)

/** The write statements, for tests that ask SQLite how each one reaches its rows. */
export const doorWriteStatements = {
  insertCheckIn: insertCheckInStatement,
  countCheckIn: countCheckInStatement,
  takeEntry: takeEntryStatement,
  markReservation: markReservationStatement,
}

export const insertCheckIn = (sqlite: BunDatabase, c: NewCheckIn): number =>
  Number(insertCheckInStatement.run(sqlite, { ...c, id: nextSiteId(sqlite, 'check_ins') }).lastInsertRowid)

/** One more check-in for the customer; the first one also sets first_check_in_timestamp. */
export function countCheckIn(sqlite: BunDatabase, customerId: number, at: string): void {
  countCheckInStatement.run(sqlite, { customerId, at })
}

export function takeEntry(sqlite: BunDatabase, passId: number, at: string): void {
  takeEntryStatement.run(sqlite, { passId, at })
}

export function markReservationCheckedIn(sqlite: BunDatabase, reservationId: number, at: string): void {
  markReservationStatement.run(sqlite, { reservationId, at })
}
