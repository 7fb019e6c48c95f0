import type { Static } from 'elysia'
import { getOrganization, updateOrganization } from './queries.ts'
import type { OrganizationUpdate } from './schema.ts'
import type { Deps } from '../../deps.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { canonicalTimeZone } from '../../lib/time-zones.ts'
import { toFlag } from '../../db/flags.ts'

export async function changeOrganization(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<Static<typeof OrganizationUpdate>>,
): Promise<void> {
  const input = body.valid()
  const milestones = input.milestones && [...new Set(input.milestones)].sort((a, b) => a - b)
  await updateOrganization(deps.db, {
    name: input.name,
    time_zone: input.time_zone === undefined ? undefined : canonicalTimeZone(input.time_zone),
    currency: input.currency,
    waiver_required: toFlag(input.waiver_required),
    milestones: milestones && JSON.stringify(milestones),
    updated_at: deps.clock.now().toISOString(),
  })
}
