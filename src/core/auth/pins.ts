import type { Db } from '../../db/connection.ts'
import type { StaffUser } from '../../db/schema.ts'
import type { Clock } from '../../lib/clock.ts'
import { LoginGate } from './login-gate.ts'
import { ADDRESS_MAX_FAILURES, LoginThrottle } from './login-throttle.ts'
import { verifySecret } from './passwords.ts'
import { getUserByEmail } from './queries.ts'
import { BUSY_RETRY_AFTER_SECONDS } from './authentication.ts'

/**
 * PIN mode: a desk signed in as a shared account names the staff member acting on each change by
 * their email and PIN, and the change is theirs. PINs are short, so wrong ones are throttled as
 * logins are: per acting email (10 in 15 minutes) and per signed-in desk account, whatever the
 * emails (20 in 15 minutes), so guessing another email each time stops too. A PIN is an argon2id
 * hash, verified through the login gate like a password.
 */
export interface PinThrottles {
  /** Wrong PINs per acting staff email. */
  staff: LoginThrottle
  /** Wrong PINs per signed-in account (the desk), whatever the emails. */
  desk: LoginThrottle
  /** The self check-in kiosk's customer PINs (api/kiosk/): wrong ones per telephone number. */
  kioskTelephone: LoginThrottle
  /** The kiosk's wrong customer PINs per kiosk (its session or token), whatever the numbers. */
  kiosk: LoginThrottle
}

/** Wrong customer PINs a telephone number may have in the window: a family's typos, not a guess. */
export const KIOSK_TELEPHONE_MAX_FAILURES = 5

export const newPinThrottles = (clock: Clock): PinThrottles => ({
  staff: new LoginThrottle(clock),
  desk: new LoginThrottle(clock, ADDRESS_MAX_FAILURES),
  kioskTelephone: new LoginThrottle(clock, KIOSK_TELEPHONE_MAX_FAILURES),
  kiosk: new LoginThrottle(clock, ADDRESS_MAX_FAILURES),
})

interface Pins {
  db: Db
  pinThrottles: PinThrottles
  loginGate: LoginGate
}

export type PinCheck = { user: StaffUser } | { error: 'wrong' } | { error: 'throttled'; retryAfter: number }

const waitFor = (deps: Pins, email: string, deskUserId: number) =>
  Math.max(
    deps.pinThrottles.staff.retryAfterSeconds(email),
    deps.pinThrottles.desk.retryAfterSeconds(String(deskUserId)),
  )

/**
 * The active staff user with this email whose PIN this is, for a request signed in as
 * `deskUserId`. An unknown email, an inactive user or one without a PIN are as wrong as a wrong
 * PIN, and take as long.
 */
export async function checkPin(
  deps: Pins,
  email: string,
  pin: string,
  deskUserId: number,
): Promise<PinCheck> {
  const retryAfter = waitFor(deps, email, deskUserId)
  if (retryAfter > 0) return { error: 'throttled', retryAfter }
  const checked = await deps.loginGate.run(async (): Promise<PinCheck> => {
    const retryAfter = waitFor(deps, email, deskUserId)
    if (retryAfter > 0) return { error: 'throttled', retryAfter }
    const user = await getUserByEmail(deps.db, email)
    const hash = user?.pin_hash ?? null
    const ok = await verifySecret(pin, hash)
    if (user && user.is_active === 1 && hash !== null && ok) return { user }
    deps.pinThrottles.staff.recordFailure(email)
    deps.pinThrottles.desk.recordFailure(String(deskUserId))
    return { error: 'wrong' }
  })
  if (checked === LoginGate.busy) return { error: 'throttled', retryAfter: BUSY_RETRY_AFTER_SECONDS }
  return checked
}
