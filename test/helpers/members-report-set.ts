import { beforeEach, expect } from 'bun:test'
import type { Db } from '../../src/db/connection.ts'
import type { Customer, Gym, MembershipStatus } from '../../src/db/schema.ts'
import { makeCustomer } from './customer-factories.ts'
import { makeGym } from './factories.ts'
import { makeAddOn, makeCustomerMembership, makeMembershipType } from './product-factories.ts'
import { useSeededApp } from './seeded.ts'

/*
 * The members report's test set (organization and gyms in America/Denver; the test clock reads
 * 2026-11-22 08:04 local). Rows of the default report, in its order (last name, case-insensitive, then first name, then
 * membership id):
 *
 *   Ada Alvarez   M1  Monthly Adult  ACT  add-ons Locker, Towel Service  payment method  start 11-22
 *   Ada Alvarez   M6  Staff Benefit  PPR  (BEN)                          none            start 01-10
 *   Ben Brooks    M2  Family Annual  ACT  (group owner) add-on Locker XL payment method  start 11-21
 *   Cara Brooks   M2  Family Annual  FRZ  (individually frozen member of the active M2)
 *   Eve de Luca   M2  Family Annual  ACT  (group member; lower-case last name)
 *   Gus Evans     M3  Monthly Adult  FRZ  (frozen membership)            none            start 10-01
 *   Hana Fischer  M4  Monthly Adult  PAF  (member flagged frozen: stays PAF) payment     start 09-15
 *   Jack Garcia   M5  Youth Team     IPP  (PRE, youth, pending approval) none            start 11-22
 *   Lee Ito       M7  Monthly Adult  FPF                                 payment method  start 11-01
 *
 * Never shown: Ada's ended M8 (END), and one membership in each other excluded status (PAY, IPC,
 * CAN, DEN). M2 was started at 23:30 on 2026-11-21 local (06:30 UTC on the 22nd) and M1 at 00:30
 * on the 22nd local: the organization-local day is what start_date holds and what the filters read.
 */

/** The rows of the default report, in its order: "<first> <last> <membership label>". */
export const ALL_ROWS = [
  'Ada Alvarez M1',
  'Ada Alvarez M6',
  'Ben Brooks M2',
  'Cara Brooks M2',
  'Eve de Luca M2',
  'Gus Evans M3',
  'Hana Fischer M4',
  'Jack Garcia M5',
  'Lee Ito M7',
]

export type MembersReportSet = Awaited<ReturnType<typeof seedMembersReportSet>>

/** The set above, beside the seeded organization and `downtown` gym (seedBasics). */
export async function seedMembersReportSet(db: Db, downtown: Gym) {
  const north = await makeGym(db, { name: 'Boulder Barn North' })

  // Types are made first, so their ids (1..5) overlap the memberships' ids: membership_id must be
  // read as a TYPE id.
  const types = {
    monthly: await makeMembershipType(db, {
      name: 'Monthly Adult',
      location_id: downtown.id,
    }),
    family: await makeMembershipType(db, {
      name: 'Family Annual',
      interval: 'YRL',
      price_cents: 100_000,
      is_group: 1,
    }),
    youth: await makeMembershipType(db, {
      name: 'Youth Team',
      purchase_type: 'PRE',
      interval: '',
      price_cents: 12_000,
      is_youth_programming: 1,
      duration_months: 3,
      location_id: north.id,
    }),
    benefit: await makeMembershipType(db, {
      name: 'Staff Benefit',
      purchase_type: 'BEN',
      // A stale interval on a non-recurring type is not shown.
      interval: 'MON',
      price_cents: 0,
      duration_years: 1,
      duration_days: 0,
    }),
    unused: await makeMembershipType(db, { name: 'Retired Punch Card', status: 'RET' }),
  }

  await makeAddOn(db, {
    id: 'locker',
    name: 'Locker',
    fee_cents: 1250,
    icon_color_hex: '1E88E5',
    icon_initials: 'LK',
    revenue_account_codes: JSON.stringify({ [downtown.id]: '4010', [north.id]: '4011' }),
    tax_rate_id: 3,
    tax_rate_per_location: JSON.stringify({ [downtown.id]: '0.0825' }),
  })
  // Its id sorts before "locker" but its name after "Locker": a row lists add-ons by name.
  await makeAddOn(db, {
    id: 'bath-towel',
    name: 'Towel Service',
    fee_cents: 300,
    is_visible: 0,
    icon_color_hex: 'FDD835',
    icon_initials: 'TW',
  })
  await makeAddOn(db, { id: 'locker-xl', name: 'Locker XL', fee_cents: 2000 })

  const person = (first_name: string, last_name: string, fields: Parameters<typeof makeCustomer>[1] = {}) =>
    makeCustomer(db, { first_name, last_name, birthday: '1985-08-17', ...fields })
  const people = {
    ada: await person('Ada', 'Alvarez', {
      birthday: '1990-04-12',
      email: 'ada@example.com',
      telephone: '303-555-0101',
      home_location_id: downtown.id,
      address_street_1: '12 Pearl St',
      address_street_2: 'Apt 3',
      address_city: 'Boulder',
      address_state: 'CO',
      address_postcode: '80302',
      address_country: 'US',
    }),
    ben: await person('Ben', 'Brooks', {
      birthday: '1982-01-30',
      email: 'ben@example.com',
      telephone: '303-555-0102',
      home_location_id: downtown.id,
    }),
    cara: await person('Cara', 'Brooks', { birthday: '2012-06-01', home_location_id: downtown.id }),
    eve: await person('Eve', 'de Luca', { birthday: '1984-03-03', home_location_id: north.id }),
    gus: await person('Gus', 'Evans', { home_location_id: downtown.id }),
    hana: await person('Hana', 'Fischer'),
    jack: await person('Jack', 'Garcia', { birthday: '2014-09-09', home_location_id: north.id }),
    lee: await person('Lee', 'Ito'),
    quinn: await person('Quinn', 'Nash'),
    rosa: await person('Rosa', 'Ortiz'),
    sam: await person('Sam', 'Price'),
    tess: await person('Tess', 'Reyes'),
  }

  const m: Record<string, number> = {}
  const membership = async (fields: Parameters<typeof makeCustomerMembership>[1]) =>
    (await makeCustomerMembership(db, fields)).id
  m.M1 = await membership({
    membership_type_id: types.monthly.id,
    owner_id: people.ada.id,
    status: 'ACT',
    start_date: '2026-11-22',
    end_date: '2026-12-22',
    billing_location_id: downtown.id,
    has_payment_method: 1,
    billing_amount_cents: 6500,
    created_at: '2026-11-22T07:30:00.000Z',
    members: [{ customer_id: people.ada.id, add_ons: ['bath-towel', 'locker'] }],
  })
  m.M2 = await membership({
    membership_type_id: types.family.id,
    owner_id: people.ben.id,
    status: 'ACT',
    start_date: '2026-11-21',
    end_date: '2027-11-21',
    has_payment_method: 1,
    billing_amount_cents: 10_000,
    created_at: '2026-11-22T06:30:00.000Z',
    members: [
      { customer_id: people.ben.id, add_ons: ['locker-xl'] },
      { customer_id: people.cara.id, is_frozen: true },
      { customer_id: people.eve.id },
    ],
  })
  m.M3 = await membership({
    membership_type_id: types.monthly.id,
    owner_id: people.gus.id,
    status: 'FRZ',
    start_date: '2026-10-01',
    end_date: '2026-12-01',
    billing_amount_cents: 6500,
  })
  m.M4 = await membership({
    membership_type_id: types.monthly.id,
    owner_id: people.hana.id,
    status: 'PAF',
    start_date: '2026-09-15',
    end_date: '2026-11-15',
    has_payment_method: 1,
    billing_amount_cents: 6500,
    members: [{ customer_id: people.hana.id, is_frozen: true }],
  })
  m.M5 = await membership({
    membership_type_id: types.youth.id,
    owner_id: people.jack.id,
    status: 'IPP',
    start_date: '2026-11-22',
    end_date: '2027-02-22',
    is_pending_staff_approval: 1,
    billing_amount_cents: 12_000,
  })
  m.M6 = await membership({
    membership_type_id: types.benefit.id,
    owner_id: people.ada.id,
    status: 'PPR',
    start_date: '2026-01-10',
  })
  m.M7 = await membership({
    membership_type_id: types.monthly.id,
    owner_id: people.lee.id,
    status: 'FPF',
    start_date: '2026-11-01',
    end_date: '2026-12-01',
    has_payment_method: 1,
    billing_amount_cents: 5999,
  })
  const excluded: Array<[string, Customer, MembershipStatus]> = [
    ['M8', people.ada, 'END'],
    ['M9', people.quinn, 'PAY'],
    ['M10', people.rosa, 'IPC'],
    ['M11', people.sam, 'CAN'],
    ['M12', people.tess, 'DEN'],
  ]
  for (const [label, owner, status] of excluded) {
    m[label] = await membership({
      membership_type_id: types.monthly.id,
      owner_id: owner.id,
      status,
      start_date: '2025-03-01',
      has_payment_method: 1,
    })
  }
  const labels = new Map<number, string>(Object.entries(m).map(([label, id]) => [id, label]))
  return {
    north,
    types,
    people,
    /** membership label ("M1") -> id */
    m,
    /** membership id -> label, so expected lists read as the table above */
    labels,
  }
}

/** "Ada Alvarez M1" for each row, in order: what the expected lists are written in. */
export const rowNames = (
  set: MembersReportSet,
  rows: Array<{ first_name: string; last_name: string; membership_id: number }>,
) => rows.map((row) => `${row.first_name} ${row.last_name} ${set.labels.get(row.membership_id)}`)

/**
 * What both members report test files start with: a seeded app with the set above in it, made
 * before each test. `s` is refilled before each test (read it inside tests only); `get` asks the
 * report as the seed's desk user unless given a token; `expectNames` checks the rows a query lists.
 */
export function useMembersReportSet() {
  const t = useSeededApp()
  const s = {} as MembersReportSet
  beforeEach(async () => {
    Object.assign(s, await seedMembersReportSet(t.db, t.seed.gym))
  })
  const get = (query = '', token = t.seed.staffToken) => t.request('GET', `/api/members/${query}`, { token })
  const names = (rows: Parameters<typeof rowNames>[1]) => rowNames(s, rows)
  async function expectNames(query: string, expected: string[]) {
    const res = await get(query)
    expect(res.status).toBe(200)
    expect(names(res.body)).toEqual(expected)
  }
  return { t, s, get, names, expectNames }
}
