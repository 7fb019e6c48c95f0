/** The vocabulary of a sale: what a line sells, how a payment is made, where a payment stands. */

/** The line purchase types the desk sells through POST /api/invoices/. */
export const SOLD_PURCHASE_TYPES = ['GEN', 'MIN', 'EPA', 'BOO', 'VPO', 'GIF'] as const

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
