import { loadOrganization } from '../organization/queries.ts'
import type { Static } from 'elysia'
import { DateTime } from 'luxon'
import { getEventType } from '../event-types/queries.ts'
import { insertEvent, updateEvent, type EventFilters, type EventRow } from './queries.ts'
import { INSTANT_PATTERN, type EventWrite } from './schema.ts'
import { lookUpGym } from '../gyms/queries.ts'
import type { Deps } from '../../deps.ts'
import { closeWaitlistIn } from '../../core/classes/booking.ts'
import { promoteForTypeIn } from '../../core/classes/waitlist.ts'
import { messages, ValidationError, type FieldErrors } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { isIsoDate } from '../../lib/local-time.ts'
import { startOfLocalDay } from '../../lib/local-time.ts'
import { toFlag } from '../../db/flags.ts'
import { lookUpReferenced } from '../../http/references.ts'
import { checkSaleTerms, newSaleTerms } from '../sellable-products/rules.ts'

type EventInput = Static<typeof EventWrite>

export const eventMessages = {
  endBeforeStart: 'The end must be after the start.',
  filterDateTime: 'Enter a valid date/time.',
}

const instantShape = new RegExp(INSTANT_PATTERN)

/** An ISO instant with an offset as the API stores it (UTC, milliseconds, Z); null when invalid. */
export function toUtcInstant(value: string): string | null {
  if (!instantShape.test(value)) return null
  const parsed = DateTime.fromISO(value, { setZone: true })
  return parsed.isValid ? parsed.toJSDate().toISOString() : null
}

/**
 * The rules a schema cannot say: the event type and gym exist, the terms it is sold on, the times
 * are real instants, and the event ends after it starts (judged on the whole resulting record
 * for PATCH).
 */
async function checkEvent(
  deps: Pick<Deps, 'db'>,
  body: CheckedBody<Partial<EventInput>>,
  existing?: EventRow,
) {
  const { fields, errors } = body
  const type = await lookUpReferenced(errors, 'event_type_id', fields.event_type_id, (id) =>
    getEventType(deps.db, id),
  )
  await lookUpGym(deps.db, errors, 'gym_id', fields.gym_id)
  const saleTerms = await checkSaleTerms(deps.db, fields, errors)
  const times: { start_at?: string; end_at?: string } = {}
  for (const name of ['start_at', 'end_at'] as const) {
    const value = fields[name]
    if (value === undefined) continue
    const instant = toUtcInstant(value)
    if (instant === null) errors.add(name, messages.datetime)
    else times[name] = instant
  }
  const start = times.start_at ?? (fields.start_at === undefined ? existing?.start_at : undefined)
  const end = times.end_at ?? (fields.end_at === undefined ? existing?.end_at : undefined)
  if (start !== undefined && end !== undefined && end <= start)
    errors.add('end_at', eventMessages.endBeforeStart)
  return { type, saleTerms, ...times }
}

export async function createEvent(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<EventInput>,
): Promise<number> {
  const checked = await checkEvent(deps, body)
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return insertEvent(deps.db, {
    event_type_id: input.event_type_id,
    gym_id: input.gym_id ?? checked.type!.gym_id,
    name: input.name ?? checked.type!.name,
    start_at: checked.start_at!,
    end_at: checked.end_at!,
    includes_entry: toFlag(input.includes_entry) ?? 1,
    is_cancelled: toFlag(input.is_cancelled) ?? 0,
    capacity: input.capacity ?? null,
    ...newSaleTerms(checked.saleTerms),
    created_at: now,
    updated_at: now,
  })
}

/** PUT/PATCH; fields left out keep their values. Setting is_cancelled cancels the event. */
export async function changeEvent(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: EventRow,
  body: CheckedBody<Partial<EventInput>>,
): Promise<void> {
  const checked = await checkEvent(deps, body, row)
  const input = body.valid()
  const now = deps.clock.now()
  await deps.db.transaction().execute(async (trx) => {
    await updateEvent(trx, row.id, {
      event_type_id: input.event_type_id,
      gym_id: input.gym_id,
      name: input.name,
      start_at: checked.start_at,
      end_at: checked.end_at,
      includes_entry: toFlag(input.includes_entry),
      is_cancelled: toFlag(input.is_cancelled),
      capacity: input.capacity,
      ...checked.saleTerms,
      updated_at: now.toISOString(),
    })
    // A cancelled event's waiting customers wait no more; a raised capacity, moved times or a
    // cancellation may open spots to the waiting here and at the type's overlapping events.
    if (input.is_cancelled === true && row.is_cancelled === 0)
      await closeWaitlistIn(trx, row.id, now.toISOString())
    await promoteForTypeIn(trx, row.event_type_id, now)
  })
}

/** `starts_after`/`starts_before` as given: an instant with its offset, or a date (organization-local). */
export type EventTimeFilters = { starts_after?: string; starts_before?: string }

/** Checks the time filters' format (a 400 on the parameter, as django-filter gives). */
export function checkEventTimeFilters(query: Record<string, string | undefined>): FieldErrors {
  const errors: FieldErrors = {}
  for (const name of ['starts_after', 'starts_before'] as const) {
    const value = query[name]?.trim()
    if (value && !isIsoDate(value) && toUtcInstant(value) === null)
      errors[name] = [eventMessages.filterDateTime]
  }
  return errors
}

/** The filters as the queries take them: a date becomes the first instant of that local day. */
export async function resolveEventFilters(
  deps: Pick<Deps, 'db'>,
  filters: Omit<EventFilters, keyof EventTimeFilters> & EventTimeFilters,
): Promise<EventFilters> {
  const resolved: EventFilters = { ...filters }
  for (const name of ['starts_after', 'starts_before'] as const) {
    const value = filters[name]?.trim()
    if (!value) continue
    resolved[name] = isIsoDate(value)
      ? new Date(startOfLocalDay(value, (await loadOrganization(deps.db)).time_zone)).toISOString()
      : toUtcInstant(value)!
  }
  return resolved
}

export const throwFilterErrors = (errors: FieldErrors) => {
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
}
