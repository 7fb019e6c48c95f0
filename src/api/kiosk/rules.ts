import { LoginGate } from '../../core/auth/login-gate.ts'
import { hashSecret, verifySecret } from '../../core/auth/passwords.ts'
import { BUSY_RETRY_AFTER_SECONDS } from '../../core/auth/authentication.ts'
import type { Deps } from '../../deps.ts'
import { notFound, ValidationError } from '../../http/errors.ts'
import { getCustomerTelephone, listKioskPinHolders, putKioskPin } from './queries.ts'

export const pinMessages = {
  noTelephone: "Add the customer's phone number first: the kiosk asks for it with the PIN.",
  shared: 'Someone else with this phone number has this PIN: choose another.',
}

/** A telephone number's digits alone, as customers' numbers are matched (see customers' search). */
export const digitsOf = (telephone: string) => telephone.replace(/\D/g, '')

/** Which of these PIN holders this PIN is: the customer ids whose hash it matches. */
async function matching(holders: { customer_id: number; pin_hash: string }[], pin: string) {
  const matched: number[] = []
  for (const holder of holders) if (await verifySecret(pin, holder.pin_hash)) matched.push(holder.customer_id)
  return matched
}

/**
 * PUT /api/customers/<id>/kiosk-pin/: sets the customer's PIN. The customer needs a telephone
 * number (the kiosk asks for both), and no one else with that number may have the same PIN, so
 * that a family sharing a phone is told apart by their PINs.
 */
export async function setKioskPin(deps: Deps, customerId: number, pin: string): Promise<void> {
  const customer = await getCustomerTelephone(deps.db, customerId)
  if (!customer) throw notFound()
  const digits = digitsOf(customer.telephone)
  if (digits.length < 3) throw ValidationError.field('pin', pinMessages.noTelephone)
  const others = (await listKioskPinHolders(deps.db, digits)).filter((h) => h.customer_id !== customerId)
  if ((await matching(others, pin)).length > 0) throw ValidationError.field('pin', pinMessages.shared)
  await putKioskPin(deps.db, customerId, await hashSecret(pin), deps.clock.now().toISOString())
}

export type KioskPinCheck =
  | { customerId: number }
  | { error: 'wrong' }
  | { error: 'shared' }
  | { error: 'throttled'; retryAfter: number }

const waitFor = (deps: Deps, digits: string, kioskKey: string) =>
  Math.max(
    deps.pinThrottles.kioskTelephone.retryAfterSeconds(digits),
    deps.pinThrottles.kiosk.retryAfterSeconds(kioskKey),
  )

/**
 * The customer this telephone number and PIN are, at the kiosk `kioskKey` (its session's or
 * token's hash). A number nobody with a PIN has is as wrong as a wrong PIN, and takes as long.
 * Wrong ones are throttled per number and per kiosk (PinThrottles), and verified through the login
 * gate, as staff PINs are.
 */
export async function checkKioskPin(
  deps: Deps,
  telephone: string,
  pin: string,
  kioskKey: string,
): Promise<KioskPinCheck> {
  const digits = digitsOf(telephone)
  const retryAfter = waitFor(deps, digits, kioskKey)
  if (retryAfter > 0) return { error: 'throttled', retryAfter }
  const checked = await deps.loginGate.run(async (): Promise<KioskPinCheck> => {
    const retryAfter = waitFor(deps, digits, kioskKey)
    if (retryAfter > 0) return { error: 'throttled', retryAfter }
    const holders = digits.length >= 3 ? await listKioskPinHolders(deps.db, digits) : []
    if (holders.length === 0) await verifySecret(pin, null)
    const matched = await matching(holders, pin)
    if (matched.length === 1) return { customerId: matched[0]! }
    // Two people matched by one number and PIN (numbers that end alike): the desk tells them apart.
    if (matched.length > 1) return { error: 'shared' }
    deps.pinThrottles.kioskTelephone.recordFailure(digits)
    deps.pinThrottles.kiosk.recordFailure(kioskKey)
    return { error: 'wrong' }
  })
  if (checked === LoginGate.busy) return { error: 'throttled', retryAfter: BUSY_RETRY_AFTER_SECONDS }
  return checked
}
