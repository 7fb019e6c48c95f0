import type { Insertable, Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { CustomerRelationTable } from '../../db/schema.ts'
import { customerRecordReads } from '../customer-records/queries.ts'

export type RelationRow = Selectable<CustomerRelationTable> & {
  related_customer_email: string | null
  related_customer_first_name: string
  related_customer_last_name: string
}

export const { list: listRelations, get: getRelation } = customerRecordReads('customer_relations', (query) =>
  query
    .innerJoin('customers', 'customers.id', 'customer_relations.related_customer_id')
    .selectAll('customer_relations')
    .select([
      'customers.email as related_customer_email',
      'customers.first_name as related_customer_first_name',
      'customers.last_name as related_customer_last_name',
    ]),
)

export async function relationExists(
  db: Db,
  customerId: number,
  relatedCustomerId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('customer_relations')
    .select('id')
    .where('customer_id', '=', customerId)
    .where('related_customer_id', '=', relatedCustomerId)
    .executeTakeFirst()
  return row !== undefined
}

/** Inserts the rows in one statement; their ids in the same order. */
export async function insertRelations(db: Db, rows: Insertable<CustomerRelationTable>[]): Promise<number[]> {
  const inserted = await db.insertInto('customer_relations').values(rows).returning('id').execute()
  return inserted.map((row) => row.id)
}

/** Both directions between two customers. */
export async function deleteRelationPair(db: Db, customerId: number, relatedCustomerId: number) {
  await db
    .deleteFrom('customer_relations')
    .where((eb) =>
      eb.or([
        eb.and([eb('customer_id', '=', customerId), eb('related_customer_id', '=', relatedCustomerId)]),
        eb.and([eb('customer_id', '=', relatedCustomerId), eb('related_customer_id', '=', customerId)]),
      ]),
    )
    .execute()
}
