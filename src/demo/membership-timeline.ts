import type { MembershipStatus } from '../db/schema.ts'
import type { Calendar } from './calendar.ts'
import type { DemoMembershipType } from './products.ts'
import type { Random } from './random.ts'

export interface StatusChange {
  from: MembershipStatus | null
  to: MembershipStatus
  day: number
  /** Staff actions (freeze, cancel, deny) name a user; payment outcomes are the system's. */
  byStaff: boolean
}

export interface Timeline {
  start: number
  end: number | null
  changes: StatusChange[]
}

/**
 * Dates and status history for a membership that is in `status` on day `last` (today for current
 * memberships, the day before the next one started for earlier ones). `from` is the earliest
 * sensible start (when the owner became a customer); a status that needs a longer past (a renewal
 * that failed) may start earlier, and the caller moves the customers' created dates back to match.
 * The history starts with a row from null and walks to `status` through plausible states.
 */
export function timelineFor(
  status: MembershipStatus,
  type: DemoMembershipType,
  from: number,
  last: number,
  cal: Calendar,
  rng: Random,
): Timeline {
  // `hi` is firm, `lo` soft: when the window is empty the latest day wins (and the caller moves
  // the customers' created dates back to the membership's first day).
  const within = (lo: number, hi: number) => rng.int(Math.min(lo, hi), hi)
  const recurring = type.purchaseType === 'REC'
  const changes: StatusChange[] = []
  // Days never go backwards and never pass `last`.
  const go = (to: MembershipStatus, day: number, byStaff = false) => {
    const previous = changes.at(-1)
    const on = Math.min(last, Math.max(previous?.day ?? day, day))
    changes.push({ from: previous?.to ?? null, to, day: on, byStaff })
    return on
  }
  // Started far enough back to have been billed at least once before `day`.
  const startBefore = (day: number) => {
    const periods = recurring ? Math.floor((day - from) / cal.periodDays(type.interval)) : 0
    return recurring
      ? cal.addPeriods(day, type.interval, -Math.max(1, rng.int(1, Math.max(1, periods))))
      : day
  }
  // Still running on `day`, for a prepaid membership; any past day otherwise.
  const runningStart = (day: number, minAge = 0) =>
    type.duration
      ? within(Math.max(from, plus(cal, type, day, -1) + 1), day - minAge)
      : within(from, day - minAge)
  const nextBill = (start: number) => (recurring ? cal.nextBillDay(start, type.interval, last) : null)
  const runEnd = (start: number) => (type.duration ? plus(cal, type, start, 1) : nextBill(start))

  switch (status) {
    case 'ACT': {
      const start = runningStart(last)
      go('ACT', start, rng.chance(0.5))
      addDetour(start, last)
      return { start, end: runEnd(start), changes }
    }
    case 'IPP': {
      const start = last - (rng.chance(0.8) ? 0 : 1)
      go('IPP', start)
      return {
        start,
        end: type.duration ? plus(cal, type, start, 1) : cal.addPeriods(start, type.interval, 1),
        changes,
      }
    }
    case 'PPR':
    case 'PAF': {
      const billDay = status === 'PPR' ? last : last - rng.int(1, 12)
      const start = startBefore(billDay)
      const billed = cal.lastBillDay(start, type.interval, billDay)
      go('ACT', start, rng.chance(0.5))
      go('PPR', billed)
      if (status === 'PAF') go('PAF', Math.min(last, billed + rng.int(0, 1)))
      return { start, end: billed, changes }
    }
    case 'FRZ':
    case 'FPR':
    case 'FPF': {
      const start = runningStart(last, 20)
      const frozen =
        status === 'FRZ'
          ? within(Math.max(start + 14, last - 90), last)
          : last - (status === 'FPR' ? rng.int(0, 1) : rng.int(2, 14))
      go('ACT', start, rng.chance(0.5))
      if (status === 'FRZ') go('FRZ', frozen, true)
      else {
        go('FPR', frozen, true)
        if (status === 'FPF') go('FPF', Math.min(last, frozen + rng.int(1, 2)))
      }
      // A freeze pushes a prepaid membership's end back by the days frozen.
      const end = type.duration ? plus(cal, type, start, 1) + (last - frozen) : nextBill(start)
      return { start, end, changes }
    }
    case 'PAY':
    case 'IPC': {
      const created = last - rng.int(0, 6)
      const start = created + (rng.chance(0.5) ? 0 : rng.int(1, 21))
      go(status, created, rng.chance(0.5))
      return { start, end: runEnd(start), changes }
    }
    case 'CAN': {
      const start = within(from, last - 20)
      const runsUntil = type.duration ? plus(cal, type, start, 1) - 1 : last
      const cancelled = within(start + 14, Math.min(last, runsUntil))
      go('ACT', start, rng.chance(0.5))
      if (cancelled - start >= 21) {
        if (recurring && rng.chance(0.3)) {
          const billed = within(start + 7, cancelled - 7)
          go('PPR', billed)
          go('PAF', billed)
        } else if (rng.chance(0.15)) go('FRZ', within(start + 7, cancelled - 7), true)
      }
      return { start, end: go('CAN', cancelled, true), changes }
    }
    case 'END': {
      const start = type.duration ? within(from, plus(cal, type, last, -1) - 1) : within(from, last - 60)
      const ended = type.duration ? plus(cal, type, start, 1) : within(start + 30, last - 1)
      go('ACT', start, rng.chance(0.5))
      return { start, end: go('END', ended, !type.duration), changes }
    }
    case 'DEN': {
      const start = within(from, last - 1)
      go('PAY', start)
      go('DEN', Math.min(last, start + rng.int(0, 3)), true)
      return { start, end: null, changes }
    }
  }

  /** Most active memberships have a plain history; some were frozen once or missed a payment. */
  function addDetour(start: number, today: number) {
    if (today - start < 60) return
    const kind = rng.weighted([
      ['none', 78],
      ['freeze', 14],
      ['failed', 8],
    ] as const)
    if (kind === 'freeze') {
      const frozen = within(start + 10, today - 30)
      go('FRZ', frozen, true)
      go('ACT', within(frozen + 7, Math.min(frozen + 90, today - 1)), true)
    } else if (kind === 'failed' && recurring) {
      const billed = cal.nextBillDay(start, type.interval, within(start, today - 20))
      if (billed + 5 > today) return
      go('PPR', billed)
      go('PAF', billed)
      go('ACT', billed + rng.int(1, 5))
    }
  }
}

/** `day` plus (or minus, with sign -1) the prepaid duration. */
function plus(cal: Calendar, type: DemoMembershipType, day: number, sign: 1 | -1): number {
  const d = type.duration!
  const months = (d.years ?? 0) * 12 + (d.months ?? 0)
  return cal.addMonths(day, sign * months) + sign * (d.days ?? 0)
}
