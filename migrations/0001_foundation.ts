import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// Booleans are INTEGER 0/1 with CHECKs; timestamps are ISO-8601 UTC strings ending in Z (neither
// SQLite driver binds a JS Date); dates are YYYY-MM-DD.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE organization (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      name TEXT NOT NULL,
      time_zone TEXT NOT NULL,
      currency TEXT NOT NULL DEFAULT 'USD',
      waiver_required INTEGER NOT NULL DEFAULT 1 CHECK (waiver_required IN (0, 1)),
      milestones TEXT NOT NULL DEFAULT '[1,10,25,50,100,250,500,1000]',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE TABLE gyms (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      hide_setter INTEGER NOT NULL DEFAULT 0 CHECK (hide_setter IN (0, 1)),
      time_zone TEXT NOT NULL,
      scheduler_url_path TEXT NOT NULL DEFAULT '',
      scheduler_landing_page_text TEXT NOT NULL DEFAULT '',
      scheduler_first_day_of_week TEXT NOT NULL DEFAULT 'SUN' CHECK (scheduler_first_day_of_week IN ('SUN', 'MON')),
      capacity INTEGER,
      combine_same_day_check_ins INTEGER NOT NULL DEFAULT 0 CHECK (combine_same_day_check_ins IN (0, 1)),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE TABLE staff_users (
      id INTEGER PRIMARY KEY,
      email TEXT NOT NULL UNIQUE COLLATE NOCASE,
      first_name TEXT NOT NULL DEFAULT '',
      last_name TEXT NOT NULL DEFAULT '',
      default_gym_id INTEGER NOT NULL REFERENCES gyms (id),
      date_joined TEXT NOT NULL,
      is_active INTEGER NOT NULL CHECK (is_active IN (0, 1)),
      can_manage_events INTEGER NOT NULL CHECK (can_manage_events IN (0, 1)),
      can_manage_members INTEGER NOT NULL CHECK (can_manage_members IN (0, 1)),
      can_manage_customer_proficiencies INTEGER NOT NULL CHECK (can_manage_customer_proficiencies IN (0, 1)),
      can_export_customers INTEGER NOT NULL CHECK (can_export_customers IN (0, 1)),
      can_access_reports INTEGER NOT NULL CHECK (can_access_reports IN (0, 1)),
      is_organization_admin INTEGER NOT NULL CHECK (is_organization_admin IN (0, 1)),
      pin_mode_required INTEGER NOT NULL DEFAULT 0 CHECK (pin_mode_required IN (0, 1)),
      password_hash TEXT,
      pin_hash TEXT
    )`,
    `CREATE INDEX staff_users_default_gym ON staff_users (default_gym_id)`,
    `CREATE TABLE auth_tokens (
      id INTEGER PRIMARY KEY,
      key_hash TEXT NOT NULL UNIQUE,
      user_id INTEGER NOT NULL REFERENCES staff_users (id),
      created_at TEXT NOT NULL,
      expires_at TEXT
    )`,
    `CREATE INDEX auth_tokens_user ON auth_tokens (user_id)`,
    `CREATE TABLE event_types (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      gym_id INTEGER NOT NULL REFERENCES gyms (id),
      status TEXT NOT NULL CHECK (status IN ('DRA', 'ACT', 'RET')),
      capacity INTEGER CHECK (capacity BETWEEN 1 AND 1000),
      late_booking_window_minutes INTEGER NOT NULL DEFAULT 15 CHECK (late_booking_window_minutes < 60),
      is_listed INTEGER NOT NULL DEFAULT 1 CHECK (is_listed IN (0, 1)),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX event_types_gym ON event_types (gym_id)`,
  ])
}
