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
import { type DemoContext, type Row, stream } from './context.ts'
import type { Person } from './customers.ts'
import type { Holdings } from './memberships.ts'
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

/** The check-ins, counted and ready to be written a batch at a time. */
export interface CheckInPlan {
  count: number
  /**
   * The rows in time order (ids in the same order), up to `size` at a time, each batch one flat
   * list of values (CHECK_IN_COLUMNS of each row in turn) rather than an object per row; each batch
   * can go once written.
   */
  batches(size: number): Generator<unknown[]>
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

  const typeNames = new Map(holdings.memberships.map((m) => [m.id, m.type.terms.description]))
  const passTypes = new Map(rows.entry_pass_types.map((t) => [t.id!, t.name]))
  const passes = new Map(
    rows.customer_entry_passes.map((p) => {
      const purchaser =
        p.purchaser_id === null || p.purchaser_id === p.owner_id ? null : byId.get(p.purchaser_id!)!
      const pass = {
        name: passTypes.get(p.entry_pass_type_id)!,
        purchaser_name: purchaser && `${purchaser.firstName} ${purchaser.lastName}`,
      }
      return [p.id!, { pass, entries: p.entries_total }]
    }),
  )
  const eventNames = new Map(rows.events.map((e) => [e.id!, e.name ?? '']))
  const reservationEvents = new Map(rows.reservations.map((r) => [r.id!, eventNames.get(r.event_id)!]))
  const milestoneLists = new Map<number, string>()
  const milestoneList = (count: number) => {
    let list = milestoneLists.get(count)
    if (list === undefined)
      milestoneLists.set(count, (list = JSON.stringify(reachedMilestones(ctx.milestones, count))))
    return list
  }

  return {
    count: log.count,
    *batches(size) {
      const rng = stream(ctx, 'check-in-rows')
      const running = new Map<number, number>()
      const entriesTaken = new Map<number, number>()
      const desks = ctx.gyms.map((g) => deskStaffAt(ctx, g.id))
      let batch: unknown[] = []
      for (let k = 0; k < order.length; k++) {
        const i = order[k]!
        const customerId = log.customerId[i]!
        const method = log.method[i]!
        const ref = log.ref[i]!
        const gymIndex = log.gymIndex[i]!
        const count = (running.get(customerId) ?? 0) + 1
        running.set(customerId, count)
        const ms = log.ms[i]!
        const createdAt = new Date(ms).toISOString()
        const leftMs = ms + rng.int(60, 150) * 60_000
        const checkOut =
          rng.chance(CHECKED_OUT_SHARE) && leftMs <= cal.nowMs ? new Date(leftMs).toISOString() : null
        // Migrated history kept no staff; everything else went through a desk at that gym.
        const staff = method === MIG ? null : rng.pick(desks[gymIndex]!)
        let description = ''
        if (method === MEM) description = membershipDescription({ type_name: typeNames.get(ref)! })
        else if (method === ENT) {
          const held = passes.get(ref)!
          const taken = (entriesTaken.get(ref) ?? 0) + 1
          entriesTaken.set(ref, taken)
          description = entryPassDescription(held.pass, held.entries - taken)
        } else if (method === EVE)
          description = reservationDescription({ event_name: reservationEvents.get(ref)! })
        else if (method === GUE) {
          const host = byId.get(log.hostId[i]!)!
          description = guestDescription({ first_name: host.firstName, last_name: host.lastName })
        } else if (method === FRE) description = FREE_ENTRY_DESCRIPTION
        // In CHECK_IN_COLUMNS' order.
        batch.push(
          ctx.ids.take('check_ins'),
          customerId,
          ctx.gyms[gymIndex]!.id,
          ENTRY_METHODS[method]!,
          description,
          method === MEM || method === GUE ? ref : null,
          method === ENT ? ref : null,
          method === EVE ? ref : null,
          method === GUE ? log.hostId[i]! : null,
          method === FRE ? FREE_ENTRY_REASONS[ref]! : '',
          method === FRE ? staff : null,
          0,
          milestoneList(count),
          count,
          cal.date(log.day[i]!),
          // The demo's gyms keep the organization's zone, as its local dates do.
          cal.timeOfDay(log.day[i]!, ms),
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
    },
  }
}
