import type { Actor } from '../../domain/actor.ts'
import type { Static } from 'elysia'
import { lookUpGym } from '../gyms/queries.ts'
import { insertUser, updateUser } from './queries.ts'
import type { UserCreate, UserReplace } from './schema.ts'
import type { StaffUser, StaffUserUpdate } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { messages, type FieldErrorCollector } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { toFlag } from '../../db/flags.ts'
import { revokeTokens, type Credential } from '../../core/auth/authentication.ts'
import { deleteSessionsOfUser } from '../../core/auth/session-queries.ts'
import { hashSecret } from '../../core/auth/passwords.ts'
import { getUserByEmail } from '../../core/auth/queries.ts'

type UserInput = Partial<Static<typeof UserReplace>>

export const emailTaken = 'staff user with this email already exists.'
export const cannotDeactivateSelf = 'You cannot deactivate your own account.'
export const cannotDropOwnAdmin = 'You cannot remove your own organization admin rights.'

/** Field rules shared by create and update; `existing` is the user being changed, if any. */
async function checkUserInput(
  deps: Pick<Deps, 'db'>,
  input: UserInput,
  errors: FieldErrorCollector,
  existing?: StaffUser,
): Promise<void> {
  if (input.email !== undefined) {
    if (existing && input.email.toLowerCase() !== existing.email.toLowerCase())
      errors.add('email', messages.cannotChange)
    else if (!existing && (await getUserByEmail(deps.db, input.email))) errors.add('email', emailTaken)
  }
  await lookUpGym(deps.db, errors, 'default_gym_id', input.default_gym_id)
}

async function userChanges(input: UserInput): Promise<StaffUserUpdate> {
  return {
    first_name: input.first_name,
    last_name: input.last_name,
    default_gym_id: input.default_gym_id,
    is_active: toFlag(input.is_active),
    can_manage_events: toFlag(input.can_manage_events),
    can_manage_members: toFlag(input.can_manage_members),
    can_manage_customer_proficiencies: toFlag(input.can_manage_customer_proficiencies),
    can_export_customers: toFlag(input.can_export_customers),
    can_access_reports: toFlag(input.can_access_reports),
    can_manage_climbs: toFlag(input.can_manage_climbs),
    is_organization_admin: toFlag(input.is_organization_admin),
    pin_mode_required: toFlag(input.pin_mode_required),
    password_hash: input.password === undefined ? undefined : await hashSecret(input.password),
    pin_hash: input.pin === undefined ? undefined : await hashSecret(input.pin),
  }
}

export async function createStaffUser(
  deps: Pick<Deps, 'db' | 'clock' | 'tokenCache'>,
  body: CheckedBody<Static<typeof UserCreate>>,
): Promise<number> {
  await checkUserInput(deps, body.fields, body.errors)
  const input = body.valid()
  const changes = await userChanges(input)
  const id = await insertUser(deps.db, {
    email: input.email,
    first_name: changes.first_name ?? '',
    last_name: changes.last_name ?? '',
    default_gym_id: input.default_gym_id,
    date_joined: deps.clock.now().toISOString(),
    is_active: changes.is_active!,
    can_manage_events: changes.can_manage_events!,
    can_manage_members: changes.can_manage_members!,
    can_manage_customer_proficiencies: changes.can_manage_customer_proficiencies!,
    can_export_customers: changes.can_export_customers!,
    can_access_reports: changes.can_access_reports!,
    can_manage_climbs: changes.can_manage_climbs ?? 0,
    is_organization_admin: changes.is_organization_admin!,
    pin_mode_required: changes.pin_mode_required ?? 0,
    password_hash: changes.password_hash ?? null,
    pin_hash: changes.pin_hash ?? null,
  })
  // A new user holds no token yet; cleared all the same, as after every staff_users write.
  deps.tokenCache.clear()
  return id
}

/**
 * PUT/PATCH of a staff user. Nobody may deactivate themselves or drop their own admin flag, so the
 * organization always keeps an admin who can undo mistakes. A new password revokes the user's
 * tokens and sessions, all but the one this request presented when admins set their own;
 * deactivation ends their sessions.
 */
export async function changeStaffUser(
  deps: Pick<Deps, 'db' | 'tokenCache'>,
  user: StaffUser,
  body: CheckedBody<UserInput>,
  actor: Actor & { credential: Credential },
): Promise<void> {
  const { fields, errors } = body
  await checkUserInput(deps, fields, errors, user)
  if (actor.user.id === user.id) {
    if (fields.is_active === false) errors.add('is_active', cannotDeactivateSelf)
    if (fields.is_organization_admin === false && user.is_organization_admin === 1) {
      errors.add('is_organization_admin', cannotDropOwnAdmin)
    }
  }
  const input = body.valid()
  const changes = await userChanges(input)
  // One transaction: a new password never lands without its revocation, even if the power goes.
  await deps.db.transaction().execute(async (trx) => {
    await updateUser(trx, user.id, changes)
    if (input.password !== undefined)
      await revokeTokens(
        { db: trx, tokenCache: deps.tokenCache },
        user.id,
        actor.user.id === user.id ? actor.credential : undefined,
      )
    // A deactivated user's browser sessions end (their tokens only stop working while inactive).
    if (input.is_active === false) await deleteSessionsOfUser(trx, user.id)
  })
  // Deactivation and permission changes apply from the user's very next request.
  deps.tokenCache.clear()
}
