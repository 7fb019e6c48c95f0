import type { Actor } from '../../domain/actor.ts'
import type { Flag } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { messages, type FieldErrorCollector } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { isExpired, localDate } from '../../lib/local-time.ts'
import { toFlag } from '../../db/flags.ts'

/**
 * Rules the customer sub-records (credits, emergency contacts, medical notes, relations, event
 * vouchers) share: the expiry and "date added" strings, timestamps, and fields set once at creation.
 */

type Db = Deps['db']
type ExpiryInput = { expiry_date?: string | null; is_removed?: boolean }

// Fixed English names rather than Intl, so the strings do not vary with the host's ICU data.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** "2026-12-31" -> "Dec 31, 2026": the human-readable dates of expiry_date_str and date_added_str. */
export function humanDate(date: string): string {
  const [year, month, day] = date.split('-')
  return `${MONTHS[Number(month) - 1]} ${Number(day)}, ${year}`
}

export const NO_EXPIRY = 'Never'

/** What a credit or voucher row needs for its computed fields. */
export interface ExpiringRecord {
  expiry_date: string | null
  is_removed: Flag
  created_at: string
  /** The zone its days are read in: the gym's, else the organization's. */
  time_zone: string
}

/**
 * The computed fields of a credit or voucher at `now`: usable through the end of expiry_date in
 * the record's zone, and added on the local day of created_at in that zone.
 */
export function expiryView(row: ExpiringRecord, now: Date) {
  return {
    expiry_date_str: row.expiry_date === null ? NO_EXPIRY : humanDate(row.expiry_date),
    is_expired: isExpired(row.expiry_date, row.time_zone, now),
    date_added_str: humanDate(localDate(new Date(row.created_at), row.time_zone)),
  }
}

/** The columns a credit or voucher takes from expiry_date and is_removed; not sent, not changed. */
export const expiryChanges = (input: ExpiryInput) => ({
  expiry_date: input.expiry_date,
  is_removed: toFlag(input.is_removed),
})

/** The shared columns of a new credit or voucher: no expiry and not removed unless sent. */
export function newExpiringRecord(deps: Pick<Deps, 'clock'>, input: ExpiryInput, actor: Actor) {
  const changes = expiryChanges(input)
  return {
    expiry_date: changes.expiry_date ?? null,
    is_removed: changes.is_removed ?? 0,
    created_by_id: actor.user.id,
    ...creationTimes(deps),
  }
}

/** created_at and updated_at of a new record. */
export function creationTimes(deps: Pick<Deps, 'clock'>) {
  const now = deps.clock.now().toISOString()
  return { created_at: now, updated_at: now }
}

export const updateTime = (deps: Pick<Deps, 'clock'>) => ({ updated_at: deps.clock.now().toISOString() })

/**
 * A field set once at creation may be sent again on PUT/PATCH, but only with the value it has
 * `sent` undefined means not sent, or already refused by its schema.
 */
export function checkUnchanged(
  errors: FieldErrorCollector,
  field: string,
  sent: unknown,
  current: unknown,
): void {
  if (sent !== undefined && sent !== current) errors.add(field, messages.cannotChange)
}

/**
 * PUT/PATCH of a credit or voucher, once its own checks have added their errors: only expiry_date
 * and is_removed ever change; the rest is fixed at creation.
 */
export async function changeExpiry(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: { id: number },
  body: CheckedBody<ExpiryInput>,
  update: (
    db: Db,
    id: number,
    changes: ReturnType<typeof expiryChanges> & { updated_at: string },
  ) => Promise<void>,
): Promise<void> {
  await update(deps.db, row.id, { ...expiryChanges(body.valid()), ...updateTime(deps) })
}

/**
 * Create and change for a record whose columns are its body's fields, with no rule beyond its
 * schema (emergency contacts, medical notes). `defaults` fill optional fields on create; on PUT or
 * PATCH a field not sent keeps its value, as in DRF.
 */
export function plainRecordRules<Input extends object, Row extends { id: number }>(
  store: {
    insert(
      db: Db,
      record: Input & { customer_id: number; created_at: string; updated_at: string },
    ): Promise<number>
    update(db: Db, id: number, changes: Partial<Input> & { updated_at: string }): Promise<void>
  },
  defaults: Partial<Input> = {},
) {
  return {
    create: (deps: Pick<Deps, 'db' | 'clock'>, customerId: number, body: CheckedBody<Input>) =>
      store.insert(deps.db, {
        ...defaults,
        ...body.valid(),
        customer_id: customerId,
        ...creationTimes(deps),
      }),
    change: (deps: Pick<Deps, 'db' | 'clock'>, row: Row, body: CheckedBody<Partial<Input>>) =>
      store.update(deps.db, row.id, { ...body.valid(), ...updateTime(deps) }),
  }
}
