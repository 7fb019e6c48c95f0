import type { StaffUser } from '../../db/schema.ts'
import type { Clock } from '../../lib/clock.ts'
import { csrfTokenFor, hashTokenKey, newSessionKey } from '../../lib/secrets.ts'
import { logInWith, type LoginRefusal, type Logins } from './authentication.ts'
import type { Db } from '../../db/connection.ts'
import {
  deleteEndedSessions,
  deleteSession,
  deleteSessionById,
  getUserBySessionHash,
  markKioskSession,
  insertSessionIfUnchanged,
  touchSession,
} from './session-queries.ts'

/**
 * Browser sessions (the desk page): a login gives a random key the browser keeps in an HttpOnly
 * cookie, and a CSRF token its scripts can read and must send back on every unsafe request. Only
 * the key's SHA-256 is stored. A session ends at its maximum age, after its idle time, at logout,
 * and with the user's tokens (a new password, deactivation, an admin's revoke-tokens).
 */

export interface SessionSettings {
  sessionIdleHours: number
  sessionMaxAgeHours: number
}

interface Sessions {
  db: Db
  clock: Clock
  config: SessionSettings
}

/**
 * How stale `last_seen_at` may get before a request writes it again: once a minute at most, so a
 * busy desk does not write on every request. The idle time is therefore kept to within a minute.
 */
export const TOUCH_EVERY_MS = 60_000

const HOUR_MS = 3_600_000

export interface SessionStarted {
  key: string
  csrfToken: string
  user: StaffUser
  /** The user has `pin_mode_required`: the session is in PIN mode. */
  pinMode: boolean
}

/** POST /api/login/: get-token's throttles, gate and refusals, then a new session. */
export function logInSession(
  deps: Logins & Sessions,
  username: string,
  password: string,
  address: string,
): Promise<SessionStarted | LoginRefusal> {
  return logInWith(deps, username, password, address, async (user, verifiedHash) => {
    const now = deps.clock.now()
    // The ended sessions go as new ones come: the table holds about one row per live login.
    await deleteEndedSessions(deps.db, now.toISOString(), idleSince(deps.config, now))
    const key = newSessionKey()
    const started = await insertSessionIfUnchanged(
      deps.db,
      {
        key_hash: hashTokenKey(key),
        user_id: user.id,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + deps.config.sessionMaxAgeHours * HOUR_MS).toISOString(),
      },
      verifiedHash,
    )
    return started
      ? { key, csrfToken: csrfTokenFor(key), user, pinMode: user.pin_mode_required === 1 }
      : undefined
  })
}

const idleSince = (config: SessionSettings, now: Date) =>
  new Date(now.getTime() - config.sessionIdleHours * HOUR_MS).toISOString()

export type SessionCheck = { user: StaffUser; pinMode: boolean; kiosk: boolean } | { error: 'ended' }

/**
 * The active user of a live session with this key, and whether the session is in PIN mode. A
 * session found past its maximum age or idle time is removed.
 */
export async function authenticateSession(deps: Sessions, key: string): Promise<SessionCheck> {
  const row = await getUserBySessionHash(deps.db, hashTokenKey(key))
  if (!row || row.is_active !== 1) return { error: 'ended' }
  const now = deps.clock.now()
  const { session_id, session_last_seen_at, session_expires_at, session_pin_mode, session_kiosk, ...user } =
    row
  if (session_expires_at <= now.toISOString() || session_last_seen_at <= idleSince(deps.config, now)) {
    await deleteSessionById(deps.db, session_id)
    return { error: 'ended' }
  }
  if (now.getTime() - Date.parse(session_last_seen_at) >= TOUCH_EVERY_MS)
    await touchSession(deps.db, session_id, now.toISOString())
  return { user, pinMode: session_pin_mode === 1, kiosk: session_kiosk === 1 }
}

/**
 * Locks the session with this key to the self check-in kiosk: from now on it may call only the
 * kiosk's endpoints (http/auth.ts says which), until a staff member logs in over it.
 */
export const startKioskSession = (deps: Pick<Sessions, 'db'>, key: string): Promise<boolean> =>
  markKioskSession(deps.db, hashTokenKey(key))

/** Ends the session with this key (a staff login over the kiosk replaces its session). */
export const endSession = (deps: Pick<Sessions, 'db'>, key: string): Promise<void> =>
  deleteSession(deps.db, hashTokenKey(key))
