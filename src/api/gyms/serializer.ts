import type { Gym } from '../../db/schema.ts'
import type { Urls } from '../../http/urls.ts'

export function serializeGym(gym: Gym, urls: Urls) {
  return {
    id: gym.id,
    url: urls.abs('/api/gyms', gym.id),
    name: gym.name,
    hide_setter: gym.hide_setter === 1,
    time_zone: gym.time_zone,
    scheduler_url_path: gym.scheduler_url_path,
    scheduler_landing_page_text: gym.scheduler_landing_page_text,
    scheduler_first_day_of_week: gym.scheduler_first_day_of_week,
    capacity: gym.capacity,
    combine_same_day_check_ins: gym.combine_same_day_check_ins === 1,
    created_at: gym.created_at,
    updated_at: gym.updated_at,
    climbs_url: urls.abs('/api/gyms', gym.id, 'climbs'),
    grades_url: urls.abs('/api/gyms', gym.id, 'grades'),
    sections_url: urls.abs('/api/gyms', gym.id, 'sections'),
  }
}
