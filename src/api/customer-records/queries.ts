import { sql, type Insertable, type Kysely, type SelectQueryBuilder, type Updateable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { Database } from '../../db/schema.ts'

/** The tables of records that belong to one customer (`customer_id`), served under /api/customers/<id>/. */
export type CustomerRecordTable =
  | 'customer_credits'
  | 'customer_emergency_contacts'
  | 'customer_medical_notes'
  | 'customer_relations'
  | 'customer_event_vouchers'

/**
 * list (by id) and get for one customer's records of `table`. `columns` adds the columns (with any
 * joins) of a row to a selection of the table's rows; the customer's records are picked here, so a
 * record of another customer is never found.
 */
export function customerRecordReads<T extends CustomerRecordTable, Row>(
  table: T,
  columns: (query: SelectQueryBuilder<Database, T, {}>) => SelectQueryBuilder<Database, any, Row>,
) {
  const id = sql.ref(`${table}.id`)
  // Kysely's types cannot follow a FROM named by a type parameter; the query is of `table` alone.
  const fromTable = (db: Db) =>
    db.selectFrom(table as CustomerRecordTable) as unknown as SelectQueryBuilder<Database, T, {}>
  const ofCustomer = (db: Db, customerId: number) =>
    fromTable(db).where(sql.ref(`${table}.customer_id`), '=', customerId)
  return {
    list: (db: Db, customerId: number): ListSource<Row> =>
      listFrom(ofCustomer(db, customerId), {
        order: (query) => query.orderBy(id),
        rows: (page) => columns(page).execute() as Promise<Row[]>,
      }),
    get: (db: Db, customerId: number, recordId: number): Promise<Row | undefined> =>
      columns(ofCustomer(db, customerId).where(id, '=', recordId)).executeTakeFirst() as Promise<
        Row | undefined
      >,
  }
}

/**
 * insert (returning the id) and update by id for `table`, typed by that table's columns. Kysely
 * cannot check a value list against a table chosen by a type parameter, so the statements are
 * built untyped here and the signatures carry the types.
 */
export function customerRecordWrites<T extends CustomerRecordTable>(table: T) {
  const untyped = (db: Db) => db as unknown as Kysely<any>
  const name: string = table
  return {
    async insert(db: Db, record: Insertable<Database[T]>): Promise<number> {
      const row = await untyped(db).insertInto(name).values(record).returning('id').executeTakeFirstOrThrow()
      return row.id as number
    },
    async update(db: Db, id: number, changes: Updateable<Database[T]>): Promise<void> {
      await untyped(db)
        .updateTable(name)
        .set(changes as Record<string, unknown>)
        .where('id', '=', id)
        .execute()
    },
  }
}

/** The email of the staff user whose id is in `column` (null when there is none). */
export const staffEmail = (column: string) =>
  sql<string | null>`(SELECT email FROM staff_users WHERE staff_users.id = ${sql.ref(column)})`

/**
 * The zone a customer's days are read in: their home gym's, else the organization's.
 * `column` holds the customer id.
 */
export const customerTimeZone = (column: string) =>
  sql<string>`COALESCE(
    (SELECT gyms.time_zone FROM customers JOIN gyms ON gyms.id = customers.home_location_id
      WHERE customers.id = ${sql.ref(column)}),
    (SELECT time_zone FROM organization WHERE id = 1))`
