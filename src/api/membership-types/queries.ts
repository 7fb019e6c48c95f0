import type { Db } from '../../db/connection.ts'
import { definedChanges } from '../../db/changes.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { MembershipType, MembershipTypeTable } from '../../db/schema.ts'
import { contains } from '../../db/text-search.ts'
import type { Insertable, Updateable } from 'kysely'

export type MembershipTypeRow = MembershipType & { location_name: string | null }

export interface MembershipTypeFilters {
  status?: string
  purchase_type?: string
  is_group?: boolean
}

function filtered(db: Db, filters: MembershipTypeFilters) {
  let query = db.selectFrom('membership_types').leftJoin('gyms', 'gyms.id', 'membership_types.location_id')
  if (filters.status !== undefined) query = query.where(contains('membership_types.status', filters.status))
  if (filters.purchase_type !== undefined)
    query = query.where(contains('membership_types.purchase_type', filters.purchase_type))
  if (filters.is_group !== undefined)
    query = query.where('membership_types.is_group', '=', filters.is_group ? 1 : 0)
  return query
}

const withLocation = (query: ReturnType<typeof filtered>) =>
  query.selectAll('membership_types').select('gyms.name as location_name')

export const listMembershipTypes = (db: Db, filters: MembershipTypeFilters): ListSource<MembershipTypeRow> =>
  listFrom(filtered(db, filters), {
    order: (query) => query.orderBy('membership_types.id'),
    rows: (page) => withLocation(page).execute(),
  })

export const getMembershipType = (db: Db, id: number): Promise<MembershipTypeRow | undefined> =>
  withLocation(filtered(db, {})).where('membership_types.id', '=', id).executeTakeFirst()

export async function membershipTypeExists(db: Db, id: number): Promise<boolean> {
  const row = await db.selectFrom('membership_types').select('id').where('id', '=', id).executeTakeFirst()
  return row !== undefined
}

export async function insertMembershipType(db: Db, row: Insertable<MembershipTypeTable>): Promise<number> {
  return (await db.insertInto('membership_types').values(row).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateMembershipType(
  db: Db,
  id: number,
  changes: Updateable<MembershipTypeTable>,
): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('membership_types').set(set).where('id', '=', id).execute()
}
