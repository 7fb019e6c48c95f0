import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// Route setting (issue 28, design walls.md): a gym's grades, sections and climbs.
//
// - grades: a gym's scale per discipline (BOU boulder, ROP rope), ordered by rank; a name is
//   unique within the gym and discipline, whatever its case ("v4" is "V4").
// - sections: a gym's walls, reset one at a time; last_reset_date is written by a reset.
// - climbs: what is up and what was; a stripped climb keeps its row with stripped_date, for
//   history (days up, who set what). Up means stripped_date IS NULL.
// - climb_setters: the staff users who set a climb, in the order given.
// - staff_users gain can_manage_climbs: who may write the three (admins pass).
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE staff_users ADD COLUMN can_manage_climbs INTEGER NOT NULL DEFAULT 0
      CHECK (can_manage_climbs IN (0, 1))`,

    `CREATE TABLE grades (
      id INTEGER PRIMARY KEY,
      gym_id INTEGER NOT NULL REFERENCES gyms (id),
      name TEXT NOT NULL COLLATE NOCASE,
      system TEXT NOT NULL CHECK (system IN ('V', 'YDS', 'FONT', 'FRENCH', 'CIRCUIT', 'OTHER')),
      discipline TEXT NOT NULL CHECK (discipline IN ('BOU', 'ROP')),
      rank INTEGER NOT NULL,
      color_hex TEXT,
      target_count INTEGER CHECK (target_count >= 0),
      is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE UNIQUE INDEX grades_name ON grades (gym_id, discipline, name)`,
    `CREATE INDEX grades_rank ON grades (gym_id, discipline, rank)`,

    `CREATE TABLE sections (
      id INTEGER PRIMARY KEY,
      gym_id INTEGER NOT NULL REFERENCES gyms (id),
      name TEXT NOT NULL COLLATE NOCASE,
      discipline TEXT NOT NULL CHECK (discipline IN ('BOU', 'ROP', 'MIX')),
      sort_order INTEGER NOT NULL DEFAULT 0,
      description TEXT NOT NULL DEFAULT '',
      is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
      last_reset_date TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE UNIQUE INDEX sections_name ON sections (gym_id, name)`,

    `CREATE TABLE climbs (
      id INTEGER PRIMARY KEY,
      gym_id INTEGER NOT NULL REFERENCES gyms (id),
      section_id INTEGER NOT NULL REFERENCES sections (id),
      grade_id INTEGER NOT NULL REFERENCES grades (id),
      discipline TEXT NOT NULL CHECK (discipline IN ('BOU', 'TR', 'LEA', 'AUT')),
      name TEXT NOT NULL DEFAULT '',
      hold_color TEXT NOT NULL DEFAULT '',
      color_hex TEXT,
      set_date TEXT NOT NULL,
      planned_strip_date TEXT,
      stripped_date TEXT,
      description TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      CHECK (planned_strip_date IS NULL OR planned_strip_date >= set_date),
      CHECK (stripped_date IS NULL OR stripped_date >= set_date)
    )`,
    `CREATE INDEX climbs_gym_set ON climbs (gym_id, set_date DESC, id DESC)`,
    `CREATE INDEX climbs_section_up ON climbs (section_id, stripped_date)`,
    `CREATE INDEX climbs_grade ON climbs (grade_id, stripped_date)`,
    // What is up now, and what is due to come down: the stats read these without the history.
    `CREATE INDEX climbs_up ON climbs (gym_id, planned_strip_date) WHERE stripped_date IS NULL`,

    `CREATE TABLE climb_setters (
      climb_id INTEGER NOT NULL REFERENCES climbs (id),
      staff_user_id INTEGER NOT NULL REFERENCES staff_users (id),
      position INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (climb_id, staff_user_id)
    )`,
    `CREATE INDEX climb_setters_user ON climb_setters (staff_user_id, climb_id)`,
  ])
}
