import type { Urls } from '../../http/urls.ts'
import type { RelationRow } from './queries.ts'

export function serializeRelation(row: RelationRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/customers', row.customer_id, 'relations', row.id),
    related_customer_id: row.related_customer_id,
    related_customer_url: urls.abs('/api/customers', row.related_customer_id),
    related_customer_email: row.related_customer_email,
    related_customer_first_name: row.related_customer_first_name,
    related_customer_last_name: row.related_customer_last_name,
    relation: row.relation,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
