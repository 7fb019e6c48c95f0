import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// The products the desk's Sell screen offers as one-click buttons, chosen by an admin: at most
// eight, in the order shown. A product is named by the purchase type that sells it and its id in
// that type's table, so there is no foreign key; a button whose product is gone or retired is
// kept and shown as not for sale until the admin changes the list.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE quick_sales (
      position INTEGER PRIMARY KEY CHECK (position BETWEEN 0 AND 7),
      purchase_type TEXT NOT NULL CHECK (purchase_type IN ('MIN', 'EPA', 'VPO')),
      product_id INTEGER NOT NULL,
      label TEXT NOT NULL
    )`,
  ])
}
