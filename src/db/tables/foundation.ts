import type { Generated } from 'kysely'
import type { Flag } from './flag.ts'

/**
 * The organization, its gyms, staff accounts and tokens, event types (migration 0001) and the
 * categories event types are filed under (migration 0009).
 */

export interface OrganizationTable {
  id: Generated<number>
  name: string
  time_zone: string
  currency: Generated<string>
  waiver_required: Generated<Flag>
  /** JSON array of check-in counts that are milestones */
  milestones: Generated<string>
  created_at: string
  updated_at: string
}

export interface GymTable {
  id: Generated<number>
  name: string
  hide_setter: Flag
  time_zone: string
  scheduler_url_path: string
  scheduler_landing_page_text: string
  scheduler_first_day_of_week: 'SUN' | 'MON'
  capacity: number | null
  combine_same_day_check_ins: Flag
  created_at: string
  updated_at: string
}

export interface StaffUserTable {
  id: Generated<number>
  email: string
  first_name: string
  last_name: string
  default_gym_id: number
  date_joined: string
  is_active: Flag
  can_manage_events: Flag
  can_manage_members: Flag
  can_manage_customer_proficiencies: Flag
  can_export_customers: Flag
  can_access_reports: Flag
  /** migration 0032: may write grades, sections and climbs */
  can_manage_climbs: Generated<Flag>
  is_organization_admin: Flag
  pin_mode_required: Flag
  password_hash: string | null
  pin_hash: string | null
}

export interface AuthTokenTable {
  id: Generated<number>
  key_hash: string
  user_id: number
  created_at: string
  expires_at: string | null
}

/** A browser's login (api/auth/session-routes.ts): only the key's hash is kept. */
export interface AuthSessionTable {
  id: Generated<number>
  key_hash: string
  user_id: number
  created_at: string
  last_seen_at: string
  expires_at: string
  /** 1 when its user has `pin_mode_required`: each edit names the acting staff member by PIN. */
  pin_mode: Generated<number>
  /** 1 once turned into the self check-in kiosk's session (api/kiosk/): only the kiosk's calls. */
  kiosk: Generated<number>
}

export interface EventTypeTable {
  id: Generated<number>
  name: string
  gym_id: number
  status: 'DRA' | 'ACT' | 'RET'
  capacity: number | null
  late_booking_window_minutes: number
  is_listed: Flag
  created_at: string
  updated_at: string
  schedule_type: Generated<'recurring' | 'multi_part' | 'rolling'>
  /** null: no limit */
  max_reservations_per_day_for_customer: number | null
  /** Within this many hours of its start, an event's waitlist is promoted by hand only */
  waitlist_promotion_cutoff_hours: Generated<number>
  /** How many days ahead its schedules keep events made */
  booking_horizon_days: Generated<number>
}

/** Removed softly: the event types filed under a removed category keep the link. */
export interface EventCategoryTable {
  id: Generated<number>
  name: string
  is_removed: Generated<Flag>
  created_at: string
  updated_at: string
}

export interface EventTypeCategoryTable {
  event_type_id: number
  event_category_id: number
}
