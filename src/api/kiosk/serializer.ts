import type { DeskCheckInOutcome } from '../../core/door/desk-check-in.ts'
import type { RefusalReason } from '../../core/door/facts.ts'
import { noticeOut, reasonOut } from '../desk-check-ins/serializer.ts'

/*
 * The kiosk's answers, for a screen at the entrance that anyone in the queue can read: the first
 * name only, the colour, and the reason in the desk's words. An alert's own text is for staff (it
 * may say anything about the customer), so the kiosk says only that the desk must see them.
 */

export const SEE_DESK = 'Please see the front desk'
export const ALERT_AT_KIOSK = 'A note on your account needs the front desk.'

type Light = 'green' | 'amber' | 'red'

const answer = (
  outcome: string,
  light: Light,
  firstName: string | null,
  message: string,
  details: string[],
) => ({ outcome, light, first_name: firstName, message, details })

const reasonAtKiosk = (r: RefusalReason) => (r.code === 'alert' ? ALERT_AT_KIOSK : reasonOut(r).detail)

/** The check-in's outcome as the kiosk says it, with its HTTP status. */
export function kioskCheckInAnswer(
  outcome: Extract<DeskCheckInOutcome, { kind: 'refused' | 'duplicate' | 'admitted' }>,
) {
  const name = outcome.customer.first_name
  switch (outcome.kind) {
    case 'admitted':
      return {
        status: 201,
        body: answer(
          'admitted',
          'green',
          name,
          `Welcome, ${name}!`,
          outcome.notices.map((n) => noticeOut(n).detail),
        ),
      }
    case 'duplicate':
      return {
        status: 400,
        body: answer('already_inside', 'amber', name, `You are already checked in, ${name}.`, [
          `Already inside since ${outcome.insideSince.slice(11, 16)}.`,
        ]),
      }
    case 'refused':
      return {
        status: 400,
        body: answer('refused', 'red', name, `${SEE_DESK}, ${name}`, [
          ...new Set(outcome.reasons.map(reasonAtKiosk)),
        ]),
      }
  }
}

export const unknownCard = () =>
  answer('unknown_card', 'red', null, 'We do not know this card', [`${SEE_DESK}.`])

export const wrongPin = () =>
  answer('wrong_pin', 'red', null, 'That phone number and PIN do not match', [
    `Try again, or ${SEE_DESK.toLowerCase()}.`,
  ])

export const sharedPin = () =>
  answer('see_desk', 'red', null, SEE_DESK, ['Someone else with this phone number has the same PIN.'])

export const tooManyTries = (seconds: number) =>
  answer('throttled', 'red', null, 'Too many wrong PINs', [
    `${SEE_DESK}, or try again in ${seconds < 60 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`}.`,
  ])
