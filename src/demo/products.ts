import type { BillingInterval, ProductStatus, PurchaseType } from '../db/schema.ts'
import type { AccessWindow } from '../domain/access-hours.ts'
import type { DiscountTerms } from '../domain/invoice-money.ts'
import {
  ADD_ONS,
  ENTRY_PASSES,
  EVENT_CATEGORIES,
  EVENT_TYPES,
  MEMBERSHIPS,
  type MembershipKey,
} from './catalog.ts'
import {
  DISCOUNTS,
  RETAIL,
  REVENUE_ACCOUNTS,
  TAX_RATES,
  type TaxKey,
  VOUCHER_PACKS,
} from './sales-catalog.ts'
import { type DemoContext, gymFor } from './context.ts'

export type { MembershipKey } from './catalog.ts'

/** A product's terms of sale, which an invoice line copies as they were on the day it was sold. */
export interface Terms {
  description: string
  unitPriceCents: number
  taxRateId: number | null
  taxRateBasisPoints: number
  revenueAccountCode: string
}

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
  /** When it lets its members in (null: any time the gym is open) */
  accessHours: readonly AccessWindow[] | null
  guestPassesPerMonth: number
  terms: Terms
}

export interface DemoAddOn {
  id: string
  name: string
  feeCents: number
  adultsOnly: boolean
  /** Share of covered members who have it. */
  share: number
  /** Its terms of sale at each gym, by gym id (revenue accounts and tax differ by gym). */
  terms: Record<number, Terms>
}

export interface DemoEntryPassType {
  id: number
  key: 'day' | 'youthDay' | 'punch5' | 'punch10' | 'punch20'
  entries: number
  validDays: number | null
  status: ProductStatus
  terms: Terms
}

export interface DemoEventType {
  id: number
  gymId: number
  key: 'yoga' | 'intro' | 'belay' | 'youth' | 'clinic'
  name: string
  capacity: number
  /** What its events charge for a booking (0: included, nothing to sell). */
  priceCents: number
}

export interface DemoVoucherPack {
  id: number
  gymId: number
  status: ProductStatus
  eventTypeId: number
  uses: number
  validDays: number | null
  terms: Terms
}

export interface DemoDiscount {
  id: number
  code: string
  name: string
  displayName: string
  associationId: number | null
  isActive: boolean
  terms: DiscountTerms
}

export interface DemoRetailItem {
  terms: Terms
  /** How often it sells, relative to the other items. */
  weight: number
  /** The most of it one sale takes. */
  most: number
}

export interface Catalog {
  memberships: Map<MembershipKey, DemoMembershipType>
  addOns: DemoAddOn[]
  entryPasses: DemoEntryPassType[]
  eventTypes: DemoEventType[]
  voucherPacks: DemoVoucherPack[]
  discounts: DemoDiscount[]
  retail: DemoRetailItem[]
}

/**
 * The product catalog: tax rates and discounts, membership types, add-ons, entry pass types, event
 * types and voucher packs per gym, and the retail the desk sells. Every row is dated before the
 * demo's history begins (earlier memberships reach back about six years).
 */
export function buildCatalog(ctx: DemoContext): Catalog {
  const { cal, rows, ids } = ctx
  const stamp = cal.stamp(cal.today - 7 * 365, 10 * 60)
  const catalog: Catalog = {
    memberships: new Map(),
    addOns: [],
    entryPasses: [],
    eventTypes: [],
    voucherPacks: [],
    discounts: [],
    retail: [],
  }

  const taxRates = {} as Record<TaxKey, { id: number; basisPoints: number }>
  for (const rate of TAX_RATES) {
    const id = ids.take('tax_rates')
    rows.tax_rates.push({
      id,
      name: rate.name,
      rate_basis_points: rate.basisPoints,
      is_active: 1,
      created_at: stamp,
      updated_at: stamp,
    })
    taxRates[rate.key] = { id, basisPoints: rate.basisPoints }
  }
  const terms = (description: string, price: number, tax: TaxKey | null, code: string): Terms => ({
    description,
    unitPriceCents: price,
    taxRateId: tax === null ? null : taxRates[tax].id,
    taxRateBasisPoints: tax === null ? 0 : taxRates[tax].basisPoints,
    revenueAccountCode: code,
  })

  for (const d of DISCOUNTS) {
    const id = ids.take('discounts')
    const percent = 'percent' in d ? d.percent : null
    const amount = 'amount' in d ? d.amount : null
    rows.discounts.push({
      id,
      code: d.code,
      name: d.name,
      display_name: d.display_name,
      association_id: d.association_id,
      percent_off_hundredths: percent,
      amount_off_cents: amount,
      is_active: d.active ? 1 : 0,
      created_at: stamp,
      updated_at: stamp,
    })
    catalog.discounts.push({
      id,
      code: d.code,
      name: d.name,
      displayName: d.display_name,
      associationId: d.association_id,
      isActive: d.active,
      terms: percent !== null ? { percentOffHundredths: percent } : { amountOffCents: amount! },
    })
  }

  for (const item of RETAIL)
    catalog.retail.push({
      terms: terms(item.name, item.price, item.tax, item.code),
      weight: item.weight,
      most: item.most,
    })

  for (const spec of MEMBERSHIPS) {
    if (spec.gymIndex !== undefined && spec.gymIndex >= ctx.gyms.length) continue
    const id = ids.take('membership_types')
    const locationId = spec.gymIndex === undefined ? null : gymFor(ctx, spec.gymIndex).id
    const code = spec.purchase_type === 'PRE' ? REVENUE_ACCOUNTS.prepaid : REVENUE_ACCOUNTS.membership
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
      tax_rate_id: null,
      revenue_account_code: code,
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
      accessHours: spec.access_hours ?? null,
      guestPassesPerMonth: spec.guest_passes ?? 0,
      terms: terms(spec.name, spec.price, null, code),
    })
  }

  for (const a of ADD_ONS) {
    const codes = Object.fromEntries(ctx.gyms.map((g) => [String(g.id), `${a.code}-${g.index + 1}`]))
    // Boulder taxes gear rental, at the rental rate; elsewhere add-ons are untaxed.
    const taxedAt = a.id === 'gear' ? ctx.gyms[1] : undefined
    const rental = taxRates.rental
    rows.add_ons.push({
      id: a.id,
      name: a.name,
      fee_cents: a.fee,
      is_visible: a.visible,
      icon_color_hex: a.color,
      icon_initials: a.initials,
      revenue_account_codes: JSON.stringify(codes),
      tax_rate_id: null,
      tax_rate_per_location: taxedAt
        ? JSON.stringify({ [String(taxedAt.id)]: (rental.basisPoints / 10_000).toFixed(4) })
        : null,
      created_at: stamp,
      updated_at: stamp,
    })
    catalog.addOns.push({
      id: a.id,
      name: a.name,
      feeCents: a.fee,
      adultsOnly: a.adultsOnly,
      share: a.share,
      terms: Object.fromEntries(
        ctx.gyms.map((g) => [
          g.id,
          terms(a.name, a.fee, g === taxedAt ? 'rental' : null, codes[String(g.id)]!),
        ]),
      ),
    })
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
      tax_rate_id: null,
      revenue_account_code: REVENUE_ACCOUNTS.entryPass,
      created_at: stamp,
      updated_at: stamp,
    })
    catalog.entryPasses.push({
      id,
      key: p.key,
      entries: p.entries,
      validDays: p.validDays,
      status: p.status,
      terms: terms(p.name, p.price, null, REVENUE_ACCOUNTS.entryPass),
    })
  }

  const categoryIds = {} as Record<(typeof EVENT_CATEGORIES)[number]['key'], number>
  for (const category of EVENT_CATEGORIES) {
    const id = ids.take('event_categories')
    rows.event_categories.push({
      id,
      name: category.name,
      is_removed: 0,
      created_at: stamp,
      updated_at: stamp,
    })
    categoryIds[category.key] = id
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
        schedule_type: e.schedule,
        created_at: stamp,
        updated_at: stamp,
      })
      for (const key of e.categories) {
        rows.event_type_categories.push({ event_type_id: id, event_category_id: categoryIds[key] })
      }
      if (e.status === 'ACT')
        catalog.eventTypes.push({
          id,
          gymId: gym.id,
          key: e.key,
          name: e.name,
          capacity: e.capacity,
          priceCents: e.price,
        })
    }
    for (const pack of VOUCHER_PACKS) {
      const eventType = catalog.eventTypes.find((t) => t.gymId === gym.id && t.key === pack.eventKey)!
      const id = ids.take('voucher_packs')
      const name = `${pack.name}, ${gym.name.replace('Granite Peak ', '')}`
      rows.voucher_packs.push({
        id,
        name,
        status: pack.status,
        event_type_id: eventType.id,
        number_of_uses: pack.uses,
        valid_days: pack.validDays,
        price_cents: pack.price,
        tax_rate_id: null,
        revenue_account_code: REVENUE_ACCOUNTS.event,
        created_at: stamp,
        updated_at: stamp,
      })
      catalog.voucherPacks.push({
        id,
        gymId: gym.id,
        status: pack.status,
        eventTypeId: eventType.id,
        uses: pack.uses,
        validDays: pack.validDays,
        terms: terms(name, pack.price, null, REVENUE_ACCOUNTS.event),
      })
    }
  }
  return catalog
}

export function membershipType(catalog: Catalog, key: MembershipKey): DemoMembershipType {
  const type = catalog.memberships.get(key)
  if (!type) throw new Error(`demo catalog has no ${key} membership`)
  return type
}
