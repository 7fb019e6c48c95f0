import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// The sales the desk records: invoices, their line items and the discounts applied to them, the
// payments made against them, refunds of those payments, and gifts sold. Money is integer cents.
//
// An invoice is never deleted or edited after it is posted, so each line keeps what it charged as
// it was then (unit price, discount share, net, the tax rate's basis points and the tax) rather than
// reading the product again; each applied discount keeps its code and names the same way. Payments
// and refunds are read by date and by invoice, so those are indexed.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE invoices (
      id INTEGER PRIMARY KEY,
      customer_id INTEGER REFERENCES customers (id),
      gym_id INTEGER NOT NULL REFERENCES gyms (id),
      staff_user_id INTEGER REFERENCES staff_users (id),
      description TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX invoices_customer ON invoices (customer_id, created_at)`,
    `CREATE INDEX invoices_gym ON invoices (gym_id, created_at)`,
    `CREATE INDEX invoices_created ON invoices (created_at, id)`,
    `CREATE TABLE invoice_discounts (
      id INTEGER PRIMARY KEY,
      invoice_id INTEGER NOT NULL REFERENCES invoices (id),
      position INTEGER NOT NULL,
      discount_id INTEGER NOT NULL REFERENCES discounts (id),
      code TEXT NOT NULL,
      name TEXT NOT NULL,
      display_name TEXT NOT NULL,
      association_id INTEGER,
      amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
      UNIQUE (invoice_id, position)
    )`,
    `CREATE TABLE invoice_line_items (
      id INTEGER PRIMARY KEY,
      invoice_id INTEGER NOT NULL REFERENCES invoices (id),
      position INTEGER NOT NULL,
      purchase_type TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      quantity INTEGER NOT NULL CHECK (quantity >= 1),
      unit_price_cents INTEGER NOT NULL CHECK (unit_price_cents >= 0),
      discount_cents INTEGER NOT NULL CHECK (discount_cents >= 0),
      net_cents INTEGER NOT NULL CHECK (net_cents >= 0),
      tax_rate_id INTEGER REFERENCES tax_rates (id),
      tax_rate_basis_points INTEGER NOT NULL DEFAULT 0,
      tax_cents INTEGER NOT NULL CHECK (tax_cents >= 0),
      revenue_account_code TEXT NOT NULL DEFAULT '',
      membership_type_id INTEGER REFERENCES membership_types (id),
      entry_pass_type_id INTEGER REFERENCES entry_pass_types (id),
      event_id INTEGER REFERENCES events (id),
      voucher_pack_id INTEGER REFERENCES voucher_packs (id),
      customer_membership_id INTEGER REFERENCES customer_memberships (id),
      reservation_id INTEGER REFERENCES reservations (id),
      customer_event_voucher_id INTEGER REFERENCES customer_event_vouchers (id),
      UNIQUE (invoice_id, position)
    )`,
    `CREATE INDEX invoice_line_items_membership ON invoice_line_items (customer_membership_id)
      WHERE customer_membership_id IS NOT NULL`,
    `CREATE TABLE payments (
      id INTEGER PRIMARY KEY,
      invoice_id INTEGER NOT NULL REFERENCES invoices (id),
      status TEXT NOT NULL CHECK (status IN ('PEN', 'PRO', 'COM', 'FAI', 'PRF', 'REF', 'CAN')),
      payment_type TEXT NOT NULL,
      payment_method_type TEXT NOT NULL DEFAULT 'NA',
      amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
      amount_refunded_cents INTEGER NOT NULL DEFAULT 0 CHECK (amount_refunded_cents >= 0),
      processor_fee_cents INTEGER NOT NULL DEFAULT 0 CHECK (processor_fee_cents >= 0),
      failure_message TEXT NOT NULL DEFAULT '',
      credit_id INTEGER REFERENCES customer_credits (id),
      voucher_id INTEGER REFERENCES customer_event_vouchers (id),
      credit_card_last4 TEXT NOT NULL DEFAULT '',
      credit_card_brand TEXT NOT NULL DEFAULT '',
      bank_account_last4 TEXT NOT NULL DEFAULT '',
      bank_account_bank_name TEXT NOT NULL DEFAULT '',
      processor_a_payment_intent_id TEXT NOT NULL DEFAULT '',
      processor_b_external_transaction_id TEXT NOT NULL DEFAULT '',
      processor_b_unique_transaction_id TEXT NOT NULL DEFAULT '',
      processor_c_payment_link_name TEXT NOT NULL DEFAULT '',
      processor_c_payment_link_id TEXT NOT NULL DEFAULT '',
      processor_c_payment_id TEXT NOT NULL DEFAULT '',
      gift_card_number TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX payments_created ON payments (created_at, id)`,
    `CREATE INDEX payments_invoice ON payments (invoice_id)`,
    `CREATE TABLE refunds (
      id INTEGER PRIMARY KEY,
      payment_id INTEGER NOT NULL REFERENCES payments (id),
      amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
      processor_fee_cents INTEGER NOT NULL DEFAULT 0 CHECK (processor_fee_cents >= 0),
      reason TEXT NOT NULL DEFAULT '',
      staff_user_id INTEGER REFERENCES staff_users (id),
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX refunds_payment ON refunds (payment_id)`,
    `CREATE INDEX refunds_created ON refunds (created_at, id)`,
    `CREATE TABLE gifts (
      id INTEGER PRIMARY KEY,
      code TEXT NOT NULL UNIQUE,
      invoice_line_item_id INTEGER NOT NULL UNIQUE REFERENCES invoice_line_items (id),
      membership_type_id INTEGER REFERENCES membership_types (id),
      entry_pass_type_id INTEGER REFERENCES entry_pass_types (id),
      voucher_pack_id INTEGER REFERENCES voucher_packs (id),
      purchaser_id INTEGER REFERENCES customers (id),
      redeemed_by_id INTEGER REFERENCES customers (id),
      redeemed_at TEXT,
      created_at TEXT NOT NULL,
      CHECK ((membership_type_id IS NOT NULL) + (entry_pass_type_id IS NOT NULL) + (voucher_pack_id IS NOT NULL) = 1)
    )`,
    `CREATE INDEX customer_entry_passes_invoice ON customer_entry_passes (invoice_id) WHERE invoice_id IS NOT NULL`,
  ])
}
