import type { Urls } from '../../http/urls.ts'
import type { EmergencyContactRow } from './queries.ts'

export function serializeEmergencyContact(row: EmergencyContactRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/customers', row.customer_id, 'emergency-contacts', row.id),
    first_name: row.first_name,
    last_name: row.last_name,
    telephone: row.telephone,
    email: row.email,
    relation: row.relation,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
