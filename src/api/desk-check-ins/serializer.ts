import type { DeskCheckInOutcome } from '../../core/door/desk-check-in.ts'
import type { AdmitNotice, RefusalReason } from '../../core/door/facts.ts'
import { WEEK_DAYS, type AccessWindow } from '../../domain/access-hours.ts'
import type { DoorCustomer } from '../../core/door/queries.ts'
import type { Urls } from '../../http/urls.ts'
import { customerFields } from '../door/serializer.ts'

/*
 * The desk's check-in answers in the desk's words: each refusal reason and notice as a person at
 * the counter says it.
 */

const DAY_NAMES: Record<string, string> = {
  SUN: 'Sun',
  MON: 'Mon',
  TUE: 'Tue',
  WED: 'Wed',
  THU: 'Thu',
  FRI: 'Fri',
  SAT: 'Sat',
}

/** Weekly windows as a sign on the door says them: days sharing hours together, Monday first. */
export function accessHoursWords(windows: readonly AccessWindow[]): string {
  const order = (day: string) => (WEEK_DAYS.indexOf(day as (typeof WEEK_DAYS)[number]) + 6) % 7
  const byHours = new Map<string, string[]>()
  for (const w of [...windows].sort((a, b) => order(a.day) - order(b.day) || (a.start < b.start ? -1 : 1))) {
    const hours = `${w.start}–${w.end}`
    const days = byHours.get(hours) ?? []
    if (!days.includes(DAY_NAMES[w.day]!)) days.push(DAY_NAMES[w.day]!)
    byHours.set(hours, days)
  }
  return [...byHours].map(([hours, days]) => `${days.join(', ')} ${hours}`).join('; ')
}

const AWAITING = ['PAY', 'IPC']

/** One reason, in words, with its date or hours when it has them. */
export function reasonOut(r: RefusalReason) {
  switch (r.code) {
    case 'alert':
      return { code: r.code, detail: r.text }
    case 'no_waiver':
      return { code: r.code, detail: 'No signed waiver.' }
    case 'waiver_expired':
      return { code: r.code, detail: `Waiver expired on ${r.date}.`, date: r.date }
    case 'membership_frozen':
      return { code: r.code, detail: `${r.name} is frozen.` }
    case 'outside_access_hours': {
      const hours = accessHoursWords(r.hours)
      return { code: r.code, detail: `${r.name} lets in ${hours} only.`, hours }
    }
    case 'membership_not_started':
      return { code: r.code, detail: `${r.name} starts on ${r.date}.`, date: r.date }
    case 'membership_ended':
      return r.date === null
        ? { code: r.code, detail: `${r.name} has ended.` }
        : { code: r.code, detail: `${r.name} ended on ${r.date}.`, date: r.date }
    case 'membership_payment_failed':
      return { code: r.code, detail: `${r.name}: the last payment failed.` }
    case 'membership_not_active':
      return {
        code: r.code,
        detail: AWAITING.includes(r.status)
          ? `${r.name} is waiting for its first payment.`
          : `${r.name} is not active.`,
      }
    case 'pass_used_up':
      return { code: r.code, detail: `${r.name} is used up.` }
    case 'pass_expired':
      return { code: r.code, detail: `${r.name} expired on ${r.date}.`, date: r.date }
    case 'no_entry_method':
      return { code: r.code, detail: 'No membership, entry pass or event booking.' }
  }
}

export const noticeOut = (n: AdmitNotice) =>
  n.code === 'last_entry'
    ? { code: n.code, detail: 'Last entry on this pass' }
    : { code: n.code, detail: `Membership ends ${n.date}` }

/** A sentence, for joining: an alert's own text may end without a stop. */
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`)

/** The customer's photo link for the card (their `profile_image_url`), null when they have none. */
export const photoUrl = (customer: DoorCustomer, urls: Urls) => urls.link(customer.profile_image_url) || null

/** Whom a refusal was for, with what the card shows to tell them apart: their age and photo. */
const refusedCustomer = (customer: DoorCustomer, urls: Urls) => ({
  ...customerFields(customer),
  customer_birthday: customer.birthday,
  customer_profile_image_url: photoUrl(customer, urls),
})

/** The 400 body of a refused or duplicate desk check-in. */
export function refusalBody(
  outcome: Extract<DeskCheckInOutcome, { kind: 'refused' | 'duplicate' }>,
  urls: Urls,
) {
  if (outcome.kind === 'duplicate') {
    return {
      error: 'duplicate_check_in',
      detail: `Already inside since ${outcome.insideSince.slice(11, 16)}.`,
      reasons: [],
      inside_since: outcome.insideSince,
      ...refusedCustomer(outcome.customer, urls),
    }
  }
  const reasons = outcome.reasons.map(reasonOut)
  return {
    error: outcome.error,
    detail: reasons.map((r) => sentence(r.detail)).join(' '),
    reasons,
    ...refusedCustomer(outcome.customer, urls),
  }
}
