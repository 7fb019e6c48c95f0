import type { Static } from 'elysia'
import type { EventTypeRow } from './queries.ts'
import { insertEventType, updateEventType } from './queries.ts'
import type { EventTypeWrite } from './schema.ts'
import { lookUpGym } from '../gyms/queries.ts'
import type { Deps } from '../../deps.ts'
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

export async function createEventType(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<EventTypeInput>,
): Promise<number> {
  await checkGym(deps, body.fields, body.errors)
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return insertEventType(deps.db, {
    name: input.name,
    gym_id: input.gym_id,
    status: input.status,
    capacity: input.capacity ?? null,
    late_booking_window_minutes: input.late_booking_window_minutes ?? DEFAULT_LATE_BOOKING_WINDOW_MINUTES,
    is_listed: toFlag(input.is_listed) ?? 1,
    created_at: now,
    updated_at: now,
  })
}

/** PUT/PATCH; the gym may be sent again but not changed (an event type stays in its gym). */
export async function changeEventType(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: EventTypeRow,
  body: CheckedBody<Partial<EventTypeInput>>,
): Promise<void> {
  await checkGym(deps, body.fields, body.errors, row)
  const input = body.valid()
  await updateEventType(deps.db, row.id, {
    name: input.name,
    status: input.status,
    capacity: input.capacity,
    late_booking_window_minutes: input.late_booking_window_minutes,
    is_listed: toFlag(input.is_listed),
    updated_at: deps.clock.now().toISOString(),
  })
}
