import { type Collection, each, flag, ids, put, stamps } from './writing.ts'

/** Each gym's grades, sections and climbs, with the climbs' setters. */
export const WALLS: Collection[] = [
  {
    name: 'grades',
    path: (id) => `/api/gyms/${id}/grades/`,
    parents: ids('gyms'),
    write: each(async (trx, r) =>
      put(trx, 'grades', {
        id: r.id,
        gym_id: r.gym_id,
        name: r.name,
        system: r.system,
        discipline: r.discipline,
        rank: r.rank,
        color_hex: r.color_hex ?? null,
        target_count: r.target_count ?? null,
        is_active: flag(r.is_active),
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'sections',
    path: (id) => `/api/gyms/${id}/sections/`,
    parents: ids('gyms'),
    write: each(async (trx, r) =>
      put(trx, 'sections', {
        id: r.id,
        gym_id: r.gym_id,
        name: r.name,
        discipline: r.discipline,
        sort_order: r.sort_order,
        description: r.description ?? '',
        is_active: flag(r.is_active),
        last_reset_date: r.last_reset_date ?? null,
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'climbs',
    path: (id) => `/api/gyms/${id}/climbs/`,
    parents: ids('gyms'),
    write: each(async (trx, r) => {
      const written = await put(trx, 'climbs', {
        id: r.id,
        gym_id: r.gym_id,
        section_id: r.section_id,
        grade_id: r.grade_id,
        discipline: r.discipline,
        name: r.name ?? '',
        hold_color: r.hold_color ?? '',
        color_hex: r.color_hex ?? null,
        set_date: r.set_date,
        planned_strip_date: r.planned_strip_date ?? null,
        stripped_date: r.stripped_date ?? null,
        description: r.description ?? '',
        ...stamps(r),
      })
      if (!written) return false
      const setters = (r.setter_ids ?? []) as number[]
      for (const [position, staffUserId] of setters.entries())
        await put(trx, 'climb_setters', { climb_id: r.id, staff_user_id: staffUserId, position })
      return true
    }),
  },
]
