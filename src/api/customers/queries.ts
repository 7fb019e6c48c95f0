import type { Db } from '../../db/connection.ts'

/** For nested collections (`/api/customers/<id>/...`): 404 unless the customer exists. */
export async function customerExists(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('customers').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
}
