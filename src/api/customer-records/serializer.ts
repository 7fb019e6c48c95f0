import { expiryView, type ExpiringRecord } from './record-rules.ts'

/** The fields credits and event vouchers share, computed at `now`. */
export function serializeExpiry(
  row: ExpiringRecord & { created_by_id: number | null; created_by_email: string | null },
  now: Date,
) {
  const view = expiryView(row, now)
  return {
    expiry_date: row.expiry_date,
    expiry_date_str: view.expiry_date_str,
    is_expired: view.is_expired,
    is_removed: row.is_removed === 1,
    created_by_id: row.created_by_id,
    created_by_email: row.created_by_email,
    date_added_str: view.date_added_str,
  }
}
