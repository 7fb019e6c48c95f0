import type { Db } from '../../db/connection.ts'
import type { NewStaffUser, StaffUser, StaffUserUpdate } from '../../db/schema.ts'
import { definedChanges } from '../../db/changes.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import { searchTerms } from '../../db/text-search.ts'

export type StaffUserRow = StaffUser & { default_gym_name: string }

export interface UserFilters {
  default_gym_id?: number
  search?: string
}

function filtered(db: Db, filters: UserFilters) {
  let query = db.selectFrom('staff_users').innerJoin('gyms', 'gyms.id', 'staff_users.default_gym_id')
  if (filters.default_gym_id !== undefined)
    query = query.where('staff_users.default_gym_id', '=', filters.default_gym_id)
  if (filters.search !== undefined) {
    const search = filters.search
    query = query.where((eb) =>
      searchTerms(eb, ['staff_users.email', 'staff_users.first_name', 'staff_users.last_name'], search),
    )
  }
  return query
}

const withGymName = (query: ReturnType<typeof filtered>) =>
  query.selectAll('staff_users').select('gyms.name as default_gym_name')

export const listUsers = (db: Db, filters: UserFilters): ListSource<StaffUserRow> =>
  listFrom(filtered(db, filters), {
    order: (query) => query.orderBy('staff_users.id'),
    rows: (page) => withGymName(page).execute(),
  })

export const getUser = (db: Db, id: number): Promise<StaffUserRow | undefined> =>
  withGymName(filtered(db, {})).where('staff_users.id', '=', id).executeTakeFirst()

export async function insertUser(db: Db, user: NewStaffUser): Promise<number> {
  return (await db.insertInto('staff_users').values(user).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateUser(db: Db, id: number, changes: StaffUserUpdate): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('staff_users').set(set).where('id', '=', id).execute()
}

/** The staff who can act in PIN mode: active, with a PIN set. Unordered: the route sorts by name. */
export const listPinHolders = (db: Db) =>
  db
    .selectFrom('staff_users')
    .select(['id', 'first_name', 'last_name', 'email'])
    .where('is_active', '=', 1)
    .where('pin_hash', 'is not', null)
    .execute()
