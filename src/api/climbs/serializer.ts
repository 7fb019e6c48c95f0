import type { Static } from '@sinclair/typebox'
import { staffName } from '../../domain/staff-names.ts'
import type { Urls } from '../../http/urls.ts'
import type { ClimbRow } from './queries.ts'
import type { ClimbOut } from './schema.ts'

const DAY_MS = 86_400_000

/** Whole days from one local date to a later one (YYYY-MM-DD), never below 0. */
const daysBetween = (from: string, to: string): number =>
  Math.max(0, Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS))

export function serializeClimb(climb: ClimbRow, urls: Urls): Static<typeof ClimbOut> {
  return {
    id: climb.id,
    url: urls.abs('/api/gyms', climb.gym_id, 'climbs', climb.id),
    gym_id: climb.gym_id,
    section_id: climb.section_id,
    section_name: climb.section_name,
    grade_id: climb.grade_id,
    grade_name: climb.grade_name,
    discipline: climb.discipline,
    name: climb.name,
    hold_color: climb.hold_color,
    color_hex: climb.color_hex,
    setter_ids: climb.setters.map((setter) => setter.id),
    setter_names: climb.setters.map(staffName),
    set_date: climb.set_date,
    planned_strip_date: climb.planned_strip_date,
    stripped_date: climb.stripped_date,
    is_up: climb.stripped_date === null,
    days_up: daysBetween(climb.set_date, climb.stripped_date ?? climb.today),
    description: climb.description,
    created_at: climb.created_at,
    updated_at: climb.updated_at,
  }
}
