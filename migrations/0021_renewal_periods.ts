import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// A renewal pays one billing period, and a line records which (period_start), so a sale sent
// twice can be told from one paying ahead. A sale sent with an Idempotency-Key records the key
// and a digest of the request it came with: a retry with the same key is answered with the sale
// already recorded, and the unique index makes two at the same instant record it once. Keys are
// the staff user's own: two desks cannot collide by choosing the same one.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE invoice_line_items ADD COLUMN period_start TEXT`,
    `ALTER TABLE invoices ADD COLUMN idempotency_key TEXT`,
    `ALTER TABLE invoices ADD COLUMN request_digest TEXT`,
    `CREATE UNIQUE INDEX invoices_idempotency_key ON invoices (staff_user_id, idempotency_key)
      WHERE idempotency_key IS NOT NULL`,
  ])
}
