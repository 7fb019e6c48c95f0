import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// What the gym sells and at what price: tax rates, discounts and voucher packs, and each product's
// price, tax rate and revenue account code. A tax rate is kept in basis points (0.0825 is 825) and
// a percentage off in hundredths of a percent (12.50% is 1250), so both are stored exactly.
//
// No tax rate existed before this migration, so any tax_rate_id an add-on held named nothing: those
// are cleared rather than left pointing at whichever rate later takes that id.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE tax_rates (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      rate_basis_points INTEGER NOT NULL CHECK (rate_basis_points >= 0 AND rate_basis_points < 10000),
      is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE TABLE discounts (
      id INTEGER PRIMARY KEY,
      code TEXT NOT NULL UNIQUE COLLATE NOCASE,
      name TEXT NOT NULL DEFAULT '',
      display_name TEXT NOT NULL DEFAULT '',
      association_id INTEGER,
      percent_off_hundredths INTEGER CHECK (percent_off_hundredths > 0 AND percent_off_hundredths <= 10000),
      amount_off_cents INTEGER CHECK (amount_off_cents > 0),
      is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      CHECK ((percent_off_hundredths IS NULL) <> (amount_off_cents IS NULL))
    )`,
    `CREATE TABLE voucher_packs (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('DRA', 'ACT', 'RET')),
      event_type_id INTEGER NOT NULL REFERENCES event_types (id),
      number_of_uses INTEGER NOT NULL CHECK (number_of_uses >= 1),
      valid_days INTEGER,
      price_cents INTEGER NOT NULL DEFAULT 0,
      tax_rate_id INTEGER REFERENCES tax_rates (id),
      revenue_account_code TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `ALTER TABLE membership_types ADD COLUMN tax_rate_id INTEGER REFERENCES tax_rates (id)`,
    `ALTER TABLE membership_types ADD COLUMN revenue_account_code TEXT NOT NULL DEFAULT ''`,
    `ALTER TABLE entry_pass_types ADD COLUMN tax_rate_id INTEGER REFERENCES tax_rates (id)`,
    `ALTER TABLE entry_pass_types ADD COLUMN revenue_account_code TEXT NOT NULL DEFAULT ''`,
    `ALTER TABLE events ADD COLUMN price_cents INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE events ADD COLUMN tax_rate_id INTEGER REFERENCES tax_rates (id)`,
    `ALTER TABLE events ADD COLUMN revenue_account_code TEXT NOT NULL DEFAULT ''`,
    `UPDATE add_ons SET tax_rate_id = NULL WHERE tax_rate_id IS NOT NULL`,
  ])
}
