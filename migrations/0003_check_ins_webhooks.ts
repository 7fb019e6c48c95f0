import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// The door: check-ins, and webhooks delivered through an outbox written in the check-in's own
// transaction, so a committed check-in is always delivered, across restarts and power cuts.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE check_ins (
      id INTEGER PRIMARY KEY,
      customer_id INTEGER NOT NULL REFERENCES customers (id),
      gym_id INTEGER NOT NULL REFERENCES gyms (id),
      entry_method TEXT NOT NULL CHECK (entry_method IN ('MEM', 'ENT', 'EVE', 'GUE', 'FRE', 'MIG')),
      entry_method_description TEXT NOT NULL DEFAULT '',
      customer_membership_id INTEGER REFERENCES customer_memberships (id),
      customer_entry_pass_id INTEGER REFERENCES customer_entry_passes (id),
      reservation_id INTEGER REFERENCES reservations (id),
      host_customer_id INTEGER REFERENCES customers (id),
      free_entry_reason TEXT NOT NULL DEFAULT '',
      free_entry_granting_user_id INTEGER REFERENCES staff_users (id),
      converted_from_free_entry INTEGER NOT NULL DEFAULT 0 CHECK (converted_from_free_entry IN (0, 1)),
      milestone_list TEXT NOT NULL DEFAULT '[]',
      check_in_count INTEGER,
      -- the gym-local calendar day, for one-check-in-per-day gyms and day filters
      local_date TEXT NOT NULL,
      checked_in_by_id INTEGER REFERENCES staff_users (id),
      check_out_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX check_ins_created ON check_ins (created_at)`,
    `CREATE INDEX check_ins_customer_gym ON check_ins (customer_id, gym_id, created_at)`,
    `CREATE INDEX check_ins_customer_day ON check_ins (customer_id, gym_id, local_date)`,
    `CREATE INDEX check_ins_check_out ON check_ins (check_out_at) WHERE check_out_at IS NOT NULL`,
    // The list's entry_method filter: a rare method (FRE, MIG) would otherwise walk all history.
    `CREATE INDEX check_ins_method_created ON check_ins (entry_method, created_at)`,
    // Running count per customer, so the door reads it instead of counting history.
    `ALTER TABLE customers ADD COLUMN check_in_count INTEGER NOT NULL DEFAULT 0`,
    `CREATE TABLE webhooks (
      id INTEGER PRIMARY KEY,
      event_type TEXT NOT NULL CHECK (event_type IN ('check_in')),
      webhook_url TEXT NOT NULL,
      secret TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    // The outbox: one row per webhook per event, with the exact body to send.
    // AUTOINCREMENT: an id is never reused after its webhook is deleted, so `webhook_event_id` and
    // `webhook-id` stay unique for receivers that de-duplicate on them.
    `CREATE TABLE webhook_events (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      webhook_id INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
      event_type TEXT NOT NULL,
      body TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at TEXT NOT NULL,
      delivered_at TEXT,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX webhook_events_pending ON webhook_events (status, webhook_id, id)`,
    `CREATE TABLE webhook_deliveries (
      id INTEGER PRIMARY KEY,
      webhook_event_id INTEGER NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
      attempt INTEGER NOT NULL,
      attempted_at TEXT NOT NULL,
      status_code INTEGER,
      error TEXT NOT NULL DEFAULT '',
      duration_ms INTEGER NOT NULL,
      response_body TEXT NOT NULL DEFAULT ''
    )`,
    `CREATE INDEX webhook_deliveries_event ON webhook_deliveries (webhook_event_id, id)`,
  ])
}
