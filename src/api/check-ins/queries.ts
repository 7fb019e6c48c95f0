import { sql, type Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { CheckInTable, EntryMethod } from '../../db/schema.ts'

/**
 * A check-in with what its API record and its webhook payload show beside it: the customer, the
 * location (with its zone, for the local times) and the staff user who granted a free entry. One row
 * type for both, so the record and the event cannot drift apart.
 */
export type CheckInRow = Selectable<CheckInTable> & {
  customer_first_name: string
  customer_last_name: string
  customer_birthday: string
  customer_email: string | null
  location_name: string
  location_time_zone: string
  free_entry_granting_user_first_name: string | null
  free_entry_granting_user_last_name: string | null
}

/**
 * The filters in the form the database answers them: day filters already turned into instants
 * (rules.ts knows the organization's zone).
 */
export interface CheckInQuery {
  customer_id?: number
  gym_id?: number
  entry_method?: EntryMethod
  /** created_at >= this UTC instant (ISO) */
  created_from?: string
  /** created_at < this UTC instant (ISO) */
  created_before?: string
  /** true: only checked out (ordered by check-out time); false: only those still in */
  checked_out?: boolean
}

function filtered(db: Db, q: CheckInQuery) {
  let query = db.selectFrom('check_ins as ci')
  if (q.customer_id !== undefined) query = query.where('ci.customer_id', '=', q.customer_id)
  if (q.gym_id !== undefined) query = query.where('ci.gym_id', '=', q.gym_id)
  if (q.entry_method !== undefined) {
    // With a customer, that customer's index is always the narrow one; without statistics SQLite
    // would pick check_ins_method_created (it also gives the order) and walk every MEM check-in.
    // A unary + keeps the term from using an index.
    const method =
      q.customer_id === undefined ? sql.ref('ci.entry_method') : sql`+${sql.ref('ci.entry_method')}`
    query = query.where(method, '=', q.entry_method)
  }
  // created_at is always written by Date#toISOString, so text order is time order.
  if (q.created_from !== undefined) query = query.where('ci.created_at', '>=', q.created_from)
  if (q.created_before !== undefined) query = query.where('ci.created_at', '<', q.created_before)
  // Spelled exactly as the partial index check_ins_check_out is, so SQLite may use it.
  if (q.checked_out === true) query = query.where('ci.check_out_at', 'is not', null)
  if (q.checked_out === false) query = query.where('ci.check_out_at', 'is', null)
  return query
}

/** The joins and columns of CheckInRow, over any selection of check_ins rows named `ci`. */
function withRecord(query: ReturnType<typeof filtered>) {
  return query
    .innerJoin('customers as c', 'c.id', 'ci.customer_id')
    .innerJoin('gyms as g', 'g.id', 'ci.gym_id')
    .leftJoin('staff_users as u', 'u.id', 'ci.free_entry_granting_user_id')
    .selectAll('ci')
    .select([
      'c.first_name as customer_first_name',
      'c.last_name as customer_last_name',
      'c.birthday as customer_birthday',
      'c.email as customer_email',
      'g.name as location_name',
      'g.time_zone as location_time_zone',
      'u.first_name as free_entry_granting_user_first_name',
      'u.last_name as free_entry_granting_user_last_name',
    ])
}

/**
 * Newest check-in first (created_at, then id: the index check_ins_created holds rowid after
 * created_at, so no sort step); checked-out ones by check-out time when only those are asked for
 * (the partial index check_ins_check_out).
 */
export const listCheckIns = (db: Db, q: CheckInQuery): ListSource<CheckInRow> =>
  listFrom(filtered(db, q), {
    keyset:
      q.checked_out === true
        ? { columns: ['ci.check_out_at', 'ci.id'], descending: true, of: (row) => [row.check_out_at, row.id] }
        : { columns: ['ci.created_at', 'ci.id'], descending: true, of: (row) => [row.created_at, row.id] },
    rows: (page) => withRecord(page).execute(),
  })

/** One check-in, optionally only if it is `customerId`'s (the customer's sub-collection). */
export function getCheckIn(db: Db, id: number, customerId?: number): Promise<CheckInRow | undefined> {
  return withRecord(filtered(db, { customer_id: customerId }))
    .where('ci.id', '=', id)
    .executeTakeFirst()
}

/** Sets the check-out time unless one is set already; false when it was (a concurrent check-out). */
export async function updateCheckOut(db: Db, id: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('check_ins')
    .set({ check_out_at: at, updated_at: at })
    .where('id', '=', id)
    .where('check_out_at', 'is', null)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}
