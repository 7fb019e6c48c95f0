import type { Urls } from '../../http/urls.ts'
import { choicesOf, type EventQuestionRow } from './queries.ts'

export function serializeEventQuestion(row: EventQuestionRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/event-types', row.event_type_id, 'questions', row.id),
    event_type_id: row.event_type_id,
    text: row.text,
    kind: row.kind,
    choices: choicesOf(row),
    is_required: row.is_required === 1,
    sort_order: row.sort_order,
    is_active: row.is_active === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
