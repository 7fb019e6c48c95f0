import type { Generated, Insertable, Selectable, Updateable } from 'kysely'

/** SQLite stores booleans as 0/1; serializers turn them back into JSON booleans. */
export type Flag = 0 | 1

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
}

export interface CustomerTable {
  id: Generated<number>
  first_name: string
  last_name: string
  preferred_name: string
  email: string | null
  telephone: string
  /** YYYY-MM-DD */
  birthday: string
  barcode: string | null
  is_active: Flag
  home_location_id: number | null
  address_street_1: string
  address_street_2: string
  address_city: string
  address_state: string
  address_postcode: string
  /** two-letter country code or '' */
  address_country: string
  profile_image_url: string
  first_check_in_timestamp: string | null
  /** running total of check-ins, maintained by the check-in transaction */
  check_in_count: Generated<number>
  created_at: string
  updated_at: string
}

export interface CustomerAlertTable {
  id: Generated<number>
  customer_id: number
  alert_text: string
  color_hex: string
  prevents_check_in: Flag
  is_active: Flag
  created_date: string
  created_at: string
  updated_at: string
}

export interface CustomerCreditTable {
  id: Generated<number>
  customer_id: number
  amount_total_cents: number
  amount_remaining_cents: number
  expiry_date: string | null
  is_removed: Flag
  created_by_id: number | null
  created_at: string
  updated_at: string
}

export interface CustomerEmergencyContactTable {
  id: Generated<number>
  customer_id: number
  first_name: string
  last_name: string
  telephone: string
  email: string
  relation: string
  created_at: string
  updated_at: string
}

export interface CustomerMedicalNoteTable {
  id: Generated<number>
  customer_id: number
  medical_notes: string
  created_at: string
  updated_at: string
}

export type RelationCode = 'SPO' | 'PRT' | 'PRE' | 'CHI' | 'GUA' | 'WAR' | 'SIB' | 'OTH'

export interface CustomerRelationTable {
  id: Generated<number>
  customer_id: number
  related_customer_id: number
  relation: RelationCode
  created_at: string
  updated_at: string
}

export interface CustomerDocumentTable {
  id: Generated<number>
  customer_id: number
  name: string
  kind: 'waiver' | 'other'
  expiration_date: string | null
  created_at: string
  updated_at: string
}

export interface CustomerDocumentFileTable {
  document_id: number
  content_type: string
  content: Uint8Array
}

export interface CustomerEventVoucherTable {
  id: Generated<number>
  customer_id: number
  event_type_id: number
  number_of_uses_total: number
  number_of_uses_remaining: number
  expiry_date: string | null
  is_removed: Flag
  created_by_id: number | null
  created_at: string
  updated_at: string
}

export type ProductStatus = 'DRA' | 'ACT' | 'RET'
export type PurchaseType = 'REC' | 'PRE' | 'BEN'
export type BillingInterval = '' | 'WEE' | 'BWK' | 'FWK' | 'MON' | 'QUA' | 'HYR' | 'YRL'

export interface MembershipTypeTable {
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

export interface EntryPassTypeTable {
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

export interface EventTable {
  id: Generated<number>
  event_type_id: number
  gym_id: number
  name: string
  /** UTC ISO instants */
  start_at: string
  end_at: string
  includes_entry: Flag
  is_cancelled: Flag
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
  created_at: string
  updated_at: string
}

export type EntryMethod = 'MEM' | 'ENT' | 'EVE' | 'GUE' | 'FRE' | 'MIG'

export interface CheckInTable {
  id: Generated<number>
  customer_id: number
  gym_id: number
  entry_method: EntryMethod
  entry_method_description: string
  customer_membership_id: number | null
  customer_entry_pass_id: number | null
  reservation_id: number | null
  host_customer_id: number | null
  free_entry_reason: string
  free_entry_granting_user_id: number | null
  converted_from_free_entry: Flag
  /** JSON array of milestone texts */
  milestone_list: string
  check_in_count: number | null
  /** gym-local YYYY-MM-DD */
  local_date: string
  checked_in_by_id: number | null
  check_out_at: string | null
  created_at: string
  updated_at: string
}

export interface WebhookTable {
  id: Generated<number>
  event_type: 'check_in'
  webhook_url: string
  secret: string
  created_at: string
  updated_at: string
}

export interface WebhookEventTable {
  id: Generated<number>
  webhook_id: number
  event_type: string
  /** the exact JSON body sent on every attempt */
  body: string
  status: 'pending' | 'delivered' | 'failed'
  attempts: number
  next_attempt_at: string
  delivered_at: string | null
  created_at: string
}

export interface WebhookDeliveryTable {
  id: Generated<number>
  webhook_event_id: number
  attempt: number
  attempted_at: string
  status_code: number | null
  error: string
  duration_ms: number
  response_body: string
}

export interface Database {
  organization: OrganizationTable
  gyms: GymTable
  staff_users: StaffUserTable
  auth_tokens: AuthTokenTable
  event_types: EventTypeTable
  customers: CustomerTable
  customer_alerts: CustomerAlertTable
  customer_credits: CustomerCreditTable
  customer_emergency_contacts: CustomerEmergencyContactTable
  customer_medical_notes: CustomerMedicalNoteTable
  customer_relations: CustomerRelationTable
  customer_documents: CustomerDocumentTable
  customer_document_files: CustomerDocumentFileTable
  customer_event_vouchers: CustomerEventVoucherTable
  membership_types: MembershipTypeTable
  add_ons: AddOnTable
  customer_memberships: CustomerMembershipTable
  membership_status_changes: MembershipStatusChangeTable
  membership_members: MembershipMemberTable
  membership_member_add_ons: MembershipMemberAddOnTable
  entry_pass_types: EntryPassTypeTable
  customer_entry_passes: CustomerEntryPassTable
  events: EventTable
  reservations: ReservationTable
  check_ins: CheckInTable
  webhooks: WebhookTable
  webhook_events: WebhookEventTable
  webhook_deliveries: WebhookDeliveryTable
}

export type Organization = Selectable<OrganizationTable>
export type Gym = Selectable<GymTable>
export type NewGym = Insertable<GymTable>
export type GymUpdate = Updateable<GymTable>
export type StaffUser = Selectable<StaffUserTable>
export type NewStaffUser = Insertable<StaffUserTable>
export type StaffUserUpdate = Updateable<StaffUserTable>
export type EventType = Selectable<EventTypeTable>
export type NewEventType = Insertable<EventTypeTable>
export type EventTypeUpdate = Updateable<EventTypeTable>
export type Customer = Selectable<CustomerTable>
export type CustomerMembership = Selectable<CustomerMembershipTable>
export type MembershipType = Selectable<MembershipTypeTable>
