import { getUserByTokenHash, insertToken } from '../api/auth/queries.ts'
import { getUserByEmail } from '../api/users/queries.ts'
import type { StaffUser } from '../db/schema.ts'
import type { Deps } from '../deps.ts'
import { hashTokenKey, newTokenKey } from '../lib/secrets.ts'
import { verifySecret } from './passwords.ts'

export type TokenCheck = { user: StaffUser } | { error: 'invalid' }

/** The active user holding an unexpired token with this key. */
export async function authenticateToken(deps: Pick<Deps, 'db' | 'clock'>, key: string): Promise<TokenCheck> {
  const row = await getUserByTokenHash(deps.db, hashTokenKey(key))
  if (!row || row.is_active !== 1) return { error: 'invalid' }
  if (row.token_expires_at !== null && row.token_expires_at <= deps.clock.now().toISOString())
    return { error: 'invalid' }
  const { token_expires_at: _, ...user } = row
  return { user }
}

export type LoginResult =
  { token: string } | { error: 'credentials' } | { error: 'throttled'; retryAfter: number }

/** get-token: checks the throttle, then the credentials, then issues a fresh token. */
export async function logIn(deps: Deps, username: string, password: string): Promise<LoginResult> {
  const retryAfter = deps.loginThrottle.retryAfterSeconds(username)
  if (retryAfter > 0) return { error: 'throttled', retryAfter }
  const user = await getUserByEmail(deps.db, username)
  // Verify even for an unknown or inactive user, so the answer's timing does not tell them apart.
  const passwordOk = await verifySecret(password, user?.password_hash ?? null)
  if (!user || user.is_active !== 1 || !passwordOk) {
    deps.loginThrottle.recordFailure(username)
    return { error: 'credentials' }
  }
  const now = deps.clock.now()
  const key = newTokenKey()
  const lifetime = deps.config.tokenLifetimeHours
  await insertToken(deps.db, {
    key_hash: hashTokenKey(key),
    user_id: user.id,
    created_at: now.toISOString(),
    expires_at: lifetime === null ? null : new Date(now.getTime() + lifetime * 3_600_000).toISOString(),
  })
  return { token: key }
}
