import type { LineItemPurchaseType, MembershipStatus } from '../db/schema.ts'
import { FINISHED_STATUSES } from '../domain/membership-status.ts'
import { REVENUE_ACCOUNTS } from './sales-catalog.ts'
import { type DemoContext, stream } from './context.ts'
import type { StatusChange } from './membership-timeline.ts'
import { FREEZE_FEE_CENTS, type HeldMembership, type Holdings } from './memberships.ts'
import type { Terms } from './products.ts'
import { billingRunMs, deskMsBy, deskStaffAt, type Ledger, type SaleLine } from './sales-ledger.ts'
import { newOnFile, type OnFile, type Payments } from './sales-payments.ts'

/**
 * Every membership's invoices over its life, read off its status history: the initial sale the
 * day it was made; for a recurring one a renewal at each billing date while it was active (the
 * morning billing run charges the card or bank account on file), a freeze fee when a freeze
 * began and at each billing date while frozen, and nothing once it was cancelled or ended. A
 * renewal that went to PPR is charged that day: still processing, or failed (FAI, updated when
 * PAF came) and paid by a retry the day it was active again, or left due when it was cancelled.
 */
export function sellMemberships(ctx: DemoContext, holdings: Holdings, ledger: Ledger, payments: Payments) {
  const rng = stream(ctx, 'sales-memberships')
  const { cal } = ctx

  for (const m of holdings.memberships) {
    const onFile = newOnFile(rng)
    sellInitial(m)
    const freezesBegan = chargeFreezes(m, onFile)
    if (m.type.purchaseType === 'REC') bill(m, onFile, freezesBegan)
  }

  function sellInitial(m: HeldMembership) {
    const first = m.changes[0]!
    const sale = ledger.record({
      atMs: m.createdMs,
      day: Math.min(m.start, first.day),
      customerId: m.owner.id,
      gymId: m.gymId,
      staffUserId: rng.pick(deskStaffAt(ctx, m.gymId)),
      description: 'New membership',
      lines: membershipLines(m, 'MIN'),
    })
    const total = sale.priced.totalCents
    const attempt = { atMs: sale.atMs, day: sale.day }
    if (first.to === 'IPP') payments.atDesk(sale, { ...attempt, status: 'PRO' }, total, 'card')
    else if (first.to === 'PAY' || first.to === 'IPC') {
      // Not started: a payment link waits to be paid, or was cancelled when the membership was denied.
      const denied = m.changes.find((c) => c.to === 'DEN')
      const status = denied ? 'CAN' : 'PEN'
      const settledMs = denied ? deskMsBy(rng, cal, denied.day) : undefined
      payments.online(sale, { ...attempt, status, settledMs }, total, m.type.terms.description)
    } else payments.settleAtDesk(sale, sale.atMs, sale.day)
  }

  /** Renewals and freeze fees at each billing date after the start, up to today. */
  function bill(m: HeldMembership, onFile: OnFile, freezesBegan: ReadonlySet<number>) {
    const { interval } = m.type
    // The billing dates whose renewal the history records going to PPR: charged on that day.
    const attempted = new Set<number>()
    m.changes.forEach((change, i) => {
      if (change.to !== 'PPR') return
      const before = cal.lastBillDay(m.start, interval, change.day)
      const after = cal.nextBillDay(m.start, interval, change.day)
      const billDay = before > m.start && change.day - before <= after - change.day ? before : after
      attempted.add(billDay)
      renewal(m, onFile, { change, billDay }, m.changes[i + 1], m.changes[i + 2])
    })
    for (let k = 1; ; k++) {
      const day = cal.addPeriods(m.start, interval, k)
      if (day > cal.today) break
      if (attempted.has(day)) continue
      const status = statusOn(m.changes, day)
      if (FINISHED_STATUSES.includes(status)) break
      const sale = (description: string, lines: SaleLine[]) =>
        ledger.record({
          atMs: billingRunMs(rng, cal, day),
          day,
          customerId: m.owner.id,
          gymId: m.gymId,
          staffUserId: null,
          description,
          lines,
        })
      const charge = (made: ReturnType<typeof sale>) =>
        payments.onFile(made, { status: 'COM', atMs: made.atMs, day }, onFile, made.priced.totalCents)
      if (status === 'ACT') charge(sale('Membership renewal', membershipLines(m, 'MRE', cal.date(day))))
      else if (status === 'FRZ' && !freezesBegan.has(day)) charge(sale('Freeze fee', [freezeLine(m)]))
    }
  }

  /**
   * A renewal the history shows going to PPR on `change.day`, paying the period from `billDay`, and
   * what became of its payment.
   */
  function renewal(
    m: HeldMembership,
    onFile: OnFile,
    { change, billDay }: { change: StatusChange; billDay: number },
    next: StatusChange | undefined,
    then: StatusChange | undefined,
  ) {
    const day = change.day
    const sale = ledger.record({
      atMs: billingRunMs(rng, cal, day),
      day,
      customerId: m.owner.id,
      gymId: m.gymId,
      staffUserId: null,
      description: 'Membership renewal',
      lines: membershipLines(m, 'MRE', cal.date(billDay)),
    })
    const total = sale.priced.totalCents
    const attempt = { atMs: sale.atMs, day }
    if (!next) {
      payments.onFile(sale, { ...attempt, status: 'PRO' }, onFile, total)
      return
    }
    if (next.to !== 'PAF') {
      payments.onFile(sale, { ...attempt, status: 'COM' }, onFile, total)
      return
    }
    const settledMs = next.day === day ? sale.atMs : billingRunMs(rng, cal, next.day)
    payments.onFile(sale, { ...attempt, status: 'FAI', settledMs }, onFile, total)
    // Active again: the retry after the member updated their card went through.
    if (then?.to === 'ACT') {
      const retried = { status: 'COM' as const, atMs: billingRunMs(rng, cal, then.day), day: then.day }
      payments.onFile(sale, retried, onFile, total)
    }
  }

  /**
   * A freeze fee at the desk when each freeze began (still processing for FPR, failed when FPF
   * followed). Returns the days freezes began: a billing date that day charges no second fee.
   */
  function chargeFreezes(m: HeldMembership, onFile: OnFile): Set<number> {
    const began = new Set<number>()
    m.changes.forEach((change, i) => {
      if ((change.to !== 'FRZ' && change.to !== 'FPR') || change.from === 'FRZ' || change.from === 'FPR')
        return
      began.add(change.day)
      const atMs = deskMsBy(rng, cal, change.day)
      const sale = ledger.record({
        atMs,
        day: change.day,
        customerId: m.owner.id,
        gymId: m.gymId,
        staffUserId: rng.pick(deskStaffAt(ctx, m.gymId)),
        description: 'Freeze fee',
        lines: [freezeLine(m)],
      })
      const next = m.changes[i + 1]
      const attempt = { atMs, day: change.day }
      const outcome =
        change.to === 'FRZ'
          ? { ...attempt, status: 'COM' as const }
          : next?.to === 'FPF'
            ? { ...attempt, status: 'FAI' as const, settledMs: deskMsBy(rng, cal, next.day) }
            : { ...attempt, status: 'PRO' as const }
      payments.onFile(sale, outcome, onFile, sale.priced.totalCents)
    })
    return began
  }
}

/**
 * The membership's own line and, for a recurring one, a line per add-on its members have; a
 * renewal's lines name the period they pay.
 */
function membershipLines(
  m: HeldMembership,
  purchaseType: LineItemPurchaseType,
  periodStart?: string,
): SaleLine[] {
  const links = { membershipTypeId: m.type.id, customerMembershipId: m.id, periodStart }
  const own = { ...m.type.terms, unitPriceCents: m.priceCents }
  const lines: SaleLine[] = [{ purchaseType, terms: own, quantity: 1, ...links }]
  if (m.type.purchaseType === 'REC')
    for (const addOn of m.addOns)
      lines.push({ purchaseType, terms: addOn.terms[m.gymId]!, quantity: 1, ...links })
  return lines
}

function freezeLine(m: HeldMembership): SaleLine {
  const terms: Terms = {
    description: `Freeze fee: ${m.type.terms.description}`,
    unitPriceCents: FREEZE_FEE_CENTS,
    taxRateId: null,
    taxRateBasisPoints: 0,
    revenueAccountCode: REVENUE_ACCOUNTS.freezeFee,
  }
  return { purchaseType: 'MFR', terms, quantity: 1, membershipTypeId: m.type.id, customerMembershipId: m.id }
}

/** The membership's status at the end of `day`. */
function statusOn(changes: readonly StatusChange[], day: number): MembershipStatus {
  let status = changes[0]!.to
  for (const change of changes) if (change.day <= day) status = change.to
  return status
}
