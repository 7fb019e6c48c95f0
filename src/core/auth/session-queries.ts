import type { Db } from '../../db/connection.ts'
import type { StaffUser } from '../../db/schema.ts'

/* The browser sessions' statements (sessions.ts). Sessions are never cached: nothing to clear. */

/**
 * Adds a session for a user whose password hash is still `verifiedHash` and who is still active,
 * in PIN mode when the user has `pin_mode_required`; false (nothing added) otherwise: the password
 * changed or the user was deactivated while it was verified (see insertTokenIfUnchanged).
 */
export async function insertSessionIfUnchanged(
  db: Db,
  session: { key_hash: string; user_id: number; created_at: string; expires_at: string },
  verifiedHash: string,
): Promise<boolean> {
  const result = await db
    .insertInto('auth_sessions')
    .columns(['key_hash', 'user_id', 'created_at', 'last_seen_at', 'expires_at', 'pin_mode'])
    .expression((eb) =>
      eb
        .selectFrom('staff_users')
        .select([
          eb.val(session.key_hash).as('key_hash'),
          'id',
          eb.val(session.created_at).as('created_at'),
          eb.val(session.created_at).as('last_seen_at'),
          eb.val(session.expires_at).as('expires_at'),
          'pin_mode_required',
        ])
        .where('id', '=', session.user_id)
        .where('password_hash', '=', verifiedHash)
        .where('is_active', '=', 1),
    )
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows) === 1
}

export type SessionRow = StaffUser & {
  session_id: number
  session_last_seen_at: string
  session_expires_at: string
  session_pin_mode: number
  session_kiosk: number
}

/** The user a session belongs to, with the session's times; undefined for an unknown session. */
export const getUserBySessionHash = (db: Db, keyHash: string): Promise<SessionRow | undefined> =>
  db
    .selectFrom('auth_sessions')
    .innerJoin('staff_users', 'staff_users.id', 'auth_sessions.user_id')
    .selectAll('staff_users')
    .select([
      'auth_sessions.id as session_id',
      'auth_sessions.last_seen_at as session_last_seen_at',
      'auth_sessions.expires_at as session_expires_at',
      'auth_sessions.pin_mode as session_pin_mode',
      'auth_sessions.kiosk as session_kiosk',
    ])
    .where('auth_sessions.key_hash', '=', keyHash)
    .executeTakeFirst()

export async function touchSession(db: Db, id: number, lastSeenAt: string): Promise<void> {
  await db.updateTable('auth_sessions').set({ last_seen_at: lastSeenAt }).where('id', '=', id).execute()
}

/** Turns the session into the kiosk's (see api/kiosk/); false when there is no such session. */
export async function markKioskSession(db: Db, keyHash: string): Promise<boolean> {
  const result = await db
    .updateTable('auth_sessions')
    .set({ kiosk: 1 })
    .where('key_hash', '=', keyHash)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export async function deleteSessionById(db: Db, id: number): Promise<void> {
  await db.deleteFrom('auth_sessions').where('id', '=', id).execute()
}

export async function deleteSession(db: Db, keyHash: string): Promise<void> {
  await db.deleteFrom('auth_sessions').where('key_hash', '=', keyHash).execute()
}

/** Removes every session of a user, except the one hashed `keepKeyHash` when it is given. */
export async function deleteSessionsOfUser(db: Db, userId: number, keepKeyHash?: string): Promise<void> {
  let query = db.deleteFrom('auth_sessions').where('user_id', '=', userId)
  if (keepKeyHash !== undefined) query = query.where('key_hash', '!=', keepKeyHash)
  await query.execute()
}

/** Removes the sessions past their maximum age or idle since before `idleSince`. */
export async function deleteEndedSessions(db: Db, now: string, idleSince: string): Promise<void> {
  await db
    .deleteFrom('auth_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleSince)]))
    .execute()
}
