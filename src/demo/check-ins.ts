import { ACTIVE_STATUSES, FINISHED_STATUSES } from '../domain/membership-status.ts'
import { Calendar } from './calendar.ts'
import { dayWeight, VisitClock } from './check-in-times.ts'
import {
  ENT,
  EVE,
  FRE,
  FREE_ENTRY_REASONS,
  GUE,
  MEM,
  MIG,
  type MethodCode,
  VisitLog,
} from './check-in-log.ts'
import { type CheckInPlan, planCheckIns } from './check-in-rows.ts'
import { type DemoContext, type Row, stream } from './context.ts'
import type { Person } from './customers.ts'
import type { HeldMembership, Holdings } from './memberships.ts'
import { applianceDay, openingDay } from './organization.ts'

/**
 * The share of adults who climbed before the appliance (applianceDay), for some months of those
 * years: the history of those years, at every gym open then, came over from the software the
 * organization used before as migrated check-ins (MIG) that name no membership or pass, and the
 * memberships held then are few, so its climbers are mostly these founders.
 */
const FOUNDER_SHARE = 0.26
/** A founder's visits a week: 1.25 to 3.75, like the members who came after them. */
const founderRate = (x: number) => 1.25 + 2.5 * x
/** The share of a member's visits that bring a guest on a guest pass (within the month's allowance). */
const GUEST_SHARE = 0.04
/** A member's visits a week: 2 to 5, 3.5 on average (regulars come two to four times, some more). */
const memberRate = (x: number) => 2 + 3 * x
/** The share of finished memberships whose members came less often in their last weeks. */
const FADING_SHARE = 0.6
const FADED = 0.35
/** Visiting another of the organization's gyms than one's own. */
const AWAY_SHARE = 0.12

/** FREE_ENTRY_REASONS[TRIAL]: the reason given for a visit before joining. */
const TRIAL = 0

/**
 * Five years of check-ins consistent with what the demo's customers hold: members on the days
 * their membership let them in (busier in winter and on weekday evenings, slowing before some
 * quit), each pass's used entries within its validity, a check-in for every reservation marked as
 * arrived, guests of members whose type grants guest passes, trial visits before most first
 * memberships, visitors who came a few times and stopped, and the migrated years. At most one
 * check-in per customer a day (the gyms combine a day's check-ins), but for the rare day two passes
 * of one customer valid at once both need. Customers' created days move back to their first visit
 * where it came first; their counts are set for the customers' rows.
 */
export function buildCheckIns(ctx: DemoContext, people: readonly Person[], holdings: Holdings): CheckInPlan {
  const rng = stream(ctx, 'check-ins')
  const { cal, rows } = ctx
  const clock = new VisitClock()
  const log = new VisitLog()
  const firstDay = openingDay(cal, 0)
  const migratedUntil = applianceDay(cal)
  const weights = Float64Array.from({ length: cal.today - firstDay + 1 }, (_, i) =>
    dayWeight(cal, firstDay + i),
  )
  const monthOf = (day: number) => cal.date(day).slice(0, 7)
  const gymIndexOf = new Map(ctx.gyms.map((g) => [g.id, g.index]))
  const isOpen = (gymIndex: number, day: number) => day >= openingDay(cal, gymIndex) && day >= firstDay
  /** The gym of a visit: one's own, now and then another that was open by then. */
  const gymFor = (own: number, day: number): number => {
    const gym = rng.chance(AWAY_SHARE) ? rng.int(0, ctx.gyms.length - 1) : own
    return isOpen(gym, day) ? gym : 0
  }

  const covering = groupBy(
    holdings.memberships.flatMap((m) => m.members.map((p) => [p.id, m] as const)),
    ([id]) => id,
  )
  const passesOf = groupBy(rows.customer_entry_passes, (p) => p.owner_id)
  const events = new Map(rows.events.map((e) => [e.id!, e]))
  const arrivalsOf = groupBy(
    rows.reservations.filter((r) => r.checked_in === 1 && r.includes_entry === 1),
    (r) => r.customer_id,
  )
  const guests: {
    host: Person
    membershipId: number
    day: number
    minute: number
    ms: number
    gym: number
  }[] = []
  const visitors: Person[] = []
  const visitorDays = new Map<number, Set<number>>()

  for (const person of people) {
    const taken = new Set<number>()
    const own = person.homeGym?.index ?? 0
    const add = (day: number, ms: number, method: MethodCode, gymIndex: number, ref = 0, hostId = 0) => {
      const migrated = day < migratedUntil && (method === MEM || method === FRE)
      log.add({
        ms,
        day,
        customerId: person.id,
        method: migrated ? MIG : method,
        gymIndex,
        ref: migrated ? 0 : ref,
        hostId,
      })
      taken.add(day)
      person.active = true
    }
    /**
     * A minute for a visit that may be the customer's first day: the record is made at the desk
     * before 09:00, so such a visit comes later in the day (a morning visit moves to the evening).
     */
    const firstDayMinute = (day: number) => {
      const minute = clock.minute(rng, cal.weekday(day), null)
      if (day > person.createdDay) return minute
      person.createdDay = day
      return minute < 9 * 60 ? minute + 10 * 60 : minute
    }
    const addFree = (day: number, reason: number, method: MethodCode = FRE) => {
      if (taken.has(day) || !isOpen(0, day)) return
      const ms = cal.instantMs(day, firstDayMinute(day))
      if (ms <= cal.nowMs) add(day, ms, method, gymFor(own, day), reason)
    }

    for (const r of arrivalsOf.get(person.id) ?? []) {
      const event = events.get(r.event_id)!
      if (event.includes_entry !== 1) continue
      const ms = Date.parse(event.start_at)
      add(cal.dayOf(ms), ms, EVE, gymIndexOf.get(event.gym_id) ?? 0, r.id!)
    }
    for (const pass of passesOf.get(person.id) ?? []) usePass(pass, add, taken, own)

    const memberships = (covering.get(person.id) ?? []).map(([, m]) => m).sort((a, b) => a.start - b.start)
    const rate = memberRate(rng.next())
    const guestsInMonth = new Map<string, number>()
    for (const m of memberships) {
      const gymOf = m.type.locationId === null ? null : (gymIndexOf.get(m.type.locationId) ?? 0)
      const frozenFrom = m.frozenMember?.person === person ? m.frozenMember.day : Infinity
      const fading = FINISHED_STATUSES.includes(m.status) && rng.chance(FADING_SHARE)
      for (const [from, to] of admittedSpans(m, frozenFrom, cal.today)) {
        const fadesFrom = fading ? to - rng.int(28, 56) : Infinity
        for (let day = Math.max(from, firstDay); day <= to; day++) {
          const weekday = cal.weekday(day)
          const chance = (rate / 7) * weights[day - firstDay]! * (day >= fadesFrom ? FADED : 1)
          if (!rng.chance(chance) || taken.has(day) || !clock.opensOn(weekday, m.type.accessHours)) continue
          const minute = clock.minute(rng, weekday, m.type.accessHours)
          const ms = cal.instantMs(day, minute)
          const gym = gymOf ?? gymFor(own, day)
          if (ms < m.createdMs || ms > cal.nowMs || !isOpen(gym, day)) continue
          add(day, ms, MEM, gym, m.id)
          if (m.type.guestPassesPerMonth === 0 || day < migratedUntil || !rng.chance(GUEST_SHARE)) continue
          const month = monthOf(day)
          const given = guestsInMonth.get(month) ?? 0
          if (given >= m.type.guestPassesPerMonth) continue
          guestsInMonth.set(month, given + 1)
          guests.push({ host: person, membershipId: m.id, day, minute, ms, gym })
        }
      }
    }

    const joined = memberships[0]?.start
    if (joined !== undefined && rng.chance(0.75)) {
      // Came in to try it before joining, in the six weeks before the first membership began.
      for (let n = rng.int(1, 3); n > 0; n--) addFree(joined - rng.int(1, 42), TRIAL)
    }

    if (!person.isKid && rng.chance(FOUNDER_SHARE)) {
      // Climbed here before the appliance, most from early on while the gym was new, for two
      // months to a year or so: fewer were still coming by the end, so those years taper into
      // the members' that follow rather than stop at once.
      const first = firstDay + Math.floor((migratedUntil - 60 - firstDay) * rng.next() ** 2)
      const last = Math.min(migratedUntil - 1, first + rng.int(60, 400))
      const rate = founderRate(rng.next())
      addFree(first, 0, MIG)
      for (let day = first + 1; day <= last; day++)
        if (rng.chance((rate / 7) * weights[day - firstDay]!)) addFree(day, 0, MIG)
    }

    if (memberships.length === 0 && !passesOf.has(person.id) && !arrivalsOf.has(person.id)) {
      visitors.push(person)
      visitorDays.set(person.id, taken)
      if (rng.chance(0.6)) {
        // A few visits on free entries and then no more: the ones retention loses.
        const visits = rng.weighted([
          [1, 45],
          [2, 30],
          [3, 15],
          [5, 10],
        ] as const)
        const first = Math.min(cal.today, person.createdDay + (rng.chance(0.7) ? 0 : rng.int(1, 20)))
        addFree(first, rng.int(1, FREE_ENTRY_REASONS.length - 1))
        for (let n = 1; n < visits; n++)
          addFree(Math.min(cal.today, first + rng.int(1, 75)), rng.int(1, FREE_ENTRY_REASONS.length - 1))
      }
    }
  }

  // Guests come in with their host, a minute or two behind, as customers of their own.
  for (const g of guests) {
    const guest = rng.pick(visitors)
    const days = visitorDays.get(guest.id)!
    const ms = g.ms + rng.int(1, 3) * 60_000
    if (guest === g.host || days.has(g.day) || ms > cal.nowMs) continue
    if (g.day <= guest.createdDay) {
      if (g.minute < 9 * 60) continue
      guest.createdDay = g.day
    }
    days.add(g.day)
    guest.active = true
    log.add({
      ms,
      day: g.day,
      customerId: guest.id,
      method: GUE,
      gymIndex: g.gym,
      ref: g.membershipId,
      hostId: g.host.id,
    })
  }

  return planCheckIns(ctx, people, holdings, log)

  /** A pass's used entries: the first the day it was bought, the rest on other days it was valid. */
  function usePass(
    pass: Row<'customer_entry_passes'>,
    add: (day: number, ms: number, method: MethodCode, gymIndex: number, ref: number) => void,
    taken: Set<number>,
    own: number,
  ) {
    const used = pass.entries_total - pass.entries_remaining
    if (used === 0) return
    const boughtMs = Date.parse(pass.created_at!)
    const bought = cal.dayOf(boughtMs)
    const last = Math.min(pass.expiry_date ? Calendar.toDay(pass.expiry_date) : cal.today, cal.today)
    const free: number[] = []
    for (let day = bought + 1; day <= last; day++) if (!taken.has(day)) free.push(day)
    const days = [bought, ...rng.sample(free, used - 1)]
    // Two passes of one customer valid at once may leave too few free days: reuse a day then.
    for (let day = bought + 1; days.length < used; day++) if (!days.includes(day)) days.push(day)
    for (const day of days) {
      const gym = isOpen(own, day) ? own : 0
      const ms =
        day === bought
          ? boughtMs + rng.int(2, 15) * 60_000
          : cal.instantMs(day, clock.minute(rng, cal.weekday(day), null))
      add(day, Math.min(ms, cal.nowMs), ENT, gym, pass.id!)
    }
  }
}

/**
 * The spans of days [from, to] on which a membership let this member in: it had begun, its status
 * that day (the last change on or before it) was an active one, the member was not frozen on
 * their own, a prepaid one had not run out, and the day is not after today.
 */
export function admittedSpans(m: HeldMembership, frozenFrom: number, today: number): [number, number][] {
  const spans: [number, number][] = []
  const lastDay = Math.min(
    today,
    frozenFrom - 1,
    m.type.purchaseType === 'REC' || m.end === null ? today : m.end,
  )
  m.changes.forEach((change, i) => {
    if (!ACTIVE_STATUSES.includes(change.to)) return
    const from = Math.max(change.day, m.start)
    const to = Math.min(lastDay, (m.changes[i + 1]?.day ?? Infinity) - 1)
    if (from <= to) spans.push([from, to])
  })
  return spans
}

function groupBy<R, K>(rows: readonly R[], key: (row: R) => K): Map<K, R[]> {
  const groups = new Map<K, R[]>()
  for (const row of rows) {
    const group = groups.get(key(row))
    if (group) group.push(row)
    else groups.set(key(row), [row])
  }
  return groups
}
