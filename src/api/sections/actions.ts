import type { Static } from '@sinclair/typebox'
import { resetSection } from '../../core/walls/stripping.ts'
import type { Deps } from '../../deps.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { localDate } from '../../lib/local-time.ts'
import { getGym } from '../gyms/queries.ts'
import type { SectionRow } from './queries.ts'
import type { SectionReset } from './schema.ts'

/**
 * POST reset/: strips every climb up in the section that was set by the date, and records the
 * reset (core/walls/stripping.ts, one transaction). The date is a day of the gym's zone, today by
 * default; a day after today is refused there, with nothing stripped.
 */
export async function resetSectionOn(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: SectionRow,
  body: CheckedBody<Static<typeof SectionReset>>,
): Promise<void> {
  const input = body.valid()
  const gym = await getGym(deps.db, row.gym_id)
  const now = deps.clock.now()
  const today = localDate(now, gym!.time_zone)
  await resetSection(deps.db, row.id, input.date ?? today, today, now)
}
