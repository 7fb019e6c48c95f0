import type { Database as BunDatabase } from 'bun:sqlite'
import { compiledStatement } from '../../db/compiled-statement.ts'
import { readAccessHours } from '../../domain/access-hours.ts'
import type { ReasonMembership, RefusalFacts } from './facts.ts'

/**
 * The reads behind a refusal's reasons (reasons.ts): run by the desk's check-ins only once the
 * decision has refused, inside the same transaction, so the door's own scans never pay for them.
 * Single-table reads by index, joined here, as the door's are (queries.ts).
 */

const waiverExpirations = compiledStatement((db, p: { customerId: number }) =>
  db
    .selectFrom('customer_documents')
    .select('expiration_date')
    .where('customer_id', '=', p.customerId)
    .where('kind', '=', 'waiver'),
)

const everyCover = compiledStatement((db, p: { customerId: number }) =>
  db
    .selectFrom('membership_members')
    .select(['customer_membership_id', 'is_frozen'])
    .where('customer_id', '=', p.customerId),
)

const membership = compiledStatement((db, p: { id: number }) =>
  db
    .selectFrom('customer_memberships')
    .innerJoin('membership_types', 'membership_types.id', 'customer_memberships.membership_type_id')
    .select([
      'customer_memberships.status',
      'customer_memberships.start_date',
      'customer_memberships.end_date',
      'membership_types.name',
      'membership_types.purchase_type',
      'membership_types.access_hours',
    ])
    .where('customer_memberships.id', '=', p.id),
)

const passes = compiledStatement((db, p: { customerId: number }) =>
  db
    .selectFrom('customer_entry_passes')
    .innerJoin('entry_pass_types', 'entry_pass_types.id', 'customer_entry_passes.entry_pass_type_id')
    .select([
      'customer_entry_passes.id',
      'entry_pass_types.name',
      'customer_entry_passes.entries_remaining',
      'customer_entry_passes.expiry_date',
    ])
    .where('customer_entry_passes.owner_id', '=', p.customerId),
)

/** Reads what a refusal's reasons need about the customer. */
export function readRefusalFacts(sqlite: BunDatabase, customerId: number): RefusalFacts {
  const expirations = waiverExpirations.all(sqlite, { customerId }).map((w) => w.expiration_date)
  // A waiver without an expiration date never expires: the customer is not refused for a waiver then.
  const waiverExpiredOn =
    expirations.length === 0 || expirations.includes(null)
      ? null
      : expirations.reduce((latest, d) => (d! > latest! ? d : latest))!
  const memberships: ReasonMembership[] = everyCover
    .all(sqlite, { customerId })
    .sort((a, b) => a.customer_membership_id - b.customer_membership_id)
    .map((cover) => {
      const m = membership.get(sqlite, { id: cover.customer_membership_id })!
      return {
        name: m.name,
        status: m.status,
        member_is_frozen: cover.is_frozen === 1,
        start_date: m.start_date,
        end_date: m.end_date,
        purchase_type: m.purchase_type,
        access_hours: readAccessHours(m.access_hours),
      }
    })
  const newest = passes
    .all(sqlite, { customerId })
    .reduce<ReturnType<typeof passes.all>[number] | null>(
      (latest, p) => (latest === null || p.id > latest.id ? p : latest),
      null,
    )
  return {
    waiverExpiredOn,
    memberships,
    latestPass:
      newest === null
        ? null
        : { name: newest.name, entries_remaining: newest.entries_remaining, expiry_date: newest.expiry_date },
  }
}
