import type { Urls } from '../../http/urls.ts'
import type { DocumentRow } from './queries.ts'

export function serializeDocument(document: DocumentRow, urls: Urls) {
  const url = urls.abs('/api/customers', document.customer_id, 'documents', document.id)
  return {
    id: document.id,
    url,
    name: document.name,
    kind: document.kind,
    pdf: document.has_pdf === 1 ? `${url}pdf/` : null,
    expiration_date: document.expiration_date,
    is_expired: document.is_expired === 1,
    created_at: document.created_at,
    updated_at: document.updated_at,
  }
}
