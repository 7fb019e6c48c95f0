import type { Generated } from 'kysely'
import type { Flag } from './flag.ts'

/** A gym's grade (migration 0032): its scale per discipline, in rank order. */
export interface GradeTable {
  id: Generated<number>
  gym_id: number
  name: string
  system: 'V' | 'YDS' | 'FONT' | 'FRENCH' | 'CIRCUIT' | 'OTHER'
  discipline: 'BOU' | 'ROP'
  rank: number
  color_hex: string | null
  target_count: number | null
  is_active: Generated<Flag>
  created_at: string
  updated_at: string
}

/** A gym's wall, reset one at a time. */
export interface SectionTable {
  id: Generated<number>
  gym_id: number
  name: string
  discipline: 'BOU' | 'ROP' | 'MIX'
  sort_order: Generated<number>
  description: Generated<string>
  is_active: Generated<Flag>
  /** the local date of its last reset; written by a reset only */
  last_reset_date: Generated<string | null>
  created_at: string
  updated_at: string
}

/** A climb, up while stripped_date is null and kept for history once stripped. */
export interface ClimbTable {
  id: Generated<number>
  gym_id: number
  section_id: number
  grade_id: number
  discipline: 'BOU' | 'TR' | 'LEA' | 'AUT'
  name: Generated<string>
  hold_color: Generated<string>
  color_hex: string | null
  /** local dates in the gym's zone */
  set_date: string
  planned_strip_date: string | null
  stripped_date: Generated<string | null>
  description: Generated<string>
  created_at: string
  updated_at: string
}

/** Who set a climb, in the order given. */
export interface ClimbSetterTable {
  climb_id: number
  staff_user_id: number
  position: Generated<number>
}
