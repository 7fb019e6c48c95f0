import type { LineItemPurchaseType, PaymentStatus } from '../db/schema.ts'

/** The vocabulary of a sale: what a line sells, how a payment is made, where a payment stands. */

/** Every purchase type a line can have (the ones the desk sells, and those of other sources). */
export const LINE_PURCHASE_TYPES: readonly LineItemPurchaseType[] = [
  'BOO',
  'MIN',
  'MFA',
  'MRE',
  'MFR',
  'MAC',
  'EPA',
  'VPO',
  'EVV',
  'GIF',
  'GEN',
  'LEG',
]

/** The line purchase types the desk sells through POST /api/invoices/. */
export const SOLD_PURCHASE_TYPES = ['GEN', 'MIN', 'MRE', 'EPA', 'BOO', 'VPO', 'EVV', 'GIF'] as const

/** Payment types a sale may record; CRE (a credit) and VOU (a voucher) draw on what the customer holds. */
export const PAYMENT_TYPES = [
  'STR',
  'GRA',
  'MXM',
  'SQU',
  'VEN',
  'CRE',
  'VOU',
  'OFF',
  'PGI',
  'MIG',
  'MOK',
  'NA',
] as const
export const PAYMENT_METHOD_TYPES = ['NA', 'CRD', 'BNK'] as const

/** A payment is recorded complete, or processing while an external terminal settles it. */
export const NEW_PAYMENT_STATUSES = ['COM', 'PRO'] as const

/** Payments whose money the gym holds (refunds aside): what an invoice counts as paid. */
export const PAID_PAYMENT_STATUSES = ['COM', 'PRF', 'REF'] as const

/** Every payment status; the payments list shows only LISTED_PAYMENT_STATUSES. */
export const PAYMENT_STATUSES: readonly PaymentStatus[] = ['PEN', 'PRO', 'COM', 'FAI', 'PRF', 'REF', 'CAN']
/** What the payments list shows: pending and cancelled payments never appear. */
export const LISTED_PAYMENT_STATUSES: readonly PaymentStatus[] = ['COM', 'PRO', 'FAI', 'PRF', 'REF']
