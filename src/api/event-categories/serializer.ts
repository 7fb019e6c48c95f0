import type { Urls } from '../../http/urls.ts'
import type { EventCategoryRow } from './queries.ts'

export function serializeEventCategory(row: EventCategoryRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/event-categories', row.id),
    name: row.name,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
