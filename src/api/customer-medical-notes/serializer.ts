import type { Urls } from '../../http/urls.ts'
import type { MedicalNoteRow } from './queries.ts'

export function serializeMedicalNote(row: MedicalNoteRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/customers', row.customer_id, 'medical-notes', row.id),
    medical_notes: row.medical_notes,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
