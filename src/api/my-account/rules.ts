import { lookUpGym } from '../gyms/queries.ts'
import { updateUser } from '../users/queries.ts'
import type { StaffUser } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { messages } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { revokeTokens, type Credential } from '../../core/auth/authentication.ts'
import { hashSecret, verifySecret } from '../../core/auth/passwords.ts'

export const wrongPassword = 'Your old password was entered incorrectly. Please enter it again.'

export interface MyAccountInput {
  first_name?: string
  last_name?: string
  default_gym_id?: number
  /** The current password: `previous_password` on my-account; change-password also takes `old_password`. */
  previous_password?: string
  old_password?: string
  new_password?: string
}

/**
 * Changes the signed-in user's own account. A new password needs the current one, whose errors are
 * reported under `currentPasswordField`, the name the endpoint documents. A new password ends
 * every token and session of the user but `credential`, the one this request presented.
 */
export async function changeMyAccount(
  deps: Pick<Deps, 'db' | 'tokenCache'>,
  { user, credential }: { user: StaffUser; credential: Credential },
  body: CheckedBody<MyAccountInput>,
  currentPasswordField: 'previous_password' | 'old_password',
): Promise<void> {
  const { fields, errors } = body
  await lookUpGym(deps.db, errors, 'default_gym_id', fields.default_gym_id)
  const current = fields.old_password ?? fields.previous_password
  const wantsNewPassword = fields.new_password !== undefined || errors.has('new_password')
  if (wantsNewPassword && !errors.has(currentPasswordField)) {
    if (current === undefined) errors.add(currentPasswordField, messages.required)
    else if (!(await verifySecret(current, user.password_hash)))
      errors.add(currentPasswordField, wrongPassword)
  }
  const input = body.valid()
  const changes = {
    first_name: input.first_name,
    last_name: input.last_name,
    default_gym_id: input.default_gym_id,
    password_hash: input.new_password === undefined ? undefined : await hashSecret(input.new_password),
  }
  // One transaction: a new password never lands without its revocation, even if the power goes.
  await deps.db.transaction().execute(async (trx) => {
    await updateUser(trx, user.id, changes)
    if (input.new_password !== undefined)
      await revokeTokens({ db: trx, tokenCache: deps.tokenCache }, user.id, credential)
  })
  // The cached user carries these fields (default gym, password hash): the next request reads them anew.
  deps.tokenCache.clear()
}
