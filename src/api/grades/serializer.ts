import type { Static } from '@sinclair/typebox'
import type { Urls } from '../../http/urls.ts'
import type { GradeRow } from './queries.ts'
import type { GradeOut } from './schema.ts'

export function serializeGrade(row: GradeRow, urls: Urls): Static<typeof GradeOut> {
  return {
    id: row.id,
    url: urls.abs('/api/gyms', row.gym_id, 'grades', row.id),
    gym_id: row.gym_id,
    name: row.name,
    system: row.system,
    discipline: row.discipline,
    rank: row.rank,
    color_hex: row.color_hex,
    target_count: row.target_count,
    is_active: row.is_active === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
