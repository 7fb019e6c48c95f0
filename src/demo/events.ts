import { REVENUE_ACCOUNTS } from './sales-catalog.ts'
import { type DemoContext, stream } from './context.ts'
import type { Person } from './customers.ts'
import type { Catalog, DemoEventType } from './products.ts'

/** Weekly class schedule per gym: weekday (0 = Sunday), local start minute, length in minutes. */
const SCHEDULE: readonly { key: DemoEventType['key']; days: number[]; start: number; minutes: number }[] = [
  { key: 'yoga', days: [1, 3, 5], start: 7 * 60, minutes: 60 },
  { key: 'intro', days: [2, 4], start: 18 * 60, minutes: 90 },
  { key: 'intro', days: [6], start: 10 * 60, minutes: 90 },
  { key: 'belay', days: [3], start: 18 * 60 + 30, minutes: 90 },
  { key: 'belay', days: [0], start: 13 * 60, minutes: 90 },
  { key: 'youth', days: [1, 3], start: 16 * 60, minutes: 120 },
]

const DAYS_BEFORE = 7
const DAYS_AFTER = 13

/**
 * Classes for the week before and two weeks after now at every gym, and at each gym a technique
 * clinic under way right now (so the door sees reservations for an event happening now). Past
 * reservations are mostly checked in; a few of every kind are cancelled.
 */
export function buildEvents(ctx: DemoContext, people: readonly Person[], catalog: Catalog): void {
  const rng = stream(ctx, 'events')
  const { cal, rows, ids } = ctx
  const adults = people.filter((p) => !p.isKid)
  const kids = people.filter((p) => p.isKid && cal.today - p.birthday >= 8 * 365)

  const addEvent = (type: DemoEventType, startMs: number, minutes: number, name = '') => {
    const endMs = startMs + minutes * 60_000
    const id = ids.take('events')
    // The clinic under way now is never cancelled: it is there for the door to find.
    const cancelled = name === '' && rng.chance(0.03)
    const createdDay = cal.dayOf(startMs) - rng.int(14, 40)
    const created = cal.stamp(createdDay, 10 * 60)
    const includesEntry = type.key === 'yoga' ? 0 : 1
    rows.events.push({
      id,
      event_type_id: type.id,
      gym_id: type.gymId,
      name,
      start_at: new Date(startMs).toISOString(),
      end_at: new Date(endMs).toISOString(),
      includes_entry: includesEntry,
      is_cancelled: cancelled ? 1 : 0,
      price_cents: type.priceCents,
      tax_rate_id: null,
      revenue_account_code: REVENUE_ACCOUNTS.event,
      created_at: created,
      updated_at: created,
    })
    const pool = type.key === 'youth' ? kids : adults
    const taken = Math.max(1, Math.round(type.capacity * (0.4 + 0.6 * rng.next()) * ctx.profile.classFill))
    for (const person of rng.sample(pool, taken)) {
      const bookedMs = Math.min(cal.nowMs, startMs - rng.int(1, 20 * 24 * 60) * 60_000)
      const dropped = cancelled || rng.chance(0.06)
      const arrived = !dropped && startMs <= cal.nowMs && rng.chance(0.88)
      person.active = true
      person.createdDay = Math.min(person.createdDay, cal.dayOf(bookedMs) - 1)
      rows.reservations.push({
        id: ids.take('reservations'),
        event_id: id,
        customer_id: person.id,
        includes_entry: includesEntry,
        is_cancelled: dropped ? 1 : 0,
        checked_in: arrived ? 1 : 0,
        created_at: new Date(bookedMs).toISOString(),
        updated_at: new Date(arrived ? Math.min(cal.nowMs, startMs) : bookedMs).toISOString(),
      })
    }
  }

  for (const gym of ctx.gyms) {
    const types = catalog.eventTypes.filter((t) => t.gymId === gym.id)
    const typeOf = (key: DemoEventType['key']) => types.find((t) => t.key === key)!
    for (let day = cal.today - DAYS_BEFORE; day <= cal.today + DAYS_AFTER; day++) {
      for (const slot of SCHEDULE) {
        if (!slot.days.includes(cal.weekday(day))) continue
        addEvent(typeOf(slot.key), cal.instantMs(day, slot.start), slot.minutes)
      }
    }
    // Started on the last half hour before now, running another ninety minutes or so.
    const startMs = Math.floor(cal.nowMs / 1_800_000) * 1_800_000 - 1_800_000
    addEvent(typeOf('clinic'), startMs, 120, 'Footwork Technique Clinic')
  }
}
