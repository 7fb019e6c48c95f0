import { getOrganization, insertOrganization } from './api/organization/queries.ts'
import { insertUser } from './api/users/queries.ts'
import { insertGym } from './api/gyms/queries.ts'
import type { Db } from './db/connection.ts'
import type { Clock } from './lib/clock.ts'
import { newPassword } from './lib/secrets.ts'
import { canonicalTimeZone } from './lib/time-zones.ts'
import { hashSecret, MIN_PASSWORD_LENGTH } from './core/auth/passwords.ts'

export interface FirstStartSettings {
  adminEmail: string | null
  adminPassword: string | null
  gymName: string
  timeZone: string
}

export interface FirstStartResult {
  adminEmail: string
  /** Set only when the password was generated here: the caller prints it once. */
  generatedPassword: string | null
}

export const DEFAULT_ADMIN_EMAIL = 'admin@localhost'

/**
 * On an empty database: the organization, its first gym and an organization admin whose default gym
 * it is, in one transaction. Does nothing (returns null) once an organization exists.
 */
export async function ensureOrganization(
  db: Db,
  clock: Clock,
  s: FirstStartSettings,
): Promise<FirstStartResult | null> {
  if (await getOrganization(db)) return null
  if (s.adminPassword !== null && s.adminPassword.length < MIN_PASSWORD_LENGTH) {
    throw new Error(`BELAY_ADMIN_PASSWORD must have at least ${MIN_PASSWORD_LENGTH} characters`)
  }
  const password = s.adminPassword ?? newPassword()
  const passwordHash = await hashSecret(password)
  const adminEmail = s.adminEmail ?? DEFAULT_ADMIN_EMAIL
  const now = clock.now().toISOString()
  const zone = canonicalTimeZone(s.timeZone)
  await db.transaction().execute(async (trx) => {
    await insertOrganization(trx, { name: s.gymName, time_zone: zone, created_at: now, updated_at: now })
    const gymId = await insertGym(trx, {
      name: s.gymName,
      time_zone: zone,
      hide_setter: 0,
      scheduler_url_path: '',
      scheduler_landing_page_text: '',
      scheduler_first_day_of_week: 'SUN',
      capacity: null,
      combine_same_day_check_ins: 0,
      created_at: now,
      updated_at: now,
    })
    await insertUser(trx, adminUser(adminEmail, gymId, passwordHash, now))
  })
  return { adminEmail, generatedPassword: s.adminPassword === null ? password : null }
}

/** An active organization admin with every permission. */
export function adminUser(email: string, gymId: number, passwordHash: string, now: string) {
  return {
    email,
    first_name: '',
    last_name: '',
    default_gym_id: gymId,
    date_joined: now,
    is_active: 1,
    can_manage_events: 1,
    can_manage_members: 1,
    can_manage_customer_proficiencies: 1,
    can_export_customers: 1,
    can_access_reports: 1,
    can_manage_climbs: 1,
    is_organization_admin: 1,
    pin_mode_required: 0,
    password_hash: passwordHash,
    pin_hash: null,
  } as const
}
