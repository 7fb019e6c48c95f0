import type { Generated } from 'kysely'
import type { Flag } from './flag.ts'

/** Product types, customers' holdings of them, events and reservations (migration 0002). */

/**
 * What a product is sold with (migration 0005): its tax rate and revenue account code. Rows written
 * without them get the database's defaults (no tax rate, no code), as rows from before it have.
 */
interface SaleTerms {
  tax_rate_id: Generated<number | null>
  revenue_account_code: Generated<string>
}

export type ProductStatus = 'DRA' | 'ACT' | 'RET'
export type PurchaseType = 'REC' | 'PRE' | 'BEN'
export type BillingInterval = '' | 'WEE' | 'BWK' | 'FWK' | 'MON' | 'QUA' | 'HYR' | 'YRL'

export interface MembershipTypeTable extends SaleTerms {
  id: Generated<number>
  name: string
  description: string
  status: ProductStatus
  purchase_type: PurchaseType
  interval: BillingInterval
  price_cents: number
  is_group: Flag
  is_youth_programming: Flag
  duration_years: number | null
  duration_months: number | null
  duration_days: number | null
  location_id: number | null
  /** JSON: null (any time) or weekly windows in the gym's zone, e.g. [{"day":"MON","start":"06:00","end":"10:00"}] */
  access_hours: string | null
  guest_passes_per_month: number
  created_at: string
  updated_at: string
}

export interface AddOnTable {
  id: string
  name: string
  fee_cents: number
  is_visible: Flag
  icon_color_hex: string
  icon_initials: string
  /** JSON object: location id -> revenue account code */
  revenue_account_codes: string
  tax_rate_id: number | null
  /** JSON object or null: location id -> tax rate */
  tax_rate_per_location: string | null
  created_at: string
  updated_at: string
}

/** Reference 3.3 plus the statuses the members report leaves out. */
export type MembershipStatus =
  'ACT' | 'IPP' | 'PPR' | 'FRZ' | 'FPR' | 'PAF' | 'FPF' | 'PAY' | 'IPC' | 'CAN' | 'END' | 'DEN'

export interface CustomerMembershipTable {
  id: Generated<number>
  membership_type_id: number
  owner_id: number
  status: MembershipStatus
  start_date: string
  end_date: string | null
  billing_location_id: number | null
  has_payment_method: Flag
  is_pending_staff_approval: Flag
  billing_amount_cents: number
  discount_association_id: number | null
  referring_customer_id: number | null
  created_at: string
  updated_at: string
}

export interface MembershipStatusChangeTable {
  id: Generated<number>
  customer_membership_id: number
  member_customer_id: number | null
  from_status: MembershipStatus | null
  to_status: MembershipStatus
  /** organization-local YYYY-MM-DD */
  changed_on: string
  changed_by_id: number | null
  created_at: string
}

export interface MembershipMemberTable {
  id: Generated<number>
  customer_membership_id: number
  customer_id: number
  is_frozen: Flag
}

export interface MembershipMemberAddOnTable {
  membership_member_id: number
  add_on_id: string
}

export interface EntryPassTypeTable extends SaleTerms {
  id: Generated<number>
  name: string
  status: ProductStatus
  number_of_entries: number
  valid_days: number | null
  price_cents: number
  created_at: string
  updated_at: string
}

export interface CustomerEntryPassTable {
  id: Generated<number>
  entry_pass_type_id: number
  owner_id: number
  purchaser_id: number | null
  entries_total: number
  entries_remaining: number
  expiry_date: string | null
  acquired_via: 'purchase' | 'gift' | 'code' | 'manual'
  invoice_id: number | null
  created_by_id: number | null
  created_at: string
  updated_at: string
}

export interface EventTable extends SaleTerms {
  id: Generated<number>
  event_type_id: number
  gym_id: number
  name: string
  /** UTC ISO instants */
  start_at: string
  end_at: string
  includes_entry: Flag
  is_cancelled: Flag
  /** What booking it costs; 0 unless set */
  price_cents: Generated<number>
  /** 0-1000; null: only the event type's facility capacity limits it; 0: waitlist only */
  capacity: Generated<number | null>
  /** The schedule and local date it was made for; null for an event made by hand */
  schedule_id: Generated<number | null>
  schedule_date: Generated<string | null>
  created_at: string
  updated_at: string
}

export interface ReservationTable {
  id: Generated<number>
  event_id: number
  customer_id: number
  includes_entry: Flag
  is_cancelled: Flag
  checked_in: Flag
  /** JSON: [{"question_id": 3, "answer": "Yes"}], as given at booking */
  answers: Generated<string>
  /** The voucher a use was taken from, given back on a cancellation before the event starts */
  event_voucher_id: Generated<number | null>
  created_at: string
  updated_at: string
}

/** WAI waiting, PRO promoted (reservation_id set), CAN cancelled; "EXP" is WAI after the start. */
export interface WaitlistEntryTable {
  id: Generated<number>
  event_id: number
  customer_id: number
  answers: Generated<string>
  status: Generated<'WAI' | 'PRO' | 'CAN'>
  reservation_id: Generated<number | null>
  created_at: string
  updated_at: string
}

export interface EventQuestionTable {
  id: Generated<number>
  event_type_id: number
  text: string
  kind: Generated<'TXT' | 'BOO' | 'CHO'>
  /** JSON list of strings, for CHO */
  choices: Generated<string>
  is_required: Generated<Flag>
  sort_order: Generated<number>
  is_active: Generated<Flag>
  created_at: string
  updated_at: string
}

export interface EventScheduleTable {
  id: Generated<number>
  event_type_id: number
  gym_id: number
  /** JSON list of MON..SUN */
  weekdays: string
  /** HH:MM, the gym's wall clock */
  start_time: string
  duration_minutes: number
  start_date: string
  end_date: string | null
  capacity: number | null
  price_cents: Generated<number>
  is_active: Generated<Flag>
  created_at: string
  updated_at: string
}

export interface EventScheduleExceptionTable {
  id: Generated<number>
  schedule_id: number
  /** the local date with no event */
  date: string
  reason: Generated<string>
  created_at: string
  updated_at: string
}
