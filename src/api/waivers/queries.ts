import type { Insertable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { WaiverSignatureTable } from '../../db/schema.ts'

export interface NamesakeRow {
  id: number
  first_name: string
  last_name: string
  email: string | null
  telephone: string
  is_active: number
  last_check_in_at: string | null
}

/**
 * The customers born on `birthday`, with their latest check-in: the few a signing's names are
 * compared with (a birthday narrows the customers to a handful; the names are compared in any case
 * by the caller, which SQLite's lower() does for ASCII only).
 */
export const listCustomersBornOn = (db: Db, birthday: string): Promise<NamesakeRow[]> =>
  db
    .selectFrom('customers')
    .select(['id', 'first_name', 'last_name', 'email', 'telephone', 'is_active'])
    .select((eb) =>
      eb
        .selectFrom('check_ins')
        .select((c) => c.fn.max('check_ins.created_at').as('at'))
        .whereRef('check_ins.customer_id', '=', 'customers.id')
        .$asScalar()
        .as('last_check_in_at'),
    )
    .where('birthday', '=', birthday)
    .execute()

export async function insertWaiverSignature(db: Db, row: Insertable<WaiverSignatureTable>): Promise<void> {
  await db.insertInto('waiver_signatures').values(row).execute()
}
