import type { Static } from 'elysia'
import { insertEventCategory, updateEventCategory, type EventCategoryRow } from './queries.ts'
import type { EventCategoryWrite } from './schema.ts'
import type { Deps } from '../../deps.ts'
import type { CheckedBody } from '../../http/validation.ts'

type EventCategoryInput = Static<typeof EventCategoryWrite>

export async function createEventCategory(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<EventCategoryInput>,
): Promise<number> {
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return insertEventCategory(deps.db, { name: input.name, created_at: now, updated_at: now })
}

export async function changeEventCategory(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: EventCategoryRow,
  body: CheckedBody<Partial<EventCategoryInput>>,
): Promise<void> {
  const input = body.valid()
  await updateEventCategory(deps.db, row.id, { name: input.name, updated_at: deps.clock.now().toISOString() })
}

/**
 * DELETE removes a category softly: it leaves the list and reads 404, but the event types filed
 * under it keep it among their category_ids, so what they sold while it was in use still counts
 * under it.
 */
export async function removeEventCategory(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: EventCategoryRow,
): Promise<void> {
  await updateEventCategory(deps.db, row.id, { is_removed: 1, updated_at: deps.clock.now().toISOString() })
}
