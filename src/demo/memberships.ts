import type { MembershipStatus } from '../db/schema.ts'
import { ALL_STATUSES, EXCLUDED_STATUSES } from '../domain/membership-status.ts'
import { type DemoContext, gymFor, stream } from './context.ts'
import { joinedBy, type Household, type Person } from './customers.ts'
import { type StatusChange, timelineFor } from './membership-timeline.ts'
import {
  type Catalog,
  type DemoAddOn,
  type DemoMembershipType,
  type MembershipKey,
  membershipType,
} from './products.ts'
import type { Random } from './random.ts'

/** Who holds what, for the generators that run after memberships (waivers, passes, sales). */
export interface Holdings {
  /** Customers covered by a membership the members report lists (active, frozen, failed). */
  covered: Set<number>
  /** Every membership with what its sales need, in the order made. */
  memberships: HeldMembership[]
}

/** A membership as its invoices need it: who pays for what, where, and its history. */
export interface HeldMembership {
  id: number
  type: DemoMembershipType
  owner: Person
  status: MembershipStatus
  start: number
  /** The row's end_date as a day: the end of the period it is in, or when it ended */
  end: number | null
  /** When it was made at the desk (the row's created_at) */
  createdMs: number
  /** Its own history (member rows frozen on their own are not in it) */
  changes: StatusChange[]
  /** Who it covers (its membership_members rows) */
  members: Person[]
  /** A member frozen on their own, and from which day (the membership itself stays active) */
  frozenMember: { person: Person; day: number } | null
  /** One period's price for this membership (some members have a reduced rate) */
  priceCents: number
  /** The add-ons of its members, each charged with the membership */
  addOns: DemoAddOn[]
  /** Where it is billed: its billing location, or the owner's gym when it has none */
  gymId: number
}

const CURRENT_STATUS: Record<'REC' | 'PRE' | 'BEN', readonly (readonly [MembershipStatus, number])[]> = {
  REC: [
    ['ACT', 68],
    ['IPP', 1.5],
    ['PPR', 2.5],
    ['FRZ', 6],
    ['FPR', 1],
    ['PAF', 4],
    ['FPF', 0.8],
    ['PAY', 2],
    ['IPC', 1],
    ['CAN', 6],
    ['END', 4],
    ['DEN', 1],
  ],
  PRE: [
    ['ACT', 70],
    ['IPP', 2],
    ['FRZ', 4],
    ['PAY', 3],
    ['IPC', 1],
    ['CAN', 4],
    ['END', 14],
    ['DEN', 1],
  ],
  BEN: [
    ['ACT', 85],
    ['END', 15],
  ],
}

/** A retired type is no longer sold: nobody is starting, awaiting or being denied one. */
const NOT_FOR_RETIRED: readonly MembershipStatus[] = ['IPP', 'PAY', 'IPC', 'DEN']
const LIVE: ReadonlySet<MembershipStatus> = new Set(
  ALL_STATUSES.filter((s) => !EXCLUDED_STATUSES.includes(s)),
)
const BILLED_NOW: ReadonlySet<MembershipStatus> = new Set(['ACT', 'IPP', 'PPR', 'PAF', 'PAY', 'IPC'])
const FROZEN: ReadonlySet<MembershipStatus> = new Set(['FRZ', 'FPR', 'FPF'])
/** What a recurring membership is billed each period it is frozen, and when a freeze begins. */
export const FREEZE_FEE_CENTS = 1000

/**
 * Memberships for about half the households (solo, duo, family, youth), earlier memberships that
 * ended or were cancelled, and a few that never started. Every status appears at least once: the
 * first ordinary recurring memberships take them in turn.
 */
export function buildMemberships(
  ctx: DemoContext,
  catalog: Catalog,
  households: readonly Household[],
): Holdings {
  const rng = stream(ctx, 'memberships')
  const { cal, rows, ids } = ctx
  const holdings: Holdings = { covered: new Set(), memberships: [] }
  const forced = [...ALL_STATUSES]
  let frozenMemberShown = false
  const pastOwners: number[] = []

  for (const h of households) {
    if (rng.chance(0.5)) {
      for (const [type, owner, covered] of currentPlans(h)) {
        const status = drawStatus(type)
        const start = create(type, owner, covered, status, cal.today, owner.createdDay)
        // Some came back: an earlier membership that ended or was cancelled before this one.
        if (rng.chance(0.18) && !owner.isKid) {
          const last = start - 1 - rng.int(0, 90)
          create(soloType(owner, true), owner, [owner], rng.chance(0.6) ? 'END' : 'CAN', last, last - 700)
        }
      }
    } else if (rng.chance(0.35)) {
      const owner = h.adults[0] ?? h.kids[0]!
      const status = rng.weighted([
        ['END', 58],
        ['CAN', 36],
        ['DEN', 6],
      ] as const)
      create(soloType(owner, true), owner, [owner], status, cal.today, owner.createdDay)
    }
  }
  return holdings

  function currentPlans(h: Household): [DemoMembershipType, Person, Person[]][] {
    const plans: [DemoMembershipType, Person, Person[]][] = []
    const solo = (p: Person) => plans.push([soloType(p, false), p, [p]])
    const [first, second] = h.adults
    if (h.kind === 'single' && first) solo(first)
    else if (h.kind === 'couple' && first && second) {
      if (rng.chance(0.45)) plans.push([membershipType(catalog, 'duo'), first, [first, second]])
      else for (const a of h.adults) if (rng.chance(0.7)) solo(a)
    } else if (first) {
      if (rng.chance(0.55)) {
        // A parent who does not climb may still pay for the family: then only the others are covered.
        const covered = [
          ...h.adults.filter((a) => a !== first || rng.chance(0.92)),
          ...h.kids.filter(() => rng.chance(0.85)),
        ]
        plans.push([membershipType(catalog, 'family'), first, covered.length ? covered : [first]])
      } else {
        for (const a of h.adults) if (rng.chance(0.55)) solo(a)
        for (const k of h.kids) if (age(k) >= 6 && rng.chance(0.35)) solo(k)
      }
    }
    return plans
  }

  function soloType(p: Person, past: boolean): DemoMembershipType {
    const years = age(p)
    if (p.isKid) return membershipType(catalog, years >= 8 && rng.chance(0.3) ? 'youthTeam' : 'youthMonthly')
    const home = p.homeGym?.index
    const weights: [MembershipKey, number][] = [
      ['monthly', 30],
      ['annual', 10],
      ['fourWeek', 6],
      ['studentWeekly', years <= 26 ? 12 : 0],
      ['biweekly', 4],
      ['quarterly', 3],
      ['halfYear', 2],
      ['offPeak', years >= 55 ? 15 : 6],
      ['boulderOnly', home === 1 ? 10 : 0],
      ['goldenOnly', home === 2 ? 10 : 0],
      // Founders rates went to the first customers; past memberships were often on it.
      ['legacy', past ? 10 : p.createdDay < cal.today - 3 * 365 ? 12 : 0],
      ['intro30', past ? 10 : 4],
      ['prepaid3', 5],
      ['prepaidYear', 4],
      ['staffBenefit', 0.6],
    ]
    return membershipType(
      catalog,
      rng.weighted(weights.filter(([key, w]) => w > 0 && catalog.memberships.has(key))),
    )
  }

  function drawStatus(type: DemoMembershipType): MembershipStatus {
    if (type.purchaseType === 'REC' && type.status === 'ACT' && forced.length > 0) return forced.shift()!
    const status = rng.weighted(CURRENT_STATUS[type.purchaseType])
    return type.status === 'RET' && NOT_FOR_RETIRED.includes(status) ? 'ACT' : status
  }

  function age(p: Person): number {
    return Math.floor((cal.today - p.birthday) / 365.25)
  }

  /** One customer membership with its members, add-ons and history. Returns its start day. */
  function create(
    type: DemoMembershipType,
    owner: Person,
    covered: Person[],
    status: MembershipStatus,
    last: number,
    from: number,
  ): number {
    const id = ids.take('customer_memberships')
    const t = timelineFor(status, type, from, last, cal, rng)
    joinedBy([owner, ...covered], Math.min(t.start, t.changes[0]!.day))

    let lastDay = t.changes.at(-1)!.day
    const addOns: DemoAddOn[] = []
    const frozenMember =
      status === 'ACT' && type.isGroup && covered.length >= 2 && (!frozenMemberShown || rng.chance(0.12))
        ? (covered.find((p) => p !== owner && rng.chance(0.7)) ?? covered[covered.length - 1]!)
        : null
    for (const person of covered) {
      const memberId = ids.take('membership_members')
      rows.membership_members.push({
        id: memberId,
        customer_membership_id: id,
        customer_id: person.id,
        is_frozen: person === frozenMember ? 1 : 0,
      })
      for (const addOn of catalog.addOns) {
        if ((addOn.adultsOnly && person.isKid) || !rng.chance(addOn.share)) continue
        rows.membership_member_add_ons.push({ membership_member_id: memberId, add_on_id: addOn.id })
        addOns.push(addOn)
      }
      if (LIVE.has(status)) holdings.covered.add(person.id)
    }

    const minute = rng.int(9 * 60, 18 * 60)
    t.changes.forEach((c, i) => pushChange(id, null, c.from, c.to, c.day, c.byStaff, minute + i * 5))
    if (frozenMember) {
      frozenMemberShown = true
      lastDay = rng.int(Math.max(lastDay, cal.today - 60), cal.today)
      pushChange(id, frozenMember.id, 'ACT', 'FRZ', lastDay, true, minute + t.changes.length * 5)
    }

    const recurring = type.purchaseType === 'REC'
    const discounted = recurring && rng.chance(0.1)
    const price = discounted ? Math.round((type.priceCents * rng.pick([85, 90])) / 100) : type.priceCents
    const addOnFees = addOns.reduce((sum, addOn) => sum + addOn.feeCents, 0)
    const billing = !recurring
      ? 0
      : BILLED_NOW.has(status)
        ? price + addOnFees
        : FROZEN.has(status)
          ? FREEZE_FEE_CENTS
          : 0
    const firstDay = Math.min(t.start, t.changes[0]!.day)
    const referrer = pastOwners.length > 10 && rng.chance(0.05) ? rng.pick(pastOwners) : null
    const billingLocation = rng.chance(0.03)
      ? null
      : (type.locationId ?? owner.homeGym?.id ?? gymFor(ctx, 0).id)
    const createdAt = cal.stamp(firstDay, minute)
    rows.customer_memberships.push({
      id,
      membership_type_id: type.id,
      owner_id: owner.id,
      status,
      start_date: cal.date(t.start),
      end_date: t.end === null ? null : cal.date(t.end),
      billing_location_id: billingLocation,
      has_payment_method: paymentMethod(rng, type, status) ? 1 : 0,
      is_pending_staff_approval:
        (status === 'PAY' || status === 'IPC') && (type.isYouth || rng.chance(0.15)) ? 1 : 0,
      billing_amount_cents: billing,
      discount_association_id: null,
      referring_customer_id: referrer === owner.id ? null : referrer,
      created_at: createdAt,
      updated_at: cal.stamp(lastDay, 20 * 60),
    })
    holdings.memberships.push({
      id,
      type,
      owner,
      status,
      start: t.start,
      end: t.end,
      createdMs: Date.parse(createdAt),
      changes: t.changes,
      members: covered,
      frozenMember: frozenMember && { person: frozenMember, day: lastDay },
      priceCents: price,
      addOns,
      gymId: billingLocation ?? owner.homeGym?.id ?? gymFor(ctx, 0).id,
    })
    pastOwners.push(owner.id)
    return t.start
  }

  function pushChange(
    membershipId: number,
    memberId: number | null,
    from: MembershipStatus | null,
    to: MembershipStatus,
    day: number,
    byStaff: boolean,
    minute: number,
  ) {
    rows.membership_status_changes.push({
      id: ids.take('membership_status_changes'),
      customer_membership_id: membershipId,
      member_customer_id: memberId,
      from_status: from,
      to_status: to,
      changed_on: cal.date(day),
      changed_by_id: byStaff ? rng.pick(ctx.staff.deskIds) : null,
      // Same-day changes keep their order in created_at too (five minutes apart).
      created_at: cal.stamp(day, minute),
    })
  }
}

function paymentMethod(rng: Random, type: DemoMembershipType, status: MembershipStatus): boolean {
  if (type.purchaseType === 'BEN') return false
  if (type.purchaseType === 'PRE') return rng.chance(0.35)
  if (status === 'IPP') return true
  if (status === 'PAF' || status === 'FPF') return rng.chance(0.4)
  if (status === 'PAY' || status === 'IPC') return rng.chance(0.5)
  return rng.chance(status === 'ACT' ? 0.92 : 0.85)
}
