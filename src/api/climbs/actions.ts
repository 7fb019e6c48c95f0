import type { Static } from '@sinclair/typebox'
import { stripClimb } from '../../core/walls/stripping.ts'
import type { Deps } from '../../deps.ts'
import { notFound } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import type { ClimbRow } from './queries.ts'
import type { ClimbStrip } from './schema.ts'

/**
 * POST .../strip/: the climb comes down on the day given, today (the gym's local day) unless told.
 * The checks and the write are core/walls/stripping.ts's, in one transaction: of two strips of one
 * climb at once, the second finds it stripped and is refused.
 */
export async function stripClimbNow(
  deps: Pick<Deps, 'db' | 'clock'>,
  climb: ClimbRow,
  body: CheckedBody<Static<typeof ClimbStrip>>,
): Promise<void> {
  const { date } = body.valid()
  const stripped = await stripClimb(deps.db, climb.id, date ?? climb.today, climb.today, deps.clock.now())
  if (!stripped) throw notFound()
}
