import type { Db } from '../../db/connection.ts'
import type { StaffUser } from '../../db/schema.ts'
import type { Clock } from '../../lib/clock.ts'
import { hashTokenKey, newTokenKey } from '../../lib/secrets.ts'
import { LoginGate } from './login-gate.ts'
import type { LoginThrottle } from './login-throttle.ts'
import { verifySecret } from './passwords.ts'
import type { TokenCache } from './token-cache.ts'
import {
  deleteToken,
  deleteTokensOfUser,
  getUserByEmail,
  getUserByTokenHash,
  insertTokenIfUnchanged,
} from './queries.ts'
import { deleteSession, deleteSessionsOfUser } from './session-queries.ts'

export type TokenCheck = { user: StaffUser } | { error: 'invalid' }

/** Where tokens are kept: their table, and the recently seen valid ones (cleared after any write). */
interface Tokens {
  db: Db
  tokenCache: TokenCache
}

/** What a login uses besides the tokens: the throttles and queue it passes, and a token's lifetime. */
export interface Logins extends Tokens {
  clock: Clock
  /** Failed logins per username. */
  loginThrottle: LoginThrottle
  /** Failed logins per client address, whatever the username. */
  addressThrottle: LoginThrottle
  /** How many password verifications run and wait at once. */
  loginGate: LoginGate
  config: { tokenLifetimeHours: number | null }
}

/**
 * The active user holding an unexpired token with this key. A token seen valid a moment ago is
 * answered from `deps.tokenCache` (see token-cache.ts for why that answer cannot go stale).
 */
export async function authenticateToken(deps: Tokens & { clock: Clock }, key: string): Promise<TokenCheck> {
  const keyHash = hashTokenKey(key)
  const now = deps.clock.now()
  const cached = deps.tokenCache.lookUp(keyHash, now.getTime())
  if (cached !== undefined) return { user: cached }
  const generation = deps.tokenCache.generation
  const row = await getUserByTokenHash(deps.db, keyHash)
  if (!row || row.is_active !== 1) return { error: 'invalid' }
  if (row.token_expires_at !== null && row.token_expires_at <= now.toISOString()) return { error: 'invalid' }
  const { token_expires_at, ...fields } = row
  const user = Object.freeze(fields)
  const expiresAtMs = token_expires_at === null ? null : Date.parse(token_expires_at)
  // An expiry the cache could not compare (not an ISO datetime) is simply never cached.
  if (expiresAtMs === null || Number.isFinite(expiresAtMs))
    deps.tokenCache.remember(keyHash, user, expiresAtMs, now.getTime(), generation)
  return { user }
}

export type LoginRefusal = { error: 'credentials' } | { error: 'throttled'; retryAfter: number }
export type LoginResult = { token: string } | LoginRefusal

/** How long a login refused by a full queue is told to wait. */
export const BUSY_RETRY_AFTER_SECONDS = 1

/** Seconds until this username and this client address may both try again; 0 when they may now. */
const waitFor = (deps: Logins, username: string, address: string) =>
  Math.max(deps.loginThrottle.retryAfterSeconds(username), deps.addressThrottle.retryAfterSeconds(address))

/**
 * What a login issues once the password is verified: a token or a session. `verifiedHash` is the
 * password hash the password was checked against; undefined means it is no longer the user's (or
 * the user was deactivated) and nothing was issued.
 */
export type Issue<T> = (user: StaffUser, verifiedHash: string) => Promise<T | undefined>

/**
 * get-token: checks the throttles, then the credentials, then issues a fresh token. `address` is
 * the client's: failures count against it as well as against the username, so guessing with a new
 * username each time is throttled too.
 */
export const logIn = (deps: Logins, username: string, password: string, address: string) =>
  logInWith(deps, username, password, address, (user, verifiedHash) => issueToken(deps, user, verifiedHash))

/** A login of either kind: the same throttles, gate and refusals, then `issue`. */
export async function logInWith<T>(
  deps: Logins,
  username: string,
  password: string,
  address: string,
  issue: Issue<T>,
): Promise<T | LoginRefusal> {
  const result = await checkAndIssue(deps, username, password, address, issue)
  if (typeof result === 'object' && result !== null && 'error' in result && result.error === 'throttled')
    await deps.loginGate.pauseBeforeRefusal()
  return result
}

async function checkAndIssue<T>(
  deps: Logins,
  username: string,
  password: string,
  address: string,
  issue: Issue<T>,
): Promise<T | LoginRefusal> {
  const retryAfter = waitFor(deps, username, address)
  if (retryAfter > 0) return { error: 'throttled', retryAfter }
  type Checked =
    | { error: 'throttled'; retryAfter: number }
    | { user: StaffUser; verifiedHash: string }
    | { user: undefined }
  const checked = await deps.loginGate.run(async (): Promise<Checked> => {
    // Asked again: failures recorded while this login waited in the queue count too.
    const retryAfter = waitFor(deps, username, address)
    if (retryAfter > 0) return { error: 'throttled', retryAfter }
    const user = await getUserByEmail(deps.db, username)
    // Verify even for an unknown or inactive user, so the answer's timing does not tell them apart.
    const hash = user?.password_hash ?? null
    const passwordOk = await verifySecret(password, hash)
    if (user && user.is_active === 1 && hash !== null && passwordOk) return { user, verifiedHash: hash }
    // Recorded before the next login in the queue asks the throttles.
    deps.loginThrottle.recordFailure(username)
    deps.addressThrottle.recordFailure(address)
    return { user: undefined }
  })
  if (checked === LoginGate.busy) return { error: 'throttled', retryAfter: BUSY_RETRY_AFTER_SECONDS }
  if ('error' in checked) return checked
  if (checked.user === undefined) return { error: 'credentials' }
  const issued = await issue(checked.user, checked.verifiedHash)
  // The password checked is no longer the user's (or the user was deactivated) while it was checked.
  return issued === undefined ? { error: 'credentials' } : issued
}

async function issueToken(
  deps: Logins,
  user: StaffUser,
  verifiedHash: string,
): Promise<{ token: string } | undefined> {
  const now = deps.clock.now()
  const key = newTokenKey()
  const lifetime = deps.config.tokenLifetimeHours
  const issued = await insertTokenIfUnchanged(
    deps.db,
    {
      key_hash: hashTokenKey(key),
      user_id: user.id,
      created_at: now.toISOString(),
      expires_at: lifetime === null ? null : new Date(now.getTime() + lifetime * 3_600_000).toISOString(),
    },
    verifiedHash,
  )
  if (!issued) return undefined
  // A new token changes no cached answer, but the rule is simple: any auth_tokens write clears.
  deps.tokenCache.clear()
  return { token: key }
}

/**
 * What authenticated a request: a token (the `Authorization` header) or a browser session (its
 * cookie). Logout ends this one; a password change keeps it and ends every other.
 */
export type Credential = { kind: 'token'; key: string } | { kind: 'session'; key: string }

/** logout: the presented token or session stops working; the user's others are untouched. */
export async function logOut(deps: Tokens, credential: Credential): Promise<void> {
  if (credential.kind === 'session') {
    await deleteSession(deps.db, hashTokenKey(credential.key))
    return
  }
  await deleteToken(deps.db, hashTokenKey(credential.key))
  // The token was just used, so it is most likely cached: it must be refused from the next request.
  deps.tokenCache.clear()
}

/**
 * Signs a user out everywhere: every token and every browser session, or all but `keep` (a password
 * change keeps the token or session that made it, and ends every other, as a stolen one must not
 * outlive it).
 */
export async function revokeTokens(deps: Tokens, userId: number, keep?: Credential): Promise<void> {
  const keepToken = keep?.kind === 'token' ? hashTokenKey(keep.key) : undefined
  const keepSession = keep?.kind === 'session' ? hashTokenKey(keep.key) : undefined
  await deleteTokensOfUser(deps.db, userId, keepToken)
  await deleteSessionsOfUser(deps.db, userId, keepSession)
  // Revoked tokens may be cached: they must be refused from the next request.
  deps.tokenCache.clear()
}
