import { gymExists } from '../api/gyms/queries.ts'
import type { Db } from '../db/connection.ts'
import type { FieldErrorCollector } from '../http/errors.ts'
import { lookUpReferenced } from '../http/references.ts'

/** Codes shared by the product types (membership types, entry pass types), domain.md section 1. */
export const PRODUCT_STATUSES = ['DRA', 'ACT', 'RET'] as const
export const PURCHASE_TYPES = ['REC', 'PRE', 'BEN'] as const
/** Billing intervals of recurring memberships; metrics name them weekly, biweekly, four_weeks, ... */
export const BILLING_INTERVALS = ['WEE', 'BWK', 'FWK', 'MON', 'QUA', 'HYR', 'YRL'] as const

/** A gym id field that was sent (and is not null) must name a gym. */
export async function checkGymField(
  db: Db,
  fields: Record<string, unknown>,
  errors: FieldErrorCollector,
  name: string,
): Promise<void> {
  const id = fields[name]
  if (typeof id === 'number') await lookUpReferenced(errors, name, id, (gymId) => gymExists(db, gymId))
}
