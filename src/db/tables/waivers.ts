import type { Generated } from 'kysely'

/** The organization's waiver text by version, and each waiver signed on the desk's tablet (migration 0024). */

export interface WaiverTextTable {
  /** The version number: 1, 2, ...; the highest is the current text. */
  id: Generated<number>
  text: string
  /** How long a waiver signed on this version lasts, in days; null: it never expires. */
  valid_for_days: number | null
  created_at: string
  created_by_user_id: number | null
}

export interface WaiverSignatureTable {
  /** The customer document (kind 'waiver') the signing made. */
  document_id: number
  waiver_text_id: number
  /** The answers as the signer gave them, which the customer's record may later differ from. */
  first_name: string
  last_name: string
  /** YYYY-MM-DD */
  birthday: string
  email: string
  telephone: string
  /** Who signed for a customer under 18; '' for an adult. */
  guardian_name: string
  signed_at: string
  /** The staff user whose session the tablet was in. */
  staff_user_id: number | null
}
