/** The life of a product type or event type: draft (not offered yet), active, retired. */
export const PRODUCT_STATUSES = ['DRA', 'ACT', 'RET'] as const
export const PURCHASE_TYPES = ['REC', 'PRE', 'BEN'] as const
/** Billing intervals of recurring memberships; metrics name them weekly, biweekly, four_weeks, ... */
export const BILLING_INTERVALS = ['WEE', 'BWK', 'FWK', 'MON', 'QUA', 'HYR', 'YRL'] as const
/**
 * How an event type's events are scheduled: a class that repeats (the usual), a course of several
 * sessions booked as one (`multi_part`), or an open session joined at any time (`rolling`).
 */
export const EVENT_SCHEDULE_TYPES = ['recurring', 'multi_part', 'rolling'] as const
export type EventScheduleType = (typeof EVENT_SCHEDULE_TYPES)[number]
