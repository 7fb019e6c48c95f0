import {
  entryPassDescription,
  FREE_ENTRY_DESCRIPTION,
  guestDescription,
  membershipDescription,
  reservationDescription,
} from '../core/door/descriptions.ts'
import { reachedMilestones } from '../core/door/milestones.ts'
import {
  ENTRY_METHODS,
  ENT,
  EVE,
  FRE,
  FREE_ENTRY_REASONS,
  GUE,
  MEM,
  MIG,
  type VisitLog,
} from './check-in-log.ts'
import { Calendar } from './calendar.ts'
import { type DemoContext, type Row } from './context.ts'
import type { Person } from './customers.ts'
import type { Holdings } from './memberships.ts'
import { streamFor } from './random.ts'
import { deskStaffAt } from './sales-ledger.ts'

/** The share of check-ins whose check-out was recorded (the desk or a door controller saw them leave). */
const CHECKED_OUT_SHARE = 0.3

/** The check_ins columns of the plan's batches, in the order each row's values come. */
export const CHECK_IN_COLUMNS = [
  'id',
  'customer_id',
  'gym_id',
  'entry_method',
  'entry_method_description',
  'customer_membership_id',
  'customer_entry_pass_id',
  'reservation_id',
  'host_customer_id',
  'free_entry_reason',
  'free_entry_granting_user_id',
  'converted_from_free_entry',
  'milestone_list',
  'check_in_count',
  'local_date',
  'local_time',
  'checked_in_by_id',
  'check_out_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Row<'check_ins'>)[]

/**
 * The check-ins, counted and ready to be made into rows a batch at a time (checkInBatches): the
 * visits in columns and what their rows read besides, all plain values and typed arrays, so the
 * plan can be handed to a worker thread as it is (check-in-thread.ts).
 */
export interface CheckInPlan {
  count: number
  /** The visits, by their index in the log: the check-in log's columns, `count` long */
  visits: Pick<VisitLog, 'ms' | 'day' | 'customerId' | 'method' | 'gymIndex' | 'ref' | 'hostId'>
  /** The visits' indexes in time order */
  order: Uint32Array
  seed: number
  zone: string
  nowMs: number
  /** The first check-in's id; the rest follow in time order */
  firstId: number
  /** By gym index: the gym's id, and its desk staff */
  gymIds: number[]
  desks: number[][]
  milestones: readonly number[]
  /** What the door's descriptions name: by membership, pass, reservation and guest's host */
  membershipTypes: Map<number, string>
  passes: Map<number, { pass: { name: string; purchaser_name: string | null }; entries: number }>
  reservationEvents: Map<number, string>
  hosts: Map<number, { first_name: string; last_name: string }>
}

/**
 * Puts the visits in time order and gives each customer their count and first check-in time (for
 * the customers' rows, built next); the rows themselves are made as they are written, each with
 * the customer's running count, the milestones it reaches and the text the door would give its
 * entry method.
 */
export function planCheckIns(
  ctx: DemoContext,
  people: readonly Person[],
  holdings: Holdings,
  log: VisitLog,
): CheckInPlan {
  const { cal, rows } = ctx
  const order = log.chronological()
  const byId = new Map(people.map((p) => [p.id, p]))
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!
    const person = byId.get(log.customerId[i]!)!
    if (person.checkIns++ === 0) person.firstCheckInMs = log.ms[i]!
  }

  const passTypes = new Map(rows.entry_pass_types.map((t) => [t.id!, t.name]))
  const eventNames = new Map(rows.events.map((e) => [e.id!, e.name ?? '']))
  const hosts = new Map<number, { first_name: string; last_name: string }>()
  for (let i = 0; i < log.count; i++) {
    if (log.method[i] !== GUE || hosts.has(log.hostId[i]!)) continue
    const host = byId.get(log.hostId[i]!)!
    hosts.set(host.id, { first_name: host.firstName, last_name: host.lastName })
  }
  return {
    count: log.count,
    visits: {
      ms: log.ms.slice(0, log.count),
      day: log.day.slice(0, log.count),
      customerId: log.customerId.slice(0, log.count),
      method: log.method.slice(0, log.count),
      gymIndex: log.gymIndex.slice(0, log.count),
      ref: log.ref.slice(0, log.count),
      hostId: log.hostId.slice(0, log.count),
    },
    order,
    seed: ctx.seed,
    zone: cal.zone,
    nowMs: cal.nowMs,
    firstId: ctx.ids.takeRange('check_ins', log.count),
    gymIds: ctx.gyms.map((g) => g.id),
    desks: ctx.gyms.map((g) => deskStaffAt(ctx, g.id)),
    milestones: ctx.milestones,
    membershipTypes: new Map(holdings.memberships.map((m) => [m.id, m.type.terms.description])),
    passes: new Map(
      rows.customer_entry_passes.map((p) => {
        const purchaser =
          p.purchaser_id === null || p.purchaser_id === p.owner_id ? null : byId.get(p.purchaser_id!)!
        const pass = {
          name: passTypes.get(p.entry_pass_type_id)!,
          purchaser_name: purchaser && `${purchaser.firstName} ${purchaser.lastName}`,
        }
        return [p.id!, { pass, entries: p.entries_total }]
      }),
    ),
    reservationEvents: new Map(rows.reservations.map((r) => [r.id!, eventNames.get(r.event_id)!])),
    hosts,
  }
}

/**
 * The plan's rows in time order (ids in the same order), up to `size` at a time, each batch one
 * flat list of values (CHECK_IN_COLUMNS of each row in turn) rather than an object per row; each
 * batch can go once written.
 */
export function* checkInBatches(plan: CheckInPlan, size: number): Generator<unknown[]> {
  const { visits, order, passes } = plan
  const cal = new Calendar(plan.zone, new Date(plan.nowMs))
  const rng = streamFor(plan.seed, 'check-in-rows')
  const running = new Map<number, number>()
  const entriesTaken = new Map<number, number>()
  const milestoneLists = new Map<number, string>()
  const milestoneList = (count: number) => {
    let list = milestoneLists.get(count)
    if (list === undefined)
      milestoneLists.set(count, (list = JSON.stringify(reachedMilestones(plan.milestones, count))))
    return list
  }
  let batch: unknown[] = []
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!
    const customerId = visits.customerId[i]!
    const method = visits.method[i]!
    const ref = visits.ref[i]!
    const gymIndex = visits.gymIndex[i]!
    const count = (running.get(customerId) ?? 0) + 1
    running.set(customerId, count)
    const ms = visits.ms[i]!
    const createdAt = new Date(ms).toISOString()
    const leftMs = ms + rng.int(60, 150) * 60_000
    const checkOut =
      rng.chance(CHECKED_OUT_SHARE) && leftMs <= cal.nowMs ? new Date(leftMs).toISOString() : null
    // Migrated history kept no staff; everything else went through a desk at that gym.
    const staff = method === MIG ? null : rng.pick(plan.desks[gymIndex]!)
    let description = ''
    if (method === MEM) description = membershipDescription({ type_name: plan.membershipTypes.get(ref)! })
    else if (method === ENT) {
      const held = passes.get(ref)!
      const taken = (entriesTaken.get(ref) ?? 0) + 1
      entriesTaken.set(ref, taken)
      description = entryPassDescription(held.pass, held.entries - taken)
    } else if (method === EVE)
      description = reservationDescription({ event_name: plan.reservationEvents.get(ref)! })
    else if (method === GUE) description = guestDescription(plan.hosts.get(visits.hostId[i]!)!)
    else if (method === FRE) description = FREE_ENTRY_DESCRIPTION
    // In CHECK_IN_COLUMNS' order.
    batch.push(
      plan.firstId + k,
      customerId,
      plan.gymIds[gymIndex]!,
      ENTRY_METHODS[method]!,
      description,
      method === MEM || method === GUE ? ref : null,
      method === ENT ? ref : null,
      method === EVE ? ref : null,
      method === GUE ? visits.hostId[i]! : null,
      method === FRE ? FREE_ENTRY_REASONS[ref]! : '',
      method === FRE ? staff : null,
      0,
      milestoneList(count),
      count,
      cal.date(visits.day[i]!),
      // The demo's gyms keep the organization's zone, as its local dates do.
      cal.timeOfDay(visits.day[i]!, ms),
      staff,
      checkOut,
      createdAt,
      checkOut ?? createdAt,
    )
    if (batch.length === size * CHECK_IN_COLUMNS.length) {
      yield batch
      batch = []
    }
  }
  if (batch.length > 0) yield batch
}
