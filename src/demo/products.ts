import type { BillingInterval, ProductStatus, PurchaseType } from '../db/schema.ts'
import { ADD_ONS, ENTRY_PASSES, EVENT_TYPES, MEMBERSHIPS, type MembershipKey } from './catalog.ts'
import { type DemoContext, gymFor } from './context.ts'

export type { MembershipKey } from './catalog.ts'

/** What the holdings generators need to know about a membership type. */
export interface DemoMembershipType {
  id: number
  key: MembershipKey
  status: ProductStatus
  purchaseType: PurchaseType
  interval: BillingInterval
  priceCents: number
  isGroup: boolean
  isYouth: boolean
  duration: { years?: number; months?: number; days?: number } | null
  locationId: number | null
}

export interface DemoAddOn {
  id: string
  name: string
  feeCents: number
  adultsOnly: boolean
  /** Share of covered members who have it. */
  share: number
}

export interface DemoEntryPassType {
  id: number
  key: 'day' | 'youthDay' | 'punch5' | 'punch10' | 'punch20'
  entries: number
  validDays: number | null
  status: ProductStatus
}

export interface DemoEventType {
  id: number
  gymId: number
  key: 'yoga' | 'intro' | 'belay' | 'youth' | 'clinic'
  capacity: number
}

export interface Catalog {
  memberships: Map<MembershipKey, DemoMembershipType>
  addOns: DemoAddOn[]
  entryPasses: DemoEntryPassType[]
  eventTypes: DemoEventType[]
}

/** The product catalog: membership types, add-ons, entry pass types and event types per gym. */
export function buildCatalog(ctx: DemoContext): Catalog {
  const { cal, rows, ids } = ctx
  const stamp = cal.stamp(cal.today - 3 * 365, 10 * 60)
  const catalog: Catalog = { memberships: new Map(), addOns: [], entryPasses: [], eventTypes: [] }

  for (const spec of MEMBERSHIPS) {
    if (spec.gymIndex !== undefined && spec.gymIndex >= ctx.gyms.length) continue
    const id = ids.take('membership_types')
    const locationId = spec.gymIndex === undefined ? null : gymFor(ctx, spec.gymIndex).id
    rows.membership_types.push({
      id,
      name: spec.name,
      description: spec.description,
      status: spec.status ?? 'ACT',
      purchase_type: spec.purchase_type,
      interval: spec.interval ?? '',
      price_cents: spec.price,
      is_group: spec.is_group ? 1 : 0,
      is_youth_programming: spec.is_youth ? 1 : 0,
      duration_years: spec.duration?.years ?? null,
      duration_months: spec.duration?.months ?? null,
      duration_days: spec.duration?.days ?? null,
      location_id: locationId,
      access_hours: spec.access_hours ? JSON.stringify(spec.access_hours) : null,
      guest_passes_per_month: spec.guest_passes ?? 0,
      created_at: stamp,
      updated_at: stamp,
    })
    catalog.memberships.set(spec.key, {
      id,
      key: spec.key,
      status: spec.status ?? 'ACT',
      purchaseType: spec.purchase_type,
      interval: spec.interval ?? '',
      priceCents: spec.price,
      isGroup: spec.is_group ?? false,
      isYouth: spec.is_youth ?? false,
      duration: spec.duration ?? null,
      locationId,
    })
  }

  for (const a of ADD_ONS) {
    const codes = Object.fromEntries(ctx.gyms.map((g) => [String(g.id), `${a.code}-${g.index + 1}`]))
    rows.add_ons.push({
      id: a.id,
      name: a.name,
      fee_cents: a.fee,
      is_visible: a.visible,
      icon_color_hex: a.color,
      icon_initials: a.initials,
      revenue_account_codes: JSON.stringify(codes),
      tax_rate_id: null,
      // Boulder taxes gear rental; elsewhere add-ons are untaxed.
      tax_rate_per_location:
        a.id === 'gear' && ctx.gyms[1] ? JSON.stringify({ [String(ctx.gyms[1].id)]: '0.0386' }) : null,
      created_at: stamp,
      updated_at: stamp,
    })
    catalog.addOns.push({ id: a.id, name: a.name, feeCents: a.fee, adultsOnly: a.adultsOnly, share: a.share })
  }

  for (const p of ENTRY_PASSES) {
    const id = ids.take('entry_pass_types')
    rows.entry_pass_types.push({
      id,
      name: p.name,
      status: p.status,
      number_of_entries: p.entries,
      valid_days: p.validDays,
      price_cents: p.price,
      created_at: stamp,
      updated_at: stamp,
    })
    catalog.entryPasses.push({ id, key: p.key, entries: p.entries, validDays: p.validDays, status: p.status })
  }

  for (const gym of ctx.gyms) {
    for (const e of EVENT_TYPES) {
      const id = ids.take('event_types')
      rows.event_types.push({
        id,
        name: e.name,
        gym_id: gym.id,
        status: e.status,
        capacity: e.capacity,
        late_booking_window_minutes: 15,
        is_listed: e.listed,
        created_at: stamp,
        updated_at: stamp,
      })
      if (e.status === 'ACT') catalog.eventTypes.push({ id, gymId: gym.id, key: e.key, capacity: e.capacity })
    }
  }
  return catalog
}

export function membershipType(catalog: Catalog, key: MembershipKey): DemoMembershipType {
  const type = catalog.memberships.get(key)
  if (!type) throw new Error(`demo catalog has no ${key} membership`)
  return type
}
