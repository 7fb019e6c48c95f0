import type { Static } from '@sinclair/typebox'
import type { Urls } from '../../http/urls.ts'
import type { SectionRow } from './queries.ts'
import type { SectionOut } from './schema.ts'

export function serializeSection(row: SectionRow, urls: Urls): Static<typeof SectionOut> {
  return {
    id: row.id,
    url: urls.abs('/api/gyms', row.gym_id, 'sections', row.id),
    gym_id: row.gym_id,
    name: row.name,
    discipline: row.discipline,
    sort_order: row.sort_order,
    description: row.description,
    is_active: row.is_active === 1,
    climbs_up: Number(row.climbs_up),
    last_reset_date: row.last_reset_date,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
