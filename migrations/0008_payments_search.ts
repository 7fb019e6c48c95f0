import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// The payments list answers its filters from indexes, however many years of sales it holds.
//
// invoice_search is a trigram full-text index of what `search` matches on an invoice: its id as
// text, its description, and its customer's email, first, last and preferred name, one column each
// so a term matches within one of them. It is contentless (the text lives in invoices and
// customers) and keeps positions, so a quoted term is a substring match with nothing to re-check.
// invoice_search_source says once what that text is; triggers keep the index current when an
// invoice is written and when a customer's email or names change, which reaches their past sales.
//
// payments_status (status, created_at, id) counts a status or a date window of the listed statuses
// from the index alone and pages a status newest first; payments_invoice now holds status and
// created_at, so the payments of the invoices a search finds are counted and ordered from it too.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE VIEW invoice_search_source AS
      SELECT i.id AS invoice_id, cast(i.id AS TEXT) AS invoice_number, i.description,
        coalesce(c.email, '') AS email, coalesce(c.first_name, '') AS first_name,
        coalesce(c.last_name, '') AS last_name, coalesce(c.preferred_name, '') AS preferred_name,
        i.customer_id
      FROM invoices i LEFT JOIN customers c ON c.id = i.customer_id`,
    `CREATE VIRTUAL TABLE invoice_search USING fts5(
      invoice_number, description, email, first_name, last_name, preferred_name,
      tokenize = 'trigram', content = '', contentless_delete = 1
    )`,
    `INSERT INTO invoice_search (rowid, invoice_number, description, email, first_name, last_name,
      preferred_name)
      SELECT invoice_id, invoice_number, description, email, first_name, last_name, preferred_name
      FROM invoice_search_source`,
    `CREATE TRIGGER invoice_search_insert AFTER INSERT ON invoices BEGIN
      INSERT INTO invoice_search (rowid, invoice_number, description, email, first_name, last_name,
        preferred_name)
        SELECT invoice_id, invoice_number, description, email, first_name, last_name, preferred_name
        FROM invoice_search_source WHERE invoice_id = new.id;
    END`,
    `CREATE TRIGGER invoice_search_update AFTER UPDATE OF description, customer_id ON invoices BEGIN
      INSERT OR REPLACE INTO invoice_search (rowid, invoice_number, description, email, first_name,
        last_name, preferred_name)
        SELECT invoice_id, invoice_number, description, email, first_name, last_name, preferred_name
        FROM invoice_search_source WHERE invoice_id = new.id;
    END`,
    `CREATE TRIGGER invoice_search_delete AFTER DELETE ON invoices BEGIN
      DELETE FROM invoice_search WHERE rowid = old.id;
    END`,
    `CREATE TRIGGER invoice_search_customer AFTER UPDATE OF email, first_name, last_name, preferred_name
      ON customers
      WHEN old.email IS NOT new.email OR old.first_name IS NOT new.first_name
        OR old.last_name IS NOT new.last_name OR old.preferred_name IS NOT new.preferred_name
      BEGIN
      INSERT OR REPLACE INTO invoice_search (rowid, invoice_number, description, email, first_name,
        last_name, preferred_name)
        SELECT invoice_id, invoice_number, description, email, first_name, last_name, preferred_name
        FROM invoice_search_source WHERE customer_id = new.id;
    END`,
    `CREATE INDEX payments_status ON payments (status, created_at, id)`,
    `DROP INDEX payments_invoice`,
    `CREATE INDEX payments_invoice ON payments (invoice_id, status, created_at)`,
  ])
}
