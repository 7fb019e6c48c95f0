import { expressionBuilder, sql } from 'kysely'
import type { Database, EntryMethod } from '../../../db/schema.ts'

/** The kinds of product a check-in can be made with, each one product table. */
export type CheckInProductKind = 'membership' | 'entry_pass' | 'event'

/**
 * The product a check-in of each entry method was made with: a membership's type, an entry pass's
 * type, the event type of the reservation's event, and for a guest the host's membership type (the
 * membership grants the guest pass). Free entry and migrated history record no product.
 */
export const CHECK_IN_PRODUCT_KINDS: Record<EntryMethod, CheckInProductKind | null> = {
  MEM: 'membership',
  ENT: 'entry_pass',
  EVE: 'event',
  GUE: 'membership',
  FRE: null,
  MIG: null,
}

const tables = expressionBuilder<Database, never>()

/** The id of the product (membership type, entry pass type, event type) of the check-in `alias`. */
export function checkInProductId(kind: CheckInProductKind, alias: string) {
  const checkIn = (column: string) => sql.ref<number>(`${alias}.${column}`)
  switch (kind) {
    case 'membership':
      return tables
        .selectFrom('customer_memberships')
        .select('membership_type_id as product_id')
        .where('id', '=', checkIn('customer_membership_id'))
    case 'entry_pass':
      return tables
        .selectFrom('customer_entry_passes')
        .select('entry_pass_type_id as product_id')
        .where('id', '=', checkIn('customer_entry_pass_id'))
    case 'event':
      return tables
        .selectFrom('reservations')
        .innerJoin('events', 'events.id', 'reservations.event_id')
        .select('events.event_type_id as product_id')
        .where('reservations.id', '=', checkIn('reservation_id'))
  }
}

/**
 * The id of the product the check-in `alias` was made with, whatever its entry method: each
 * method's kind of product read as checkInProductId reads it, 0 for the methods with none.
 */
export function anyCheckInProductId(alias: string) {
  const method = sql.ref<EntryMethod>(`${alias}.entry_method`)
  const kinds = [...new Set(Object.values(CHECK_IN_PRODUCT_KINDS))].filter((kind) => kind !== null)
  const arms = kinds.map((kind) => {
    const methods = Object.entries(CHECK_IN_PRODUCT_KINDS)
      .filter(([, hers]) => hers === kind)
      .map(([entryMethod]) => sql.lit(entryMethod))
    return sql`WHEN ${method} IN (${sql.join(methods)}) THEN ${checkInProductId(kind, alias)}`
  })
  return sql<number>`coalesce(CASE ${sql.join(arms, sql` `)} END, 0)`
}
