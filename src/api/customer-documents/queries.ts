import { sql, type Insertable, type Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { CustomerDocumentFileTable, CustomerDocumentTable, Flag } from '../../db/schema.ts'

export type DocumentRow = Selectable<CustomerDocumentTable> & { has_pdf: Flag; is_expired: Flag }

const ofCustomer = (db: Db, customerId: number) =>
  db.selectFrom('customer_documents').where('customer_documents.customer_id', '=', customerId)

/**
 * Documents with their computed fields. `today` is the organization-local date: a document is usable
 * through the whole of its expiration day, so it has expired once today is past that day.
 */
const withComputed = (query: ReturnType<typeof ofCustomer>, today: string) =>
  query
    .selectAll('customer_documents')
    .select((eb) => [
      sql<Flag>`${eb.exists(
        eb
          .selectFrom('customer_document_files')
          .select(sql.lit(1).as('one'))
          .whereRef('customer_document_files.document_id', '=', 'customer_documents.id'),
      )}`.as('has_pdf'),
      sql<Flag>`(customer_documents.expiration_date IS NOT NULL AND customer_documents.expiration_date < ${today})`.as(
        'is_expired',
      ),
    ])

export const listDocuments = (db: Db, customerId: number, today: string): ListSource<DocumentRow> =>
  listFrom(ofCustomer(db, customerId), {
    order: (query) => query.orderBy('customer_documents.id'),
    rows: (page) => withComputed(page, today).execute(),
  })

/** One document of one customer: another customer's document is not found. */
export const getDocument = (
  db: Db,
  customerId: number,
  id: number,
  today: string,
): Promise<DocumentRow | undefined> =>
  withComputed(ofCustomer(db, customerId), today).where('customer_documents.id', '=', id).executeTakeFirst()

export async function insertDocument(db: Db, document: Insertable<CustomerDocumentTable>): Promise<number> {
  return (
    await db.insertInto('customer_documents').values(document).returning('id').executeTakeFirstOrThrow()
  ).id
}

export async function insertDocumentFile(db: Db, file: Insertable<CustomerDocumentFileTable>): Promise<void> {
  await db.insertInto('customer_document_files').values(file).execute()
}

/** The stored file of one customer's document, if it has one. */
export const getDocumentFile = (
  db: Db,
  customerId: number,
  documentId: number,
): Promise<{ content_type: string; content: Uint8Array } | undefined> =>
  ofCustomer(db, customerId)
    .innerJoin('customer_document_files', 'customer_document_files.document_id', 'customer_documents.id')
    .select(['customer_document_files.content_type', 'customer_document_files.content'])
    .where('customer_documents.id', '=', documentId)
    .executeTakeFirst()
