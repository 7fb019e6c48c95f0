import type { RelationCode } from '../db/schema.ts'
import { MIRRORED_RELATION } from '../domain/relations.ts'
import { type DemoContext, stream } from './context.ts'
import type { Household, Person } from './customers.ts'
import type { Holdings } from './memberships.ts'
import { FEMALE_NAMES, LAST_NAMES, MALE_NAMES, RELATIONS_OF_CONTACTS } from './names.ts'
import type { Catalog } from './products.ts'

/**
 * Family relations in both directions: spouses or partners, parents and children, siblings; a
 * grandparent as guardian now and then, and a few friends across households.
 */
export function buildRelations(ctx: DemoContext, households: readonly Household[]): void {
  const rng = stream(ctx, 'relations')
  const { cal, rows, ids } = ctx
  const singles = households.filter((h) => h.kind === 'single').map((h) => h.adults[0]!)
  const elders = singles.filter((p) => cal.today - p.birthday >= 55 * 365)
  const related = new Set<string>()
  const relate = (a: Person, b: Person, code: RelationCode) => {
    // A pair is related once (the table's UNIQUE pair), as the API's duplicate check keeps it.
    if (a === b || related.has(`${a.id}:${b.id}`)) return
    related.add(`${a.id}:${b.id}`).add(`${b.id}:${a.id}`)
    const day = Math.max(a.createdDay, b.createdDay)
    const at = cal.stamp(day, rng.int(9 * 60, 20 * 60))
    const row = { created_at: at, updated_at: at }
    rows.customer_relations.push({
      id: ids.take('customer_relations'),
      customer_id: a.id,
      related_customer_id: b.id,
      relation: code,
      ...row,
    })
    rows.customer_relations.push({
      id: ids.take('customer_relations'),
      customer_id: b.id,
      related_customer_id: a.id,
      relation: MIRRORED_RELATION[code],
      ...row,
    })
  }
  for (const h of households) {
    const [first, second] = h.adults
    if (first && second) relate(first, second, h.kind === 'family' || rng.chance(0.6) ? 'SPO' : 'PRT')
    for (const kid of h.kids) for (const parent of h.adults) relate(parent, kid, 'CHI')
    h.kids.forEach((kid, i) => h.kids.slice(i + 1).forEach((other) => relate(kid, other, 'SIB')))
    if (h.kids.length > 0 && elders.length > 0 && rng.chance(0.05)) {
      const grandparent = rng.pick(elders)
      for (const kid of h.kids) relate(kid, grandparent, 'GUA')
    } else if (h.kind === 'single' && singles.length > 1 && rng.chance(0.01)) {
      relate(first!, rng.pick(singles), 'OTH')
    }
  }
}

/**
 * Signed waivers. Before the switch to yearly waivers (two years ago) adults signed one that never
 * expires; since then they expire after a year and members mostly renew. A child's waiver, signed
 * by a parent, runs until the 18th birthday. Some customers have none, some only expired ones.
 */
export function buildDocuments(ctx: DemoContext, people: readonly Person[], holdings: Holdings): void {
  const rng = stream(ctx, 'documents')
  const { cal, rows, ids } = ctx
  const switchDay = cal.today - 2 * 365
  const add = (p: Person, name: string, kind: 'waiver' | 'other', signed: number, expires: number | null) => {
    const at = cal.stamp(signed, rng.int(9 * 60, 21 * 60))
    rows.customer_documents.push({
      id: ids.take('customer_documents'),
      customer_id: p.id,
      name,
      kind,
      expiration_date: expires === null ? null : cal.date(expires),
      created_at: at,
      updated_at: at,
    })
  }
  for (const p of people) {
    const member = holdings.covered.has(p.id)
    if (!rng.chance(member ? 0.97 : 0.8)) continue
    if (p.isKid) {
      const eighteen = cal.addMonths(p.birthday, 18 * 12) - 1
      add(p, 'Minor Release and Waiver', 'waiver', p.createdDay, eighteen)
    } else if (p.createdDay < switchDay && rng.chance(0.5)) {
      add(p, 'Liability Waiver (no expiry)', 'waiver', p.createdDay, null)
    } else {
      let signed = p.createdDay
      for (;;) {
        const expires = signed + 365
        add(p, `Annual Liability Waiver ${cal.date(signed).slice(0, 4)}`, 'waiver', signed, expires)
        if (expires >= cal.today || !rng.chance(member ? 0.9 : 0.35)) break
        signed = Math.min(cal.today, expires + rng.int(-20, 60))
      }
    }
    if (rng.chance(0.08)) add(p, 'Photo Release', 'other', p.createdDay, null)
  }
}

const ALERTS = [
  { text: 'Outstanding balance: see a manager before checking in.', color: 'FF0000', prevents: 1, weight: 3 },
  { text: 'Suspended for unsafe belaying until a new belay check.', color: 'FF0000', prevents: 1, weight: 1 },
  { text: 'Needs a belay check before roping up.', color: 'FFA500', prevents: 0, weight: 5 },
  { text: 'Lost locker key: charge the $10 replacement.', color: 'FFA500', prevents: 0, weight: 2 },
  { text: 'Paper waiver on file, scan pending.', color: 'FFA500', prevents: 0, weight: 2 },
  { text: 'Hosting a birthday party this month.', color: '00A651', prevents: 0, weight: 2 },
  { text: 'Youth team athlete: check the practice schedule.', color: '2563EB', prevents: 0, weight: 2 },
] as const

/** Staff notes on about 3% of customers; a few stop check-in, some are resolved (inactive). */
export function buildAlerts(ctx: DemoContext, people: readonly Person[]): void {
  const rng = stream(ctx, 'alerts')
  const { cal, rows, ids } = ctx
  let blockingShown = false
  for (const p of people) {
    if (!rng.chance(0.03)) continue
    const alert = blockingShown ? rng.weighted(ALERTS.map((a) => [a, a.weight] as const)) : ALERTS[0]
    blockingShown = true
    const day = rng.int(p.createdDay, cal.today)
    const at = cal.stamp(day, rng.int(9 * 60, 21 * 60))
    rows.customer_alerts.push({
      id: ids.take('customer_alerts'),
      customer_id: p.id,
      alert_text: alert.text,
      color_hex: alert.color,
      prevents_check_in: alert.prevents,
      is_active: rng.chance(0.8) ? 1 : 0,
      created_date: cal.date(day),
      created_at: at,
      updated_at: at,
    })
  }
}

const MEDICAL = [
  'Asthma: inhaler in the front pocket of the bag.',
  'Recovering from a shoulder injury; no overhead dynos.',
  'Severe peanut allergy; EpiPen in the locker.',
  'Type 1 diabetes; glucose tabs at the front desk.',
  'Previous ankle fracture (2023).',
] as const

/**
 * Emergency contacts (children: a parent), medical notes, store credits, and event vouchers, each
 * the voucher of one of the gym's packs (the sales say who bought it).
 */
export function buildCareRecords(ctx: DemoContext, people: readonly Person[], catalog: Catalog): void {
  const rng = stream(ctx, 'care')
  const { cal, rows, ids } = ctx
  const stampOn = (day: number) => cal.stamp(day, rng.int(9 * 60, 21 * 60))
  const packs = catalog.voucherPacks.filter((pack) => pack.status === 'ACT')
  for (const p of people) {
    const parent = p.isKid ? p.household.adults[0] : undefined
    if (parent || rng.chance(0.35)) {
      const at = stampOn(p.createdDay)
      rows.customer_emergency_contacts.push({
        id: ids.take('customer_emergency_contacts'),
        customer_id: p.id,
        first_name: parent?.firstName ?? rng.pick(rng.chance(0.5) ? FEMALE_NAMES : MALE_NAMES),
        last_name: parent?.lastName ?? rng.pick(LAST_NAMES),
        telephone: parent?.telephone || `(303) 555-01${String(rng.int(0, 99)).padStart(2, '0')}`,
        email: parent?.email ?? '',
        relation: parent ? 'Parent' : rng.pick(RELATIONS_OF_CONTACTS),
        created_at: at,
        updated_at: at,
      })
    }
    if (rng.chance(0.02)) {
      const at = stampOn(p.createdDay)
      rows.customer_medical_notes.push({
        id: ids.take('customer_medical_notes'),
        customer_id: p.id,
        medical_notes: rng.pick(MEDICAL),
        created_at: at,
        updated_at: at,
      })
    }
    if (rng.chance(0.02)) {
      const day = rng.int(p.createdDay, cal.today)
      const total = rng.pick([1000, 2000, 2500, 5000, 10000])
      const at = stampOn(day)
      rows.customer_credits.push({
        id: ids.take('customer_credits'),
        customer_id: p.id,
        amount_total_cents: total,
        amount_remaining_cents: rng.chance(0.5) ? total : rng.int(0, total / 100) * 100,
        expiry_date: rng.chance(0.6) ? cal.date(day + 365) : null,
        is_removed: rng.chance(0.05) ? 1 : 0,
        created_by_id: rng.pick(ctx.staff.deskIds),
        created_at: at,
        updated_at: at,
      })
    }
    if (rng.chance(0.015) && packs.length > 0) {
      const day = rng.int(p.createdDay, cal.today)
      const pack = rng.pick(packs)
      const at = stampOn(day)
      rows.customer_event_vouchers.push({
        id: ids.take('customer_event_vouchers'),
        customer_id: p.id,
        event_type_id: pack.eventTypeId,
        number_of_uses_total: pack.uses,
        number_of_uses_remaining: rng.int(0, pack.uses),
        // Valid for validDays counting the day it was issued, as a sold voucher is (defaultExpiryDate).
        expiry_date: pack.validDays === null ? null : cal.date(day + pack.validDays - 1),
        is_removed: rng.chance(0.05) ? 1 : 0,
        created_by_id: rng.pick(ctx.staff.deskIds),
        created_at: at,
        updated_at: at,
      })
    }
  }
}
