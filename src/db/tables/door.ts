import type { Generated } from 'kysely'
import type { Flag } from './flag.ts'
import { choices } from '../../lib/choices.ts'

/** Check-ins and the webhook outbox (migration 0003). */

/** How a check-in got in, and its name (reference: entry methods). */
export const ENTRY_METHODS = choices({
  MEM: 'Membership',
  ENT: 'Entry pass',
  EVE: 'Event reservation',
  GUE: 'Guest pass',
  FRE: 'Free entry',
  MIG: 'Migrated',
})
export type EntryMethod = (typeof ENTRY_METHODS)[number]

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
  converted_from_free_entry: Generated<Flag>
  /** JSON array of milestone texts */
  milestone_list: string
  check_in_count: number | null
  /** gym-local YYYY-MM-DD */
  local_date: string
  /** gym-local time of day, HH:MM:SS (migration 0012) */
  local_time: string
  checked_in_by_id: number | null
  check_out_at: string | null
  created_at: string
  updated_at: string
}

/**
 * Each customer's first use of each product, kept by the check-in metrics' catch-up: the
 * first check-in with a membership of the type (MEM), an entry pass of the type (ENT) or a
 * reservation of an event of the type (EVE).
 */
export interface ProductFirstUseTable {
  customer_id: number
  product_type: 'membership' | 'entry_pass' | 'event'
  /** a membership type, entry pass type or event type id */
  product_id: number
  /** the check-in's created_at */
  used_at: string
  /** the membership the first use was made with, for membership products */
  customer_membership_id: number | null
}

/**
 * Check-ins per gym-local day, gym, entry method and product used (a membership type for MEM and
 * GUE, an entry pass type for ENT, an event type for EVE, 0 for FRE and MIG), kept by the
 * check-in metrics' catch-up (src/core/metrics/tables/check-in-catch-up.ts).
 */
export interface CheckInDayCountTable {
  local_date: string
  gym_id: number
  entry_method: EntryMethod
  product_id: number
  check_ins: number
  /** check-ins that were their customer's first (check_in_count 1) */
  first_check_ins: number
}

/**
 * Every counted check-in under its gym-local day and time, with what a check-in count filters on
 * and counts and its product as check_in_day_counts reads it, kept by the check-in metrics'
 * catch-up (migration 0020).
 */
export interface CheckInLocalTimeTable {
  local_date: string
  local_time: string
  check_in_id: number
  gym_id: number
  entry_method: EntryMethod
  product_id: number
  customer_id: number
  check_in_count: number | null
}

/**
 * Per customer with check-ins, the earliest local_date of their check-ins and the earliest later
 * one (NULL until they came back on another day), kept by the check-in metrics' catch-up.
 */
export interface CustomerFirstVisitDayTable {
  customer_id: number
  first_date: string
  return_date: string | null
}

/**
 * Every check-in of a customer on a local_date where they have more than one, kept by the
 * check-in metrics' catch-up.
 */
export interface SameDayCheckInTable {
  local_date: string
  customer_id: number
  check_in_id: number
}

/** How far the check-in metrics' catch-up has counted (migration 0019): one row. */
export interface CheckInMetricsStateTable {
  id: number
  /** the id of the last check-in counted into the metrics' tables */
  counted_through: number
}

/** Check-ins that arrived below counted_through (another site's): counted by the next catch-up. */
export interface CheckInMetricsLateTable {
  check_in_id: number
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
