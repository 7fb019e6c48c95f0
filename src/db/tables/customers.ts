import type { Generated } from 'kysely'
import type { Flag } from './flag.ts'

/** Customers and the records staff keep about them (migration 0002). */

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

export interface CustomerPhotoTable {
  customer_id: number
  content_type: string
  content: Uint8Array
  taken_at: string
}

/** A customer's PIN for the self check-in kiosk (api/kiosk/): an argon2id hash, never shown. */
export interface CustomerKioskPinTable {
  customer_id: number
  pin_hash: string
  set_at: string
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
