import type { Insertable, Selectable, Updateable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { definedChanges } from '../../db/changes.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { ProductStatus, VoucherPackTable } from '../../db/schema.ts'

export type VoucherPackRow = Selectable<VoucherPackTable> & { event_type_name: string }

export interface VoucherPackFilters {
  status?: ProductStatus
  event_type_id?: number
}

function filtered(db: Db, filters: VoucherPackFilters) {
  let query = db.selectFrom('voucher_packs as vp').innerJoin('event_types as et', 'et.id', 'vp.event_type_id')
  if (filters.status !== undefined) query = query.where('vp.status', '=', filters.status)
  if (filters.event_type_id !== undefined) query = query.where('vp.event_type_id', '=', filters.event_type_id)
  return query
}

const withEventType = (query: ReturnType<typeof filtered>) =>
  query.selectAll('vp').select('et.name as event_type_name')

export const listVoucherPacks = (db: Db, filters: VoucherPackFilters): ListSource<VoucherPackRow> =>
  listFrom(filtered(db, filters), {
    order: (query) => query.orderBy('vp.name').orderBy('vp.id'),
    rows: (page) => withEventType(page).execute(),
  })

export const getVoucherPack = (db: Db, id: number): Promise<VoucherPackRow | undefined> =>
  withEventType(filtered(db, {})).where('vp.id', '=', id).executeTakeFirst()

export async function insertVoucherPack(db: Db, row: Insertable<VoucherPackTable>): Promise<number> {
  return (await db.insertInto('voucher_packs').values(row).returning('id').executeTakeFirstOrThrow()).id
}

export async function updateVoucherPack(
  db: Db,
  id: number,
  changes: Updateable<VoucherPackTable>,
): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('voucher_packs').set(set).where('id', '=', id).execute()
}
