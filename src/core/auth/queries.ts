import type { Db } from '../../db/connection.ts'
import type { StaffUser } from '../../db/schema.ts'

/*
 * The auth engine's statements: tokens, and the staff user a login names. Whoever calls a write
 * here clears `deps.tokenCache` right after it (token-cache.ts).
 */

/**
 * Adds a token for a user whose password hash is still `verifiedHash` and who is still active; false
 * (nothing added) otherwise. A login verifies the password for a tenth of a second or more off this
 * thread: if the password was changed or the user deactivated meanwhile, the revocation that came
 * with that change has already run, and a token issued now would outlive it.
 */
export async function insertTokenIfUnchanged(
  db: Db,
  token: { key_hash: string; user_id: number; created_at: string; expires_at: string | null },
  verifiedHash: string,
): Promise<boolean> {
  const result = await db
    .insertInto('auth_tokens')
    .columns(['key_hash', 'user_id', 'created_at', 'expires_at'])
    .expression((eb) =>
      eb
        .selectFrom('staff_users')
        .select([
          eb.val(token.key_hash).as('key_hash'),
          'id',
          eb.val(token.created_at).as('created_at'),
          eb.val(token.expires_at).as('expires_at'),
        ])
        .where('id', '=', token.user_id)
        .where('password_hash', '=', verifiedHash)
        .where('is_active', '=', 1),
    )
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows) === 1
}

/** The user a token belongs to, with the token's expiry; undefined for an unknown token. */
export async function getUserByTokenHash(
  db: Db,
  keyHash: string,
): Promise<(StaffUser & { token_expires_at: string | null }) | undefined> {
  return db
    .selectFrom('auth_tokens')
    .innerJoin('staff_users', 'staff_users.id', 'auth_tokens.user_id')
    .selectAll('staff_users')
    .select('auth_tokens.expires_at as token_expires_at')
    .where('auth_tokens.key_hash', '=', keyHash)
    .executeTakeFirst()
}

/** By email, case-insensitively (the column is COLLATE NOCASE). */
export const getUserByEmail = (db: Db, email: string): Promise<StaffUser | undefined> =>
  db.selectFrom('staff_users').selectAll().where('email', '=', email).executeTakeFirst()

/** Removes the token with this hash; the number of rows removed (0 for an unknown token). */
export async function deleteToken(db: Db, keyHash: string): Promise<number> {
  const result = await db.deleteFrom('auth_tokens').where('key_hash', '=', keyHash).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Removes every token of a user, except the one hashed `keepKeyHash` when it is given. */
export async function deleteTokensOfUser(db: Db, userId: number, keepKeyHash?: string): Promise<void> {
  let query = db.deleteFrom('auth_tokens').where('user_id', '=', userId)
  if (keepKeyHash !== undefined) query = query.where('key_hash', '!=', keepKeyHash)
  await query.execute()
}
