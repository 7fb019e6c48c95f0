import { choices } from '../lib/choices.ts'

/** The life of a product type or event type: draft (not offered yet), active, retired. */
export const PRODUCT_STATUSES = choices({ DRA: 'Draft', ACT: 'Active', RET: 'Retired' })
export const PURCHASE_TYPES = choices({ REC: 'Recurring', PRE: 'Prepaid', BEN: 'Benefit' })
/** Billing intervals of recurring memberships; metrics name them weekly, biweekly, four_weeks, ... */
export const BILLING_INTERVALS = choices({
  WEE: 'Weekly',
  BWK: 'Every two weeks',
  FWK: 'Every four weeks',
  MON: 'Monthly',
  QUA: 'Quarterly',
  HYR: 'Every six months',
  YRL: 'Yearly',
})
/**
 * How an event type's events are scheduled: a class that repeats (the usual), a course of several
 * sessions booked as one (`multi_part`), or an open session joined at any time (`rolling`).
 */
export const EVENT_SCHEDULE_TYPES = choices({
  recurring: 'Recurring class',
  multi_part: 'Multi-part course',
  rolling: 'Rolling session',
})
export type EventScheduleType = (typeof EVENT_SCHEDULE_TYPES)[number]

/**
 * What a product is sold on, whatever it is (a membership type, an entry pass type, a voucher
 * pack, an event): its price, its tax rate (null: untaxed) and the account its revenue is booked
 * to. A sale's line charges these unless the line gives its own.
 */
export interface SaleTerms {
  price_cents: number
  tax_rate_id: number | null
  revenue_account_code: string
}

/** A product's terms until it is given its own: free, untaxed, booked to no account. */
export const DEFAULT_SALE_TERMS: SaleTerms = { price_cents: 0, tax_rate_id: null, revenue_account_code: '' }
