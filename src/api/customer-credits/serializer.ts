import type { Urls } from '../../http/urls.ts'
import { centsToNumber } from '../../lib/money.ts'
import { serializeExpiry } from '../customer-records/serializer.ts'
import type { CreditRow } from './queries.ts'

export function serializeCredit(row: CreditRow, urls: Urls, now: Date) {
  return {
    id: row.id,
    url: urls.abs('/api/customers', row.customer_id, 'credits', row.id),
    amount_total: centsToNumber(row.amount_total_cents),
    amount_remaining: centsToNumber(row.amount_remaining_cents),
    ...serializeExpiry(row, now),
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
