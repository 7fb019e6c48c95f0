import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'

/**
 * Writes invoice_search again from every invoice's searchable text (invoice_search_source), as
 * its triggers on invoices and customers keep it one invoice at a time (migration 0008): for a
 * bulk load of invoices (the demo), where one pass over the finished table costs far less than the
 * trigger for each invoice. The index is contentless: 'delete-all' is how it is emptied.
 */
export async function rebuildInvoiceSearch(db: Db): Promise<void> {
  await sql`INSERT INTO invoice_search (invoice_search) VALUES ('delete-all')`.execute(db)
  await sql`
    INSERT INTO invoice_search (rowid, invoice_number, description, email, first_name, last_name,
      preferred_name)
    SELECT invoice_id, invoice_number, description, email, first_name, last_name, preferred_name
    FROM invoice_search_source`.execute(db)
}
