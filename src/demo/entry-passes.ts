import { type DemoContext, stream } from './context.ts'
import type { Person } from './customers.ts'
import type { Holdings } from './memberships.ts'
import { applianceDay } from './organization.ts'
import type { Catalog, DemoEntryPassType } from './products.ts'

/**
 * Entry passes, mostly for people without a live membership: day passes (nearly all used), punch
 * cards (some used up, some expired with entries left). Parents buy their children's passes and a
 * few passes are gifts, so the purchaser is not always the owner.
 */
export function buildEntryPasses(
  ctx: DemoContext,
  people: readonly Person[],
  catalog: Catalog,
  holdings: Holdings,
): void {
  const rng = stream(ctx, 'entry-passes')
  const { cal, rows, ids } = ctx
  const byKey = (key: DemoEntryPassType['key']) => catalog.entryPasses.find((p) => p.key === key)!
  const adults = people.filter((p) => !p.isKid)
  for (const owner of people) {
    if (!rng.chance(holdings.covered.has(owner.id) ? 0.03 : 0.16)) continue
    const count = rng.chance(0.15) ? 2 : 1
    for (let n = 0; n < count; n++) {
      const type = owner.isKid
        ? byKey(rng.chance(0.8) ? 'youthDay' : 'punch5')
        : byKey(
            rng.weighted([
              ['day', 50],
              ['punch5', 20],
              ['punch10', 22],
              ['punch20', 8],
            ] as const),
          )
      // The retired card was sold until a year ago.
      const lastSale = type.status === 'RET' ? cal.today - 365 : cal.today
      const bought = rng.int(Math.max(applianceDay(cal), Math.min(owner.createdDay, lastSale - 30)), lastSale)
      // Valid for validDays counting the day it was bought, as a sold pass is (defaultExpiryDate).
      const expires = type.validDays === null ? null : bought + type.validDays - 1
      // One entry a day at most (the gyms combine a day's check-ins), so a new card has had few.
      const usableDays = Math.min(expires ?? cal.today, cal.today) - bought + 1
      const drawn =
        type.entries === 1
          ? bought < cal.today || rng.chance(0.5)
            ? 1
            : 0
          : expires !== null && expires < cal.today
            ? rng.int(Math.floor(type.entries / 2), type.entries)
            : rng.chance(0.3)
              ? type.entries
              : rng.int(0, type.entries - 1)
      const used = Math.min(drawn, usableDays)
      const parent = owner.isKid ? owner.household.adults[0] : undefined
      const giver = !parent && rng.chance(0.08) ? rng.pick(adults) : undefined
      const purchaser = parent ?? (giver && giver !== owner ? giver : owner)
      const via =
        purchaser !== owner && !parent
          ? 'gift'
          : rng.weighted([
              ['purchase', 88],
              ['manual', 8],
              ['code', 4],
            ] as const)
      const at = cal.stamp(bought, rng.int(9 * 60, 21 * 60))
      owner.active = true
      owner.createdDay = Math.min(owner.createdDay, bought)
      rows.customer_entry_passes.push({
        id: ids.take('customer_entry_passes'),
        entry_pass_type_id: type.id,
        owner_id: owner.id,
        purchaser_id: via === 'manual' || via === 'code' ? null : purchaser.id,
        entries_total: type.entries,
        entries_remaining: type.entries - used,
        expiry_date: expires === null ? null : cal.date(expires),
        acquired_via: via,
        invoice_id: null,
        created_by_id: via === 'manual' ? rng.pick(ctx.staff.deskIds) : null,
        created_at: at,
        updated_at: used > 0 ? cal.stamp(rng.int(bought, cal.today), 20 * 60) : at,
      })
    }
  }
}
