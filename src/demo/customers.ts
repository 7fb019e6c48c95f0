import { type DemoContext, type DemoGym, gymFor, stream } from './context.ts'
import {
  AREA_CODES,
  EMAIL_DOMAINS,
  FEMALE_NAMES,
  LAST_NAMES,
  MALE_NAMES,
  NICKNAMES,
  STREETS,
  TOWNS,
} from './names.ts'
import { slug } from './organization.ts'
import type { Random } from './random.ts'

export interface Person {
  id: number
  firstName: string
  lastName: string
  preferredName: string
  birthday: number
  isKid: boolean
  email: string | null
  telephone: string
  homeGym: DemoGym | null
  /** The day the customer record was made; holdings may pull it earlier (see `joinedBy`). */
  createdDay: number
  household: Household
  /** Set once the customer has used the gym (a membership, a pass, a reservation, a check-in). */
  active: boolean
  /** How many check-ins the customer has, and when the first was (set by the check-ins). */
  checkIns: number
  firstCheckInMs: number | null
}

export interface Household {
  kind: 'single' | 'couple' | 'family'
  adults: Person[]
  kids: Person[]
  address: Address | null
}

interface Address {
  street1: string
  street2: string
  city: string
  state: string
  postcode: string
}

const YEAR = 365.25

/**
 * Households of one adult, a couple, or a family (one or two parents and children), until there
 * are exactly `profile.customers` people. People in a household share an address and usually a
 * last name; young children have no email or telephone of their own.
 */
export function buildPeople(ctx: DemoContext): { people: Person[]; households: Household[] } {
  const rng = stream(ctx, 'customers')
  const { cal } = ctx
  const people: Person[] = []
  const households: Household[] = []
  const emails = new Set<string>()
  const target = ctx.profile.customers

  while (people.length < target) {
    const kind = rng.weighted([
      ['single', 55],
      ['couple', 17],
      ['family', 28],
    ] as const)
    const town = rng.pick(TOWNS)
    const home = rng.chance(0.04) ? null : gymFor(ctx, town.near)
    const address = rng.chance(0.1) ? null : makeAddress(rng, town)
    // Newer customers are more common than old ones: the gym keeps growing.
    const joined = cal.today - Math.floor(4 * 365 * rng.next() ** 1.4)
    const household: Household = { kind, adults: [], kids: [], address }
    const familyName = rng.pick(LAST_NAMES)
    const add = (isKid: boolean, age: number, lastName: string, createdDay: number) => {
      if (people.length >= target) return
      const female = rng.chance(0.5)
      const firstName = rng.pick(female ? FEMALE_NAMES : MALE_NAMES)
      const hasEmail = isKid ? age >= 15 && rng.chance(0.4) : rng.chance(0.97)
      const person: Person = {
        id: ctx.ids.take('customers'),
        firstName,
        lastName,
        preferredName: NICKNAMES[firstName] && rng.chance(0.5) ? NICKNAMES[firstName] : '',
        birthday: cal.today - Math.floor(age * YEAR) - rng.int(0, 364),
        isKid,
        email: hasEmail ? uniqueEmail(rng, emails, firstName, lastName) : null,
        telephone: isKid
          ? age >= 15 && rng.chance(0.5)
            ? telephone(rng)
            : ''
          : rng.chance(0.9)
            ? telephone(rng)
            : '',
        homeGym: home,
        createdDay: Math.min(cal.today, createdDay),
        household,
        active: false,
        checkIns: 0,
        firstCheckInMs: null,
      }
      people.push(person)
      ;(isKid ? household.kids : household.adults).push(person)
    }

    if (kind === 'single') add(false, adultAge(rng), rng.pick(LAST_NAMES), joined)
    else if (kind === 'couple') {
      const age = adultAge(rng)
      add(false, age, familyName, joined)
      add(false, clampAge(age + rng.int(-5, 5)), rng.chance(0.65) ? familyName : rng.pick(LAST_NAMES), joined)
    } else {
      const parentAge = rng.int(29, 54)
      add(false, parentAge, familyName, joined)
      if (rng.chance(0.7))
        add(
          false,
          clampAge(parentAge + rng.int(-4, 4)),
          rng.chance(0.8) ? familyName : rng.pick(LAST_NAMES),
          joined,
        )
      const kids = rng.weighted([
        [1, 40],
        [2, 42],
        [3, 18],
      ] as const)
      for (let k = 0; k < kids; k++) {
        const age = rng.int(4, Math.min(17, parentAge - 21))
        add(true, age, familyName, joined + (rng.chance(0.3) ? rng.int(0, 300) : 0))
      }
    }
    if (household.adults.length + household.kids.length > 0) households.push(household)
  }
  return { people, households }
}

/** Pulls people's record dates back so nobody holds something from before they were a customer. */
export function joinedBy(people: readonly Person[], day: number): void {
  for (const p of people) {
    if (p.createdDay > day) p.createdDay = day
    p.active = true
  }
}

/** The customers rows, built last so holdings could adjust created days and activity. */
export function customerRows(ctx: DemoContext, people: readonly Person[]): void {
  const rng = stream(ctx, 'customer-rows')
  const { cal } = ctx
  const step = 7_654_321 // odd and not a multiple of 3 or 5: i -> barcode is one-to-one below 9e7
  const offset = rng.int(0, 89_999_999)
  people.forEach((p, i) => {
    // Records go in at the desk when the customer first comes (07:00-09:00 local); everything the
    // customer then holds is stamped from 09:00 on, so nothing predates its customer.
    const createdAt = cal.stamp(p.createdDay, rng.int(7 * 60, 9 * 60 - 1))
    const updatedDay = rng.chance(0.2) ? rng.int(p.createdDay, cal.today) : p.createdDay
    const a = p.household.address
    ctx.rows.customers.push({
      id: p.id,
      first_name: p.firstName,
      last_name: p.lastName,
      preferred_name: p.preferredName,
      email: p.email,
      telephone: p.telephone,
      birthday: cal.date(p.birthday),
      barcode: rng.chance(0.02) ? null : String(10_000_000 + ((i * step + offset) % 90_000_000)),
      // A few people who never came back were deactivated (the way to remove a customer).
      is_active: !p.active && rng.chance(0.03) ? 0 : 1,
      home_location_id: p.homeGym?.id ?? null,
      address_street_1: a?.street1 ?? '',
      address_street_2: a?.street2 ?? '',
      address_city: a?.city ?? '',
      address_state: a?.state ?? '',
      address_postcode: a?.postcode ?? '',
      address_country: a ? 'US' : '',
      profile_image_url: '',
      first_check_in_timestamp: p.firstCheckInMs === null ? null : new Date(p.firstCheckInMs).toISOString(),
      check_in_count: p.checkIns,
      created_at: createdAt,
      updated_at: updatedDay === p.createdDay ? createdAt : cal.stamp(updatedDay, rng.int(8 * 60, 21 * 60)),
    })
  })
}

function adultAge(rng: Random): number {
  const [lo, hi] = rng.weighted([
    [[18, 24], 20],
    [[25, 34], 36],
    [[35, 44], 24],
    [[45, 54], 12],
    [[55, 72], 8],
  ] as const)
  return rng.int(lo, hi)
}

const clampAge = (age: number) => Math.max(18, Math.min(80, age))

function makeAddress(rng: Random, town: (typeof TOWNS)[number]): Address {
  return {
    street1: `${rng.int(100, 9899)} ${rng.pick(STREETS)}`,
    street2: rng.chance(0.15) ? rng.pick(['Apt ', 'Unit ', '#']) + String(rng.int(1, 40)) : '',
    city: town.city,
    state: 'CO',
    postcode: rng.pick(town.postcodes),
  }
}

const telephone = (rng: Random) =>
  `(${rng.pick(AREA_CODES)}) 555-01${String(rng.int(0, 99)).padStart(2, '0')}`

function uniqueEmail(rng: Random, taken: Set<string>, first: string, last: string): string {
  const f = slug(first)
  const l = slug(last)
  const local = rng.weighted([
    [`${f}.${l}`, 5],
    [`${f}${l}`, 2],
    [`${f[0]}${l}`, 3],
    [`${f}.${l}${rng.int(1, 99)}`, 2],
    [`${f}_${l[0]}`, 1],
  ] as const)
  const domain = rng.pick(EMAIL_DOMAINS)
  let email = `${local}@${domain}`
  for (let n = 2; taken.has(email); n++) email = `${local}${n}@${domain}`
  taken.add(email)
  return email
}
