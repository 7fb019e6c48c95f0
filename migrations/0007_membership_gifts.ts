import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// A gift may also be a membership type: redeeming it starts a membership for the customer, which
// the gift then names (so a membership acquired as a gift can be told from one bought).
//
// SQLite cannot change a table's CHECK in place, so the table is built anew with the third product
// column in its CHECK, its rows copied over with their ids, and the old one dropped; its only
// indexes are those of its UNIQUE columns, which the new table's definition creates. No table
// references gifts, so foreign keys stay on throughout.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE gifts_new (
      id INTEGER PRIMARY KEY,
      code TEXT NOT NULL UNIQUE,
      invoice_line_item_id INTEGER NOT NULL UNIQUE REFERENCES invoice_line_items (id),
      entry_pass_type_id INTEGER REFERENCES entry_pass_types (id),
      voucher_pack_id INTEGER REFERENCES voucher_packs (id),
      membership_type_id INTEGER REFERENCES membership_types (id),
      purchaser_id INTEGER REFERENCES customers (id),
      redeemed_by_id INTEGER REFERENCES customers (id),
      redeemed_at TEXT,
      customer_entry_pass_id INTEGER REFERENCES customer_entry_passes (id),
      customer_event_voucher_id INTEGER REFERENCES customer_event_vouchers (id),
      customer_membership_id INTEGER REFERENCES customer_memberships (id),
      created_at TEXT NOT NULL,
      CHECK ((entry_pass_type_id IS NOT NULL) + (voucher_pack_id IS NOT NULL) + (membership_type_id IS NOT NULL) = 1)
    )`,
    `INSERT INTO gifts_new (id, code, invoice_line_item_id, entry_pass_type_id, voucher_pack_id, purchaser_id,
      redeemed_by_id, redeemed_at, customer_entry_pass_id, customer_event_voucher_id, created_at)
    SELECT id, code, invoice_line_item_id, entry_pass_type_id, voucher_pack_id, purchaser_id,
      redeemed_by_id, redeemed_at, customer_entry_pass_id, customer_event_voucher_id, created_at
    FROM gifts`,
    `DROP TABLE gifts`,
    `ALTER TABLE gifts_new RENAME TO gifts`,
  ])
}
