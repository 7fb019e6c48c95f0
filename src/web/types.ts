/**
 * The API's JSON as the desk reads it: the fields it shows, named as the API names them. The API
 * is the contract; nothing here is shared with the server's code.
 */

export interface Page<T> {
  count: number
  next: string | null
  previous: string | null
  results: T[]
}

export interface Account {
  email: string
  first_name: string
  last_name: string
  organization_name: string
  default_gym_id: number
  can_manage_members: boolean
  can_access_reports: boolean
  is_organization_admin: boolean
  /** The session is in PIN mode: each change names the staff member acting (the PIN prompt). */
  pin_mode: boolean
}

export interface Gym {
  id: number
  name: string
  time_zone: string
  capacity: number | null
}

export interface Alert {
  alert_text: string
  color_hex: string
}

export interface ReservationNow {
  id: number
  event_name: string
  start_datetime: string
  end_datetime: string
}

/** 200 from the barcode check-in. */
export interface CheckedIn {
  id: number
  customer_first_name: string
  customer_last_name: string
  entry_method_description: string
  /** Newline-separated, empty when none. */
  milestones: string
  check_in_count: number
  customer_alerts: Alert[]
  reservations: ReservationNow[]
}

export type RefusalCode =
  'customer_not_found' | 'invalid_location' | 'check_in_alerts' | 'duplicate_check_in' | 'no_entry_method'

/** 400 or 404 from the barcode check-in: the customer's names are absent for a 404. */
export interface Refused {
  error: RefusalCode
  alerts?: string[]
  customer_first_name?: string
  customer_last_name?: string
}

export interface CheckInRecord {
  id: number
  customer_first_name: string
  customer_last_name: string
  check_in_datetime: string
  check_out_datetime: string | null
  entry_method_description: string
}

export interface Customer {
  id: number
  first_name: string
  last_name: string
  email: string | null
  barcode: string | null
}

/** A customer's record as their page shows it. */
export interface CustomerRecord extends Customer {
  active_waiver_exists: boolean
  latest_waiver_expiration_date: string | null
}

/** A staff-made alert on a customer. */
export interface CustomerAlert extends Alert {
  id: number
  prevents_check_in: boolean
  is_active: boolean
}

export interface CustomerMembership {
  id: number
  membership_name: string
  status: string
  start_date: string
  end_date: string | null
}

export interface CustomerEntryPass {
  id: number
  entry_pass_name: string
  entries_total: number
  entries_remaining: number
  expiry_date: string | null
  is_expired: boolean
}

export interface Credit {
  id: number
  amount_total: number
  amount_remaining: number
  expiry_date_str: string
  is_expired: boolean
  is_removed: boolean
}

/** One of a customer's check-ins, as their page lists them. */
export interface CustomerCheckIn extends CheckInRecord {
  location_name: string
  entry_method: string
  free_entry_reason: string
}
