import type { Static } from 'elysia'
import type { EventTypeRow } from './queries.ts'
import { categoryIdsOf, insertEventType, setEventTypeCategories, updateEventType } from './queries.ts'
import type { EventTypeWrite } from './schema.ts'
import { listEventCategoryIdsInUse } from '../event-categories/queries.ts'
import { lookUpGym } from '../gyms/queries.ts'
import type { Deps } from '../../deps.ts'
import { promoteForTypeIn } from '../../core/classes/waitlist.ts'
import { messages, type FieldErrorCollector } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { toFlag } from '../../db/flags.ts'

type EventTypeInput = Static<typeof EventTypeWrite>

export const DEFAULT_LATE_BOOKING_WINDOW_MINUTES = 15

async function checkGym(
  deps: Pick<Deps, 'db'>,
  input: Partial<EventTypeInput>,
  errors: FieldErrorCollector,
  existing?: EventTypeRow,
) {
  if (input.gym_id === undefined) return
  if (existing) {
    if (input.gym_id !== existing.gym_id) errors.add('gym_id', messages.cannotChange)
  } else {
    await lookUpGym(deps.db, errors, 'gym_id', input.gym_id)
  }
}

/**
 * The categories a body files the event type under, each once. Every id must name a category in
 * use, or one the event type is already filed under: a category removed since stays among its
 * category_ids, so sending back what was read keeps it, but nothing is filed under it anew.
 */
async function checkCategories(
  deps: Pick<Deps, 'db'>,
  input: Partial<EventTypeInput>,
  errors: FieldErrorCollector,
  existing?: EventTypeRow,
): Promise<number[] | undefined> {
  if (input.category_ids === undefined) return undefined
  const ids = [...new Set(input.category_ids)]
  const inUse = await listEventCategoryIdsInUse(deps.db, ids)
  const kept = new Set(existing ? categoryIdsOf(existing) : [])
  for (const id of ids) {
    if (!inUse.has(id) && !kept.has(id)) errors.add('category_ids', messages.doesNotExist(id))
  }
  return ids
}

export async function createEventType(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<EventTypeInput>,
): Promise<number> {
  await checkGym(deps, body.fields, body.errors)
  const categoryIds = await checkCategories(deps, body.fields, body.errors)
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return deps.db.transaction().execute(async (trx) => {
    const id = await insertEventType(trx, {
      name: input.name,
      gym_id: input.gym_id,
      status: input.status,
      capacity: input.capacity ?? null,
      late_booking_window_minutes: input.late_booking_window_minutes ?? DEFAULT_LATE_BOOKING_WINDOW_MINUTES,
      is_listed: toFlag(input.is_listed) ?? 1,
      max_reservations_per_day_for_customer: input.max_reservations_per_day_for_customer ?? null,
      waitlist_promotion_cutoff_hours: input.waitlist_promotion_cutoff_hours,
      booking_horizon_days: input.booking_horizon_days,
      schedule_type: input.schedule_type,
      created_at: now,
      updated_at: now,
    })
    if (categoryIds !== undefined) await setEventTypeCategories(trx, id, categoryIds)
    return id
  })
}

/**
 * PUT/PATCH; the gym may be sent again but not changed (an event type stays in its gym). category_ids,
 * when sent, replaces its categories.
 */
export async function changeEventType(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: EventTypeRow,
  body: CheckedBody<Partial<EventTypeInput>>,
): Promise<void> {
  await checkGym(deps, body.fields, body.errors, row)
  const categoryIds = await checkCategories(deps, body.fields, body.errors, row)
  const input = body.valid()
  await deps.db.transaction().execute(async (trx) => {
    await updateEventType(trx, row.id, {
      name: input.name,
      status: input.status,
      capacity: input.capacity,
      late_booking_window_minutes: input.late_booking_window_minutes,
      is_listed: toFlag(input.is_listed),
      max_reservations_per_day_for_customer: input.max_reservations_per_day_for_customer,
      waitlist_promotion_cutoff_hours: input.waitlist_promotion_cutoff_hours,
      booking_horizon_days: input.booking_horizon_days,
      schedule_type: input.schedule_type,
      updated_at: deps.clock.now().toISOString(),
    })
    if (categoryIds !== undefined) await setEventTypeCategories(trx, row.id, categoryIds)
    // A raised facility capacity or a later cutoff may open spots to the waiting.
    await promoteForTypeIn(trx, row.id, deps.clock.now())
  })
}
