import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// The daily membership rollup: per organization-local day, how many memberships, distinct member
// customers and member add-ons there were, by what they hold. The membership_count metric reads
// these few rows per day instead of replaying years of status history.
//
// A holding is what a membership stands for on a day: its type, billing location, discount
// association (0 for none, so keys stay plain integers) and status class. membership_day_counts
// counts memberships per holding; add_on_day_counts counts the add-ons of members per holding (the
// member's own status class) and add-on name. A customer holding several memberships counts once
// as a member under any filter, so members are counted per holding set (every holding one customer
// has on a day): the members matching a filter are the sum over the sets with a matching holding.
//
// membership_rollup_state says how far the rollup has been rolled (rolled_through) and the
// earliest day whose rows no longer match the history (dirty_from). Triggers keep dirty_from on
// every write to what the rollup reads, so no write path has to remember it: a status change marks
// its own day (it may be back-dated); any other change marks the last day rolled, since the rollup
// records billing locations, members and add-ons as they were when each day was rolled.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE membership_holdings (
      id INTEGER PRIMARY KEY,
      membership_type_id INTEGER NOT NULL,
      billing_location_id INTEGER NOT NULL,
      discount_association_id INTEGER NOT NULL,
      status_class TEXT NOT NULL CHECK (status_class IN ('active', 'frozen', 'payment_failed')),
      UNIQUE (membership_type_id, billing_location_id, discount_association_id, status_class)
    )`,
    `CREATE TABLE membership_day_counts (
      day TEXT NOT NULL,
      holding_id INTEGER NOT NULL,
      memberships INTEGER NOT NULL,
      PRIMARY KEY (day, holding_id)
    ) WITHOUT ROWID`,
    `CREATE TABLE member_holding_sets (
      id INTEGER PRIMARY KEY,
      holding_ids TEXT NOT NULL UNIQUE
    )`,
    `CREATE TABLE member_holding_set_items (
      set_id INTEGER NOT NULL,
      holding_id INTEGER NOT NULL,
      PRIMARY KEY (holding_id, set_id)
    ) WITHOUT ROWID`,
    `CREATE TABLE member_day_counts (
      day TEXT NOT NULL,
      set_id INTEGER NOT NULL,
      members INTEGER NOT NULL,
      PRIMARY KEY (day, set_id)
    ) WITHOUT ROWID`,
    `CREATE TABLE add_on_day_counts (
      day TEXT NOT NULL,
      holding_id INTEGER NOT NULL,
      add_on_name TEXT NOT NULL,
      add_ons INTEGER NOT NULL,
      PRIMARY KEY (day, holding_id, add_on_name)
    ) WITHOUT ROWID`,
    // A membership's (or one member's) last status change on or before a day, found by one seek.
    `CREATE INDEX membership_status_changes_standing
      ON membership_status_changes (customer_membership_id, member_customer_id, changed_on, id)`,
    `CREATE TABLE membership_rollup_state (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      rolled_through TEXT,
      dirty_from TEXT
    )`,
    `INSERT INTO membership_rollup_state (id, rolled_through, dirty_from) VALUES (1, NULL, NULL)`,
    // Before the first build nothing is marked: it reads everything. A mark after rolled_through
    // changes nothing the next catch-up rolls, but tells one under way that its spans are stale.
    ...[
      ['membership_status_changes_rollup_insert', 'INSERT ON membership_status_changes', 'new.changed_on'],
      ['membership_status_changes_rollup_delete', 'DELETE ON membership_status_changes', 'old.changed_on'],
      [
        'membership_status_changes_rollup_update',
        'UPDATE ON membership_status_changes',
        'min(old.changed_on, new.changed_on)',
      ],
      [
        'customer_memberships_rollup_update',
        'UPDATE OF membership_type_id, billing_location_id, discount_association_id ON customer_memberships',
        'rolled_through',
      ],
      ['customer_memberships_rollup_delete', 'DELETE ON customer_memberships', 'rolled_through'],
      ['membership_members_rollup_insert', 'INSERT ON membership_members', 'rolled_through'],
      ['membership_members_rollup_delete', 'DELETE ON membership_members', 'rolled_through'],
      [
        'membership_members_rollup_update',
        'UPDATE OF customer_membership_id, customer_id ON membership_members',
        'rolled_through',
      ],
      ['membership_member_add_ons_rollup_insert', 'INSERT ON membership_member_add_ons', 'rolled_through'],
      ['membership_member_add_ons_rollup_delete', 'DELETE ON membership_member_add_ons', 'rolled_through'],
      ['membership_member_add_ons_rollup_update', 'UPDATE ON membership_member_add_ons', 'rolled_through'],
      ['add_ons_rollup_update', 'UPDATE OF name ON add_ons', 'rolled_through'],
    ].map(
      ([name, event, day]) => `CREATE TRIGGER ${name} AFTER ${event} BEGIN
        UPDATE membership_rollup_state SET dirty_from = min(coalesce(dirty_from, ${day}), ${day})
          WHERE rolled_through IS NOT NULL;
      END`,
    ),
  ])
}
