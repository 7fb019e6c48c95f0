import { getOrganization, insertOrganization, updateOrganization } from '../api/organization/queries.ts'
import { getCurrentWaiverText, insertWaiverText } from '../api/waiver-texts/queries.ts'
import { insertGym, updateGym } from '../api/gyms/queries.ts'
import { insertUser } from '../api/users/queries.ts'
import { getUserByEmail } from '../core/auth/queries.ts'
import type { Db } from '../db/connection.ts'
import type { NewStaffUser } from '../db/schema.ts'
import { Calendar } from './calendar.ts'
import type { DemoGym, DemoStaff, SizeProfile } from './context.ts'
import { FEMALE_NAMES, LAST_NAMES, MALE_NAMES } from './names.ts'
import type { Random } from './random.ts'
import { WALL_HISTORY_DAYS } from './walls-catalog.ts'

export const DEMO_ORGANIZATION = { name: 'Granite Peak Climbing', timeZone: 'America/Denver' } as const
export const DEMO_ADMIN_EMAIL = 'admin@granitepeak.example'
/** Every demo staff account gets this password: the demo is for trying the appliance out. */
export const DEMO_PASSWORD = 'granite-peak-demo'

const GYMS = [
  { name: 'Granite Peak Denver', path: 'denver', capacity: 220 },
  { name: 'Granite Peak Boulder', path: 'boulder', capacity: 160 },
  { name: 'Granite Peak Golden', path: 'golden', capacity: 120 },
] as const

const STAFF_DOMAIN = 'granitepeak.example'

export interface Venue {
  gyms: DemoGym[]
  staff: DemoStaff
  staffCount: number
  /** False when an account with the demo admin email already existed (its password is unchanged). */
  adminCreated: boolean
  /** The organization's check-in milestones (its own, when it was already set up) */
  milestones: number[]
}

/**
 * The organization, its gyms and staff. These few rows go through the ordinary query functions.
 * An organization made by the first start (or `ensureOrganization`) is turned into the demo one:
 * renamed, moved to the demo's zone, its gyms renamed in id order.
 */
export async function seedVenue(
  db: Db,
  cal: Calendar,
  profile: SizeProfile,
  rng: Random,
  setterNames: Random,
  passwordHash: string,
): Promise<Venue> {
  const founded = cal.stamp(openingDay(cal, 0), 9 * 60)
  const { name, timeZone } = DEMO_ORGANIZATION
  if (await getOrganization(db)) await updateOrganization(db, { name, time_zone: timeZone })
  else await insertOrganization(db, { name, time_zone: timeZone, created_at: founded, updated_at: founded })
  const milestones = JSON.parse((await getOrganization(db))!.milestones) as number[]

  const existing = await db.selectFrom('gyms').select('id').orderBy('id').execute()
  const gyms: DemoGym[] = []
  for (const [index, spec] of GYMS.slice(0, profile.gyms).entries()) {
    const fields = {
      name: spec.name,
      time_zone: timeZone,
      hide_setter: 0,
      scheduler_url_path: spec.path,
      scheduler_landing_page_text: `Book classes and events at ${spec.name}.`,
      scheduler_first_day_of_week: 'SUN',
      capacity: spec.capacity,
      combine_same_day_check_ins: 1,
    } as const
    const opened = cal.stamp(openingDay(cal, index), 9 * 60)
    const known = existing[index]?.id
    if (known !== undefined) await updateGym(db, known, { ...fields, updated_at: opened })
    const id = known ?? (await insertGym(db, { ...fields, created_at: opened, updated_at: opened }))
    gyms.push({ id, index, name: spec.name })
  }

  const { people, setters: setterPlaces } = staffPeople(profile, gyms, rng, setterNames)
  let adminCreated = false
  const ids: number[] = []
  /** Each person's day joined, for the setters' (a setter sets nothing before they joined). */
  const joinedDays: number[] = []
  for (const [index, person] of people.entries()) {
    const taken = await getUserByEmail(db, person.email)
    if (taken) {
      ids.push(taken.id)
      joinedDays.push(Calendar.toDay(taken.date_joined.slice(0, 10)))
      continue
    }
    const drawn = rng.int(30, 4 * 365)
    // A gym's head setter has set its walls since before the demo's two years of climbs.
    const head = setterPlaces.some((s) => s.index === index && s.head)
    const daysAgo = head ? Math.max(drawn, WALL_HISTORY_DAYS + 60) : drawn
    const joined = cal.stamp(cal.today - daysAgo, 8 * 60 + rng.int(0, 600))
    ids.push(await insertUser(db, { ...person, date_joined: joined, password_hash: passwordHash }))
    joinedDays.push(cal.today - daysAgo)
    if (person.email === DEMO_ADMIN_EMAIL) adminCreated = true
  }
  const [adminId, managerId, eventsId, ...deskIds] = ids as [number, number, number, ...number[]]
  // The tablet's waiver screen needs a text to show; a box already running keeps its own.
  if (!(await getCurrentWaiverText(db)))
    await insertWaiverText(db, {
      text: DEMO_WAIVER_TEXT,
      valid_for_days: 365,
      created_at: founded,
      created_by_user_id: adminId,
    })
  return {
    gyms,
    staff: {
      adminId,
      managerId,
      eventsId,
      deskIds: deskIds.slice(0, gyms.length * profile.deskStaffPerGym),
      setters: setterPlaces.map((s) => ({
        id: ids[s.index]!,
        gymId: s.gymId,
        joinedDay: joinedDays[s.index]!,
      })),
    },
    staffCount: people.length,
    adminCreated,
    milestones,
  }
}

/** The demo organization's waiver: what a gym's release of liability says, in plain words. */
const DEMO_WAIVER_TEXT = [
  'Release of liability, assumption of risk and agreement',
  '',
  'Climbing, bouldering and the use of this gym are dangerous. Falls happen, holds break or spin, ' +
    'and people get hurt, sometimes badly, even when everyone does everything right.',
  '',
  "I understand these risks and accept them. I will follow the gym's rules and its staff, climb " +
    "within my ability, check my own equipment and knots, and use the gym's equipment only as shown.",
  '',
  'I release the gym, its owners and its staff from claims for injury or loss that arise from my ' +
    'use of the gym, except where they were grossly negligent.',
  '',
  'If I sign for a minor, I am their parent or legal guardian and agree to all of this on their behalf.',
].join('\n')

/** The day the nth demo gym opened: the first five years ago, each later one about 400 days after. */
export const openingDay = (cal: Calendar, index: number): number => cal.today - 5 * 365 + index * 400

/**
 * The day the organization began running on the appliance, two years after its first gym opened:
 * those years' check-ins came over from the software it used before, and entry passes are sold in
 * the appliance from this day on.
 */
export const applianceDay = (cal: Calendar): number => openingDay(cal, 0) + 2 * 365

type StaffPerson = Omit<NewStaffUser, 'date_joined' | 'password_hash'>

/** Where a route setter stands in the staff list, at which gym, and whether they head its setting. */
interface SetterPlace {
  index: number
  gymId: number
  head: boolean
}

/** Route setters per gym, the first of them its head setter. */
const SETTERS_PER_GYM = 3

/**
 * Admin, manager, events coordinator, desk staff per gym, the first gym's head route setter, a
 * former employee, then the rest of each gym's route setters. The later setters' names come from
 * their own stream and they come last, so every earlier account is drawn as it was before there
 * were setters.
 */
function staffPeople(
  profile: SizeProfile,
  gyms: DemoGym[],
  rng: Random,
  setterNames: Random,
): { people: StaffPerson[]; setters: SetterPlace[] } {
  const base = {
    is_active: 1,
    can_manage_events: 0,
    can_manage_members: 0,
    can_manage_customer_proficiencies: 0,
    can_export_customers: 0,
    can_access_reports: 0,
    is_organization_admin: 0,
    pin_mode_required: 0,
    pin_hash: null,
    can_manage_climbs: 0,
  } as const
  const home = gyms[0]!.id
  const people: StaffPerson[] = [
    {
      ...base,
      email: DEMO_ADMIN_EMAIL,
      first_name: 'Alex',
      last_name: 'Rivera',
      default_gym_id: home,
      can_manage_events: 1,
      can_manage_members: 1,
      can_manage_customer_proficiencies: 1,
      can_export_customers: 1,
      can_access_reports: 1,
      is_organization_admin: 1,
    },
    {
      ...base,
      email: `manager@${STAFF_DOMAIN}`,
      first_name: 'Jordan',
      last_name: 'Blake',
      default_gym_id: home,
      can_manage_members: 1,
      can_export_customers: 1,
      can_access_reports: 1,
    },
    {
      ...base,
      email: `events@${STAFF_DOMAIN}`,
      first_name: 'Sam',
      last_name: 'Okafor',
      default_gym_id: home,
      can_manage_events: 1,
    },
  ]
  const used = new Set(people.map((p) => p.email))
  const named = (gymId: number, flags: Partial<StaffPerson>, names = rng): StaffPerson => {
    const first = names.pick(names.chance(0.5) ? FEMALE_NAMES : MALE_NAMES)
    const last = names.pick(LAST_NAMES)
    let email = `${slug(first)}.${slug(last)}@${STAFF_DOMAIN}`
    for (let n = 2; used.has(email); n++) email = `${slug(first)}.${slug(last)}${n}@${STAFF_DOMAIN}`
    used.add(email)
    return { ...base, email, first_name: first, last_name: last, default_gym_id: gymId, ...flags }
  }
  // The first desk account has a role address too, so the printed summary can name it.
  for (const gym of gyms) {
    for (let i = 0; i < profile.deskStaffPerGym; i++) {
      const person = named(gym.id, { can_manage_members: 1 })
      people.push(people.length === 3 ? { ...person, email: `desk@${STAFF_DOMAIN}` } : person)
    }
  }
  const setters: SetterPlace[] = [{ index: people.length, gymId: home, head: true }]
  people.push(named(home, { can_manage_customer_proficiencies: 1, can_manage_climbs: 1 }))
  people.push(named(gyms[gyms.length - 1]!.id, { is_active: 0, can_manage_members: 1 }))
  for (const gym of gyms)
    for (let n = gym.id === home ? 1 : 0; n < SETTERS_PER_GYM; n++) {
      setters.push({ index: people.length, gymId: gym.id, head: n === 0 })
      people.push(named(gym.id, { can_manage_climbs: 1 }, setterNames))
    }
  return { people, setters }
}

/** Lower-case ASCII letters only ("O'Brien" -> "obrien", "Van der Berg" -> "vanderberg"). */
export const slug = (text: string): string => text.toLowerCase().replace(/[^a-z]/g, '')
