/** The life of a product type or event type: draft (not offered yet), active, retired. */
export const PRODUCT_STATUSES = ['DRA', 'ACT', 'RET'] as const
export const PURCHASE_TYPES = ['REC', 'PRE', 'BEN'] as const
/** Billing intervals of recurring memberships; metrics name them weekly, biweekly, four_weeks, ... */
export const BILLING_INTERVALS = ['WEE', 'BWK', 'FWK', 'MON', 'QUA', 'HYR', 'YRL'] as const
