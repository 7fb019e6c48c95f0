import { insertOrganization } from '../../src/api/organization/queries.ts'
import { hashSecret } from '../../src/core/auth/passwords.ts'
import type { Db } from '../../src/db/connection.ts'
import type { Insertable } from 'kysely'
import type { Database, EventCategory, EventType, Gym, GymTable, StaffUser } from '../../src/db/schema.ts'
import { hashTokenKey, newTokenKey } from '../../src/lib/secrets.ts'
import { START } from './app.ts'

/**
 * Records for tests, built straight into the database. Tokens come from here (never pasted), and
 * users get no password unless one is asked for: argon2 is deliberately slow.
 */
export async function makeOrganization(db: Db, fields: { name?: string; time_zone?: string } = {}) {
  await insertOrganization(db, {
    name: fields.name ?? 'Boulder Barn',
    time_zone: fields.time_zone ?? 'America/Denver',
    created_at: START,
    updated_at: START,
  })
}

/** A gym's columns as makeGym writes them, for an insert of several at once. */
export const gymValues = (fields: Partial<Omit<Gym, 'id'>> = {}): Insertable<GymTable> => ({
  name: 'Boulder Barn Downtown',
  hide_setter: 0,
  time_zone: 'America/Denver',
  scheduler_url_path: '',
  scheduler_landing_page_text: '',
  scheduler_first_day_of_week: 'SUN',
  capacity: null,
  combine_same_day_check_ins: 0,
  created_at: START,
  updated_at: START,
  ...fields,
})

export async function makeGym(db: Db, fields: Partial<Omit<Gym, 'id'>> = {}): Promise<Gym> {
  return db.insertInto('gyms').values(gymValues(fields)).returningAll().executeTakeFirstOrThrow()
}

/** An event type, in the first gym unless `gym_id` says otherwise. */
export async function makeEventType(db: Db, fields: Partial<Omit<EventType, 'id'>> = {}): Promise<EventType> {
  const gymId = fields.gym_id ?? (await firstGymId(db, 'makeEventType'))
  return db
    .insertInto('event_types')
    .values({
      name: 'Intro to Bouldering',
      status: 'ACT',
      capacity: null,
      late_booking_window_minutes: 15,
      is_listed: 1,
      created_at: START,
      updated_at: START,
      ...fields,
      gym_id: gymId,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** An event category in use, named Youth unless told. */
export async function makeEventCategory(
  db: Db,
  fields: Partial<Omit<EventCategory, 'id'>> = {},
): Promise<EventCategory> {
  return db
    .insertInto('event_categories')
    .values({ name: 'Youth', created_at: START, updated_at: START, ...fields })
    .returningAll()
    .executeTakeFirstOrThrow()
}

async function firstGymId(db: Db, caller: string): Promise<number> {
  const gym = await db.selectFrom('gyms').select('id').orderBy('id').executeTakeFirst()
  if (gym === undefined) throw new Error(`${caller} needs a gym: call makeGym first`)
  return gym.id
}

type Flags = Partial<
  Pick<
    StaffUser,
    | 'is_active'
    | 'can_manage_events'
    | 'can_manage_members'
    | 'can_manage_customer_proficiencies'
    | 'can_export_customers'
    | 'can_access_reports'
    | 'can_manage_climbs'
    | 'is_organization_admin'
    | 'pin_mode_required'
  >
>

/** Every can_* permission flag set, for users who have all of them but are not organization admins. */
export const everyCanFlag = {
  can_manage_events: 1,
  can_manage_members: 1,
  can_manage_customer_proficiencies: 1,
  can_export_customers: 1,
  can_access_reports: 1,
  can_manage_climbs: 1,
} as const satisfies Flags

let userCounter = 0

export async function makeUser(
  db: Db,
  fields: Flags & {
    email?: string
    first_name?: string
    last_name?: string
    default_gym_id?: number
    password?: string
  } = {},
): Promise<StaffUser> {
  const { password, ...rest } = fields
  const gymId = fields.default_gym_id ?? (await firstGymId(db, 'makeUser'))
  userCounter += 1
  return db
    .insertInto('staff_users')
    .values({
      email: `staff${userCounter}@gym.example`,
      first_name: '',
      last_name: '',
      date_joined: START,
      is_active: 1,
      can_manage_events: 0,
      can_manage_members: 0,
      can_manage_customer_proficiencies: 0,
      can_export_customers: 0,
      can_access_reports: 0,
      can_manage_climbs: 0,
      is_organization_admin: 0,
      pin_mode_required: 0,
      pin_hash: null,
      ...rest,
      default_gym_id: gymId,
      password_hash: password === undefined ? null : await hashSecret(password),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** A working API token for `user`. */
export async function makeToken(db: Db, user: StaffUser, expiresAt: string | null = null): Promise<string> {
  const key = newTokenKey()
  await db
    .insertInto('auth_tokens')
    .values({ key_hash: hashTokenKey(key), user_id: user.id, created_at: START, expires_at: expiresAt })
    .execute()
  return key
}

/**
 * The usual starting point: an organization, one gym, an admin and a user with no permissions,
 * each with a token.
 */
export async function seedBasics(db: Db) {
  await makeOrganization(db)
  const gym = await makeGym(db)
  const admin = await makeUser(db, { email: 'admin@gym.example', is_organization_admin: 1 })
  const staff = await makeUser(db, { email: 'desk@gym.example' })
  return {
    gym,
    admin,
    adminToken: await makeToken(db, admin),
    staff,
    staffToken: await makeToken(db, staff),
  }
}

export type Seed = Awaited<ReturnType<typeof seedBasics>>

/** How many rows `table` holds, for checking that a refused write stored nothing. */
export async function countRows(db: Db, table: keyof Database): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** The stored row of a staff user, for checking that a refused write changed nothing. */
export const storedUser = (db: Db, id: number) =>
  db.selectFrom('staff_users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
