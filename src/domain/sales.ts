import type { LineItemPurchaseType, PaymentStatus } from '../db/schema.ts'
import { choices, someOf, type Choices } from '../lib/choices.ts'

/** The vocabulary of a sale: what a line sells, how a payment is made, where a payment stands. */

/** Every purchase type a line can have (the ones the desk sells, and those of other sources). */
export const LINE_PURCHASE_TYPES: Choices<LineItemPurchaseType> = choices({
  BOO: 'Event booking',
  MIN: 'Membership (initial)',
  MFA: 'Membership (fix failed payment)',
  MRE: 'Membership (recurring)',
  MFR: 'Membership (prepaid freeze fee)',
  MAC: 'Membership (add-on change fee)',
  EPA: 'Entry pass',
  VPO: 'Voucher pack',
  EVV: 'Event voucher',
  GIF: 'Gift',
  GEN: 'Generic',
  LEG: 'Legacy',
} satisfies Record<LineItemPurchaseType, string>)

/** The line purchase types the desk sells through POST /api/invoices/. */
export const SOLD_PURCHASE_TYPES = someOf(LINE_PURCHASE_TYPES, [
  'GEN',
  'MIN',
  'MRE',
  'EPA',
  'BOO',
  'VPO',
  'EVV',
  'GIF',
])

/** Payment types a sale may record; CRE (a credit) and VOU (a voucher) draw on what the customer holds. */
export const PAYMENT_TYPES = choices({
  STR: 'Card processor A',
  GRA: 'Card processor B',
  MXM: 'Card processor C',
  SQU: 'Card processor D',
  VEN: 'Point-of-sale system',
  CRE: 'Account credit',
  VOU: 'Voucher',
  OFF: 'Offline/recorded',
  PGI: 'Point-of-sale gift card',
  MIG: 'Migrated from legacy software',
  MOK: 'Mock (test)',
  NA: 'Not applicable',
})
export const PAYMENT_METHOD_TYPES = choices({ NA: 'Not applicable', CRD: 'Card', BNK: 'Bank account' })

/** Every payment status and its name (reference 3.2); the payments list shows only LISTED_PAYMENT_STATUSES. */
export const PAYMENT_STATUSES: Choices<PaymentStatus> = choices({
  PEN: 'Payment Pending',
  PRO: 'Payment Processing',
  COM: 'Payment Complete',
  FAI: 'Payment Failed',
  PRF: 'Partially Refunded',
  REF: 'Refunded',
  CAN: 'Cancelled',
} satisfies Record<PaymentStatus, string>)

/** A payment is recorded complete, or processing while an external terminal settles it. */
export const NEW_PAYMENT_STATUSES = someOf(PAYMENT_STATUSES, ['COM', 'PRO'])

/** Payments whose money the gym holds (refunds aside): what an invoice counts as paid. */
export const PAID_PAYMENT_STATUSES = ['COM', 'PRF', 'REF'] as const

/** What the payments list shows: pending and cancelled payments never appear. */
export const LISTED_PAYMENT_STATUSES: readonly PaymentStatus[] = ['COM', 'PRO', 'FAI', 'PRF', 'REF']
