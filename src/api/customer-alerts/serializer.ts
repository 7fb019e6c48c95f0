import type { Urls } from '../../http/urls.ts'
import type { AlertRow } from './queries.ts'

export function serializeAlert(alert: AlertRow, urls: Urls) {
  return {
    id: alert.id,
    url: urls.abs('/api/customers', alert.customer_id, 'alerts', alert.id),
    customer_id: alert.customer_id,
    alert_text: alert.alert_text,
    color_hex: alert.color_hex,
    prevents_check_in: alert.prevents_check_in === 1,
    is_active: alert.is_active === 1,
    created_date: alert.created_date,
    created_at: alert.created_at,
    updated_at: alert.updated_at,
  }
}
