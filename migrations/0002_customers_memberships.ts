import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// Customers and everything staff manage about them: sub-records, products (membership types,
// add-ons, entry pass types), holdings (memberships, members, entry passes), events and reservations.
// Money is integer cents; the API shows decimal strings (payments, member rows) or numbers (credits).
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE customers (
      id INTEGER PRIMARY KEY,
      first_name TEXT NOT NULL,
      last_name TEXT NOT NULL,
      preferred_name TEXT NOT NULL DEFAULT '',
      email TEXT,
      telephone TEXT NOT NULL DEFAULT '',
      birthday TEXT NOT NULL,
      barcode TEXT UNIQUE,
      is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
      home_location_id INTEGER REFERENCES gyms (id),
      address_street_1 TEXT NOT NULL DEFAULT '',
      address_street_2 TEXT NOT NULL DEFAULT '',
      address_city TEXT NOT NULL DEFAULT '',
      address_state TEXT NOT NULL DEFAULT '',
      address_postcode TEXT NOT NULL DEFAULT '',
      address_country TEXT NOT NULL DEFAULT '',
      profile_image_url TEXT NOT NULL DEFAULT '',
      first_check_in_timestamp TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX customers_name ON customers (last_name, first_name)`,
    `CREATE INDEX customers_home_location ON customers (home_location_id)`,
    `CREATE TABLE customer_alerts (
      id INTEGER PRIMARY KEY,
      customer_id INTEGER NOT NULL REFERENCES customers (id),
      alert_text TEXT NOT NULL,
      color_hex TEXT NOT NULL DEFAULT 'FF0000',
      prevents_check_in INTEGER NOT NULL DEFAULT 0 CHECK (prevents_check_in IN (0, 1)),
      is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
      created_date TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX customer_alerts_customer ON customer_alerts (customer_id)`,
    `CREATE TABLE customer_credits (
      id INTEGER PRIMARY KEY,
      customer_id INTEGER NOT NULL REFERENCES customers (id),
      amount_total_cents INTEGER NOT NULL CHECK (amount_total_cents > 0),
      amount_remaining_cents INTEGER NOT NULL,
      expiry_date TEXT,
      is_removed INTEGER NOT NULL DEFAULT 0 CHECK (is_removed IN (0, 1)),
      created_by_id INTEGER REFERENCES staff_users (id),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX customer_credits_customer ON customer_credits (customer_id)`,
    `CREATE TABLE customer_emergency_contacts (
      id INTEGER PRIMARY KEY,
      customer_id INTEGER NOT NULL REFERENCES customers (id),
      first_name TEXT NOT NULL,
      last_name TEXT NOT NULL,
      telephone TEXT NOT NULL,
      email TEXT NOT NULL DEFAULT '',
      relation TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX customer_emergency_contacts_customer ON customer_emergency_contacts (customer_id)`,
    `CREATE TABLE customer_medical_notes (
      id INTEGER PRIMARY KEY,
      customer_id INTEGER NOT NULL REFERENCES customers (id),
      medical_notes TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX customer_medical_notes_customer ON customer_medical_notes (customer_id)`,
    `CREATE TABLE customer_relations (
      id INTEGER PRIMARY KEY,
      customer_id INTEGER NOT NULL REFERENCES customers (id),
      related_customer_id INTEGER NOT NULL REFERENCES customers (id),
      relation TEXT NOT NULL CHECK (relation IN ('SPO', 'PRT', 'PRE', 'CHI', 'GUA', 'WAR', 'SIB', 'OTH')),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (customer_id, related_customer_id),
      CHECK (customer_id <> related_customer_id)
    )`,
    `CREATE TABLE customer_documents (
      id INTEGER PRIMARY KEY,
      customer_id INTEGER NOT NULL REFERENCES customers (id),
      name TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('waiver', 'other')),
      expiration_date TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX customer_documents_customer ON customer_documents (customer_id, kind, expiration_date)`,
    // Kept in the database, not beside it, so the one file is the whole backup.
    `CREATE TABLE customer_document_files (
      document_id INTEGER PRIMARY KEY REFERENCES customer_documents (id),
      content_type TEXT NOT NULL,
      content BLOB NOT NULL
    )`,
    `CREATE TABLE customer_event_vouchers (
      id INTEGER PRIMARY KEY,
      customer_id INTEGER NOT NULL REFERENCES customers (id),
      event_type_id INTEGER NOT NULL REFERENCES event_types (id),
      number_of_uses_total INTEGER NOT NULL CHECK (number_of_uses_total >= 1),
      number_of_uses_remaining INTEGER NOT NULL,
      expiry_date TEXT,
      is_removed INTEGER NOT NULL DEFAULT 0 CHECK (is_removed IN (0, 1)),
      created_by_id INTEGER REFERENCES staff_users (id),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX customer_event_vouchers_customer ON customer_event_vouchers (customer_id)`,
    `CREATE TABLE membership_types (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      status TEXT NOT NULL CHECK (status IN ('DRA', 'ACT', 'RET')),
      purchase_type TEXT NOT NULL CHECK (purchase_type IN ('REC', 'PRE', 'BEN')),
      interval TEXT NOT NULL DEFAULT '' CHECK (interval IN ('', 'WEE', 'BWK', 'FWK', 'MON', 'QUA', 'HYR', 'YRL')),
      price_cents INTEGER NOT NULL DEFAULT 0,
      is_group INTEGER NOT NULL DEFAULT 0 CHECK (is_group IN (0, 1)),
      is_youth_programming INTEGER NOT NULL DEFAULT 0 CHECK (is_youth_programming IN (0, 1)),
      duration_years INTEGER,
      duration_months INTEGER,
      duration_days INTEGER,
      location_id INTEGER REFERENCES gyms (id),
      access_hours TEXT,
      guest_passes_per_month INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE TABLE add_ons (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      fee_cents INTEGER NOT NULL DEFAULT 0,
      is_visible INTEGER NOT NULL DEFAULT 1 CHECK (is_visible IN (0, 1)),
      icon_color_hex TEXT NOT NULL DEFAULT '',
      icon_initials TEXT NOT NULL DEFAULT '',
      revenue_account_codes TEXT NOT NULL DEFAULT '{}',
      tax_rate_id INTEGER,
      tax_rate_per_location TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE TABLE customer_memberships (
      id INTEGER PRIMARY KEY,
      membership_type_id INTEGER NOT NULL REFERENCES membership_types (id),
      owner_id INTEGER NOT NULL REFERENCES customers (id),
      status TEXT NOT NULL CHECK (status IN ('ACT', 'IPP', 'PPR', 'FRZ', 'FPR', 'PAF', 'FPF', 'PAY', 'IPC', 'CAN', 'END', 'DEN')),
      start_date TEXT NOT NULL,
      end_date TEXT,
      billing_location_id INTEGER REFERENCES gyms (id),
      has_payment_method INTEGER NOT NULL DEFAULT 0 CHECK (has_payment_method IN (0, 1)),
      is_pending_staff_approval INTEGER NOT NULL DEFAULT 0 CHECK (is_pending_staff_approval IN (0, 1)),
      billing_amount_cents INTEGER NOT NULL DEFAULT 0,
      discount_association_id INTEGER,
      referring_customer_id INTEGER REFERENCES customers (id),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX customer_memberships_owner ON customer_memberships (owner_id)`,
    `CREATE INDEX customer_memberships_status ON customer_memberships (status, membership_type_id)`,
    // Every status change, with the organization-local day it happened: membership counts, churn
    // and status-change metrics read this history. member_id is set when one member was frozen.
    `CREATE TABLE membership_status_changes (
      id INTEGER PRIMARY KEY,
      customer_membership_id INTEGER NOT NULL REFERENCES customer_memberships (id),
      member_customer_id INTEGER REFERENCES customers (id),
      from_status TEXT,
      to_status TEXT NOT NULL,
      changed_on TEXT NOT NULL,
      changed_by_id INTEGER REFERENCES staff_users (id),
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX membership_status_changes_membership ON membership_status_changes (customer_membership_id, id)`,
    `CREATE INDEX membership_status_changes_day ON membership_status_changes (changed_on)`,
    `CREATE TABLE membership_members (
      id INTEGER PRIMARY KEY,
      customer_membership_id INTEGER NOT NULL REFERENCES customer_memberships (id),
      customer_id INTEGER NOT NULL REFERENCES customers (id),
      is_frozen INTEGER NOT NULL DEFAULT 0 CHECK (is_frozen IN (0, 1)),
      UNIQUE (customer_membership_id, customer_id)
    )`,
    `CREATE INDEX membership_members_customer ON membership_members (customer_id)`,
    `CREATE TABLE membership_member_add_ons (
      membership_member_id INTEGER NOT NULL REFERENCES membership_members (id),
      add_on_id TEXT NOT NULL REFERENCES add_ons (id),
      PRIMARY KEY (membership_member_id, add_on_id)
    )`,
    `CREATE TABLE entry_pass_types (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('DRA', 'ACT', 'RET')),
      number_of_entries INTEGER NOT NULL CHECK (number_of_entries >= 1),
      valid_days INTEGER,
      price_cents INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE TABLE customer_entry_passes (
      id INTEGER PRIMARY KEY,
      entry_pass_type_id INTEGER NOT NULL REFERENCES entry_pass_types (id),
      owner_id INTEGER NOT NULL REFERENCES customers (id),
      purchaser_id INTEGER REFERENCES customers (id),
      entries_total INTEGER NOT NULL,
      entries_remaining INTEGER NOT NULL CHECK (entries_remaining >= 0),
      expiry_date TEXT,
      acquired_via TEXT NOT NULL DEFAULT 'manual' CHECK (acquired_via IN ('purchase', 'gift', 'code', 'manual')),
      invoice_id INTEGER,
      created_by_id INTEGER REFERENCES staff_users (id),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX customer_entry_passes_owner ON customer_entry_passes (owner_id, expiry_date)`,
    `CREATE TABLE events (
      id INTEGER PRIMARY KEY,
      event_type_id INTEGER NOT NULL REFERENCES event_types (id),
      gym_id INTEGER NOT NULL REFERENCES gyms (id),
      name TEXT NOT NULL DEFAULT '',
      start_at TEXT NOT NULL,
      end_at TEXT NOT NULL,
      includes_entry INTEGER NOT NULL DEFAULT 1 CHECK (includes_entry IN (0, 1)),
      is_cancelled INTEGER NOT NULL DEFAULT 0 CHECK (is_cancelled IN (0, 1)),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      CHECK (end_at > start_at)
    )`,
    `CREATE INDEX events_gym_time ON events (gym_id, start_at, end_at)`,
    `CREATE TABLE reservations (
      id INTEGER PRIMARY KEY,
      event_id INTEGER NOT NULL REFERENCES events (id),
      customer_id INTEGER NOT NULL REFERENCES customers (id),
      includes_entry INTEGER NOT NULL DEFAULT 1 CHECK (includes_entry IN (0, 1)),
      is_cancelled INTEGER NOT NULL DEFAULT 0 CHECK (is_cancelled IN (0, 1)),
      checked_in INTEGER NOT NULL DEFAULT 0 CHECK (checked_in IN (0, 1)),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX reservations_customer ON reservations (customer_id, event_id)`,
    `CREATE INDEX reservations_event ON reservations (event_id)`,
  ])
}
