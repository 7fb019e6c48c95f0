import { gymExists } from '../api/gyms/queries.ts'
import { updateUser } from '../api/users/queries.ts'
import type { StaffUser } from '../db/schema.ts'
import type { Deps } from '../deps.ts'
import { messages } from '../http/errors.ts'
import { FieldErrorCollector } from './field-errors.ts'
import { hashSecret, MIN_PASSWORD_LENGTH, passwordTooShort, verifySecret } from './passwords.ts'

export const wrongPassword = 'Your old password was entered incorrectly. Please enter it again.'

export interface MyAccountInput {
  first_name?: string
  last_name?: string
  default_gym_id?: number
  /** The current password, under whichever name the request used for it. */
  current_password?: string
  new_password?: string
}

/**
 * Changes the signed-in user's own account. A new password needs the current one, reported under
 * `currentPasswordField` (`previous_password` on my-account, `old_password` on change-password).
 */
export async function changeMyAccount(
  deps: Pick<Deps, 'db'>,
  user: StaffUser,
  input: MyAccountInput,
  currentPasswordField: 'previous_password' | 'old_password',
): Promise<void> {
  const errors = new FieldErrorCollector()
  if (input.default_gym_id !== undefined && !(await gymExists(deps.db, input.default_gym_id))) {
    errors.add('default_gym_id', messages.doesNotExist(input.default_gym_id))
  }
  let passwordHash: string | undefined
  if (input.new_password !== undefined) {
    if (input.current_password === undefined) errors.add(currentPasswordField, messages.required)
    else if (!(await verifySecret(input.current_password, user.password_hash)))
      errors.add(currentPasswordField, wrongPassword)
    if (input.new_password.length < MIN_PASSWORD_LENGTH) errors.add('new_password', passwordTooShort)
    else passwordHash = await hashSecret(input.new_password)
  }
  errors.throwIfAny()
  await updateUser(deps.db, user.id, {
    first_name: input.first_name,
    last_name: input.last_name,
    default_gym_id: input.default_gym_id,
    password_hash: passwordHash,
  })
}
