import type { Static } from 'elysia'
import { insertGym, updateGym } from './queries.ts'
import type { GymWrite } from './schema.ts'
import type { Gym, GymUpdate } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { canonicalTimeZone } from '../../lib/time-zones.ts'
import { toFlag } from '../../db/flags.ts'

type GymInput = Static<typeof GymWrite>

/** The writable columns of a gym from a request body; fields not sent are left out. */
function gymChanges(input: Partial<GymInput>): GymUpdate {
  return {
    name: input.name,
    time_zone: input.time_zone === undefined ? undefined : canonicalTimeZone(input.time_zone),
    hide_setter: toFlag(input.hide_setter),
    scheduler_url_path: input.scheduler_url_path,
    scheduler_landing_page_text: input.scheduler_landing_page_text,
    scheduler_first_day_of_week: input.scheduler_first_day_of_week,
    capacity: input.capacity,
    combine_same_day_check_ins: toFlag(input.combine_same_day_check_ins),
  }
}

export async function createGym(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<GymInput>,
): Promise<number> {
  const input = body.valid()
  const changes = gymChanges(input)
  const now = deps.clock.now().toISOString()
  return insertGym(deps.db, {
    name: input.name,
    time_zone: changes.time_zone!,
    hide_setter: changes.hide_setter ?? 0,
    scheduler_url_path: changes.scheduler_url_path ?? '',
    scheduler_landing_page_text: changes.scheduler_landing_page_text ?? '',
    scheduler_first_day_of_week: changes.scheduler_first_day_of_week ?? 'SUN',
    capacity: changes.capacity ?? null,
    combine_same_day_check_ins: changes.combine_same_day_check_ins ?? 0,
    created_at: now,
    updated_at: now,
  })
}

export async function changeGym(
  deps: Pick<Deps, 'db' | 'clock'>,
  gym: Gym,
  body: CheckedBody<Partial<GymInput>>,
): Promise<void> {
  await updateGym(deps.db, gym.id, {
    ...gymChanges(body.valid()),
    updated_at: deps.clock.now().toISOString(),
  })
}
