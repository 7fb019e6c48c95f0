import type { Static } from 'elysia'
import { insertWaiverText } from './queries.ts'
import type { WaiverTextCreate } from './schema.ts'
import type { Deps } from '../../deps.ts'
import type { CheckedBody } from '../../http/validation.ts'

/** A new version of the waiver text, current from now on; the versions before it stay as they were. */
export async function createWaiverText(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<Static<typeof WaiverTextCreate>>,
  userId: number,
): Promise<number> {
  const input = body.valid()
  return insertWaiverText(deps.db, {
    text: input.text,
    valid_for_days: input.valid_for_days ?? null,
    created_at: deps.clock.now().toISOString(),
    created_by_user_id: userId,
  })
}
