import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// Revenue by line, kept as the payments and refunds that make it happen: one revenue_entries row
// per line of an invoice for each of its paid payments (COM, PRF, REF) and for each refund of one,
// at the payment's or the refund's instant. A row holds the line's share of what moved: line net x
// amount / invoice total (negative for a refund), the pre-tax part of the money, and its share of
// the processor fee, line total x fee / invoice total, so a payment's lines carry its whole fee.
// With the line's product, location and payment type beside it, a revenue series over years of
// sales reads one stretch of this table per bucket instead of joining every payment to its
// invoice's lines and adding up the invoice's total again.
//
// payment_line_shares says once what a paid payment's lines are: the product of a line that names
// it only through what it sold (a membership line's type through its customer membership, a
// booking's event type through its event) is resolved here. Triggers write the rows when a
// payment is recorded paid, becomes paid or stops being paid, and when a refund is recorded; an
// invoice's lines are written before its payments and never change after.
//
// The product sold counts read what was acquired by when it was created, and find the sale of a
// booking or a voucher from its line and the gift a product was granted from, so those are
// indexed too.
const PAID = `('COM', 'PRF', 'REF')`

const paymentEntries = (where: string) => `INSERT INTO revenue_entries (at, payment_id, refund_id, line_id,
    purchase_type, product_id, gym_id, payment_type, amount, fee)
  SELECT created_at, payment_id, 0, line_id, purchase_type, product_id, gym_id, payment_type,
    net_cents * CAST(amount_cents AS REAL) / invoice_total,
    line_total * CAST(processor_fee_cents AS REAL) / invoice_total
  FROM payment_line_shares WHERE ${where} AND invoice_total > 0`

const refundEntries = (
  refund: string,
  from: string,
  where: string,
) => `INSERT INTO revenue_entries (at, payment_id,
    refund_id, line_id, purchase_type, product_id, gym_id, payment_type, amount, fee)
  SELECT ${refund}.created_at, s.payment_id, ${refund}.id, s.line_id, s.purchase_type, s.product_id,
    s.gym_id, s.payment_type,
    -s.net_cents * CAST(${refund}.amount_cents AS REAL) / s.invoice_total,
    s.line_total * CAST(${refund}.processor_fee_cents AS REAL) / s.invoice_total
  FROM ${from} WHERE ${where} AND s.invoice_total > 0`

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE VIEW payment_line_shares AS
      SELECT p.id AS payment_id, p.created_at, p.status, p.payment_type, p.amount_cents,
        p.processor_fee_cents, l.id AS line_id, l.purchase_type, i.gym_id,
        CASE
          WHEN l.purchase_type IN ('MIN', 'MRE', 'MFA', 'MFR', 'MAC') THEN coalesce(l.membership_type_id,
            (SELECT membership_type_id FROM customer_memberships WHERE id = l.customer_membership_id))
          WHEN l.purchase_type = 'EPA' THEN l.entry_pass_type_id
          WHEN l.purchase_type = 'BOO' THEN (SELECT event_type_id FROM events WHERE id = l.event_id)
          WHEN l.purchase_type = 'VPO' THEN l.voucher_pack_id
        END AS product_id,
        l.net_cents, l.net_cents + l.tax_cents AS line_total,
        (SELECT sum(net_cents + tax_cents) FROM invoice_line_items WHERE invoice_id = p.invoice_id)
          AS invoice_total
      FROM payments p
      JOIN invoices i ON i.id = p.invoice_id
      JOIN invoice_line_items l ON l.invoice_id = p.invoice_id`,
    `CREATE TABLE revenue_entries (
      at TEXT NOT NULL,
      payment_id INTEGER NOT NULL,
      refund_id INTEGER NOT NULL,
      line_id INTEGER NOT NULL,
      purchase_type TEXT NOT NULL,
      product_id INTEGER,
      gym_id INTEGER NOT NULL,
      payment_type TEXT NOT NULL,
      amount REAL NOT NULL,
      fee REAL NOT NULL,
      PRIMARY KEY (at, payment_id, refund_id, line_id)
    ) WITHOUT ROWID`,
    paymentEntries(`status IN ${PAID}`),
    refundEntries('r', 'refunds r JOIN payment_line_shares AS s ON s.payment_id = r.payment_id', 'TRUE'),
    `CREATE TRIGGER revenue_entries_payment AFTER INSERT ON payments
      WHEN new.status IN ${PAID} BEGIN
      ${paymentEntries('payment_id = new.id')};
    END`,
    `CREATE TRIGGER revenue_entries_paid AFTER UPDATE OF status ON payments
      WHEN new.status IN ${PAID} AND old.status NOT IN ${PAID} BEGIN
      ${paymentEntries('payment_id = new.id')};
    END`,
    `CREATE TRIGGER revenue_entries_unpaid AFTER UPDATE OF status ON payments
      WHEN old.status IN ${PAID} AND new.status NOT IN ${PAID} BEGIN
      DELETE FROM revenue_entries WHERE at = old.created_at AND payment_id = old.id AND refund_id = 0;
    END`,
    `CREATE TRIGGER revenue_entries_refund AFTER INSERT ON refunds BEGIN
      ${refundEntries('new', 'payment_line_shares AS s', 's.payment_id = new.payment_id')};
    END`,
    `CREATE INDEX invoice_line_items_reservation ON invoice_line_items (reservation_id)
      WHERE reservation_id IS NOT NULL`,
    `CREATE INDEX invoice_line_items_voucher ON invoice_line_items (customer_event_voucher_id)
      WHERE customer_event_voucher_id IS NOT NULL`,
    `CREATE INDEX customer_memberships_created ON customer_memberships (created_at)`,
    `CREATE INDEX customer_entry_passes_created ON customer_entry_passes (created_at)`,
    `CREATE INDEX reservations_created ON reservations (created_at)`,
    `CREATE INDEX customer_event_vouchers_created ON customer_event_vouchers (created_at)`,
    `CREATE INDEX gifts_created ON gifts (created_at)`,
    `CREATE INDEX gifts_entry_pass ON gifts (customer_entry_pass_id) WHERE customer_entry_pass_id IS NOT NULL`,
    `CREATE INDEX gifts_voucher ON gifts (customer_event_voucher_id) WHERE customer_event_voucher_id IS NOT NULL`,
    `CREATE INDEX gifts_membership ON gifts (customer_membership_id) WHERE customer_membership_id IS NOT NULL`,
  ])
}
