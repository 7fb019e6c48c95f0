import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// Classes that fill up (issue 27, design classes.md): capacity, waitlists, questions, schedules.
//
// - event_types gain the per-day booking limit, the waitlist's promotion cutoff and how far ahead
//   schedules keep events made.
// - events gain their own capacity (null: only the type's facility capacity limits them) and the
//   schedule and local date they were made for (null for one made by hand); a schedule makes at
//   most one event a date.
// - reservations keep the answers given at booking (JSON: [{"question_id": 3, "answer": "Yes"}])
//   and the event voucher a use was taken from, to give it back on a timely cancellation.
// - waitlist entries: WAI, PRO (with the reservation it became), CAN. "Expired" is not stored: an
//   entry still waiting once its event has started reads EXP, whatever the clock says now.
// - questions, schedules and schedule exceptions of an event type.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE event_types ADD COLUMN max_reservations_per_day_for_customer INTEGER
      CHECK (max_reservations_per_day_for_customer >= 1)`,
    `ALTER TABLE event_types ADD COLUMN waitlist_promotion_cutoff_hours INTEGER NOT NULL DEFAULT 2
      CHECK (waitlist_promotion_cutoff_hours BETWEEN 0 AND 720)`,
    `ALTER TABLE event_types ADD COLUMN booking_horizon_days INTEGER NOT NULL DEFAULT 28
      CHECK (booking_horizon_days BETWEEN 1 AND 366)`,

    `CREATE TABLE event_schedules (
      id INTEGER PRIMARY KEY,
      event_type_id INTEGER NOT NULL REFERENCES event_types (id),
      gym_id INTEGER NOT NULL REFERENCES gyms (id),
      weekdays TEXT NOT NULL,
      start_time TEXT NOT NULL,
      duration_minutes INTEGER NOT NULL CHECK (duration_minutes BETWEEN 1 AND 1440),
      start_date TEXT NOT NULL,
      end_date TEXT,
      capacity INTEGER CHECK (capacity BETWEEN 0 AND 1000),
      price_cents INTEGER NOT NULL DEFAULT 0 CHECK (price_cents >= 0),
      is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      CHECK (end_date IS NULL OR end_date >= start_date)
    )`,
    `CREATE INDEX event_schedules_type ON event_schedules (event_type_id)`,

    `CREATE TABLE event_schedule_exceptions (
      id INTEGER PRIMARY KEY,
      schedule_id INTEGER NOT NULL REFERENCES event_schedules (id),
      date TEXT NOT NULL,
      reason TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE UNIQUE INDEX event_schedule_exceptions_date ON event_schedule_exceptions (schedule_id, date)`,

    `ALTER TABLE events ADD COLUMN capacity INTEGER CHECK (capacity BETWEEN 0 AND 1000)`,
    `ALTER TABLE events ADD COLUMN schedule_id INTEGER REFERENCES event_schedules (id)`,
    `ALTER TABLE events ADD COLUMN schedule_date TEXT`,
    `CREATE UNIQUE INDEX events_schedule_date ON events (schedule_id, schedule_date)
      WHERE schedule_id IS NOT NULL`,
    `CREATE INDEX events_type_time ON events (event_type_id, start_at, end_at)`,

    `ALTER TABLE reservations ADD COLUMN answers TEXT NOT NULL DEFAULT '[]'`,
    `ALTER TABLE reservations ADD COLUMN event_voucher_id INTEGER REFERENCES customer_event_vouchers (id)`,

    `CREATE TABLE event_questions (
      id INTEGER PRIMARY KEY,
      event_type_id INTEGER NOT NULL REFERENCES event_types (id),
      text TEXT NOT NULL,
      kind TEXT NOT NULL DEFAULT 'TXT' CHECK (kind IN ('TXT', 'BOO', 'CHO')),
      choices TEXT NOT NULL DEFAULT '[]',
      is_required INTEGER NOT NULL DEFAULT 0 CHECK (is_required IN (0, 1)),
      sort_order INTEGER NOT NULL DEFAULT 0,
      is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX event_questions_type ON event_questions (event_type_id, sort_order)`,

    `CREATE TABLE waitlist_entries (
      id INTEGER PRIMARY KEY,
      event_id INTEGER NOT NULL REFERENCES events (id),
      customer_id INTEGER NOT NULL REFERENCES customers (id),
      answers TEXT NOT NULL DEFAULT '[]',
      status TEXT NOT NULL DEFAULT 'WAI' CHECK (status IN ('WAI', 'PRO', 'CAN')),
      reservation_id INTEGER REFERENCES reservations (id),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX waitlist_entries_event ON waitlist_entries (event_id, status, created_at)`,
    `CREATE INDEX waitlist_entries_customer ON waitlist_entries (customer_id)`,
  ])
}
