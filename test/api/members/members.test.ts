import { describe, expect, test } from 'bun:test'
import { ORIGIN } from '../../helpers/app.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeToken, makeUser } from '../../helpers/factories.ts'
import { ALL_ROWS, useMembersReportSet } from '../../helpers/members-report-set.ts'
import { makeCustomerMembership } from '../../helpers/product-factories.ts'
import { makeInvoice } from '../../helpers/sales-factories.ts'
import { invalidToken } from '../../helpers/bodies.ts'
import { expectEachNotAllowed, expectUnauthenticated, unknownToken } from '../../helpers/seeded.ts'

// GET /api/members/ over the set of test/helpers/members-report-set.ts (its table lists the rows).
// Filters and exclusions: members-filters.test.ts.

const { t, s, get, names, expectNames } = useMembersReportSet()

const customerUrl = (id: number) => `${ORIGIN}/api/customers/${id}/`

/** The documented fields without billing info, in the order a row lists them. */
const ROW_FIELDS = [
  'customer_id',
  'customer_url',
  'first_name',
  'last_name',
  'birthday',
  'email',
  'telephone',
  'address_postcode',
  'address_street_1',
  'address_street_2',
  'address_city',
  'address_state',
  'address_country',
  'home_location_id',
  'home_location_name',
  'add_ons',
  'membership_id',
  'membership_url',
  'membership_type_id',
  'membership_type_url',
  'membership_name',
  'membership_purchase_type',
  'membership_interval',
  'membership_is_group',
  'membership_is_youth_programming',
  'membership_duration_years',
  'membership_duration_months',
  'membership_duration_days',
  'location_id',
  'location_url',
  'location_name',
  'owner_id',
  'owner_url',
  'owner_first_name',
  'owner_last_name',
  'owner_birthday',
  'owner_email',
  'owner_telephone',
  'status',
  'is_pending_staff_approval',
  'start_date',
  'end_date',
  'has_payment_method',
]
const BILLING_FIELDS = [
  'membership_num_members',
  'billing_amount',
  'billing_amount_per_member',
  'last_invoice_id',
  'last_invoice_amount',
  'last_invoice_tax_amount',
  'last_invoice_date',
]

/** Ada's row for M1, whole: a solo recurring membership with two add-ons (listed by name). */
function adaM1Row() {
  const downtown = t.seed.gym
  return {
    customer_id: s.people.ada.id,
    customer_url: customerUrl(s.people.ada.id),
    first_name: 'Ada',
    last_name: 'Alvarez',
    birthday: '1990-04-12',
    email: 'ada@example.com',
    telephone: '303-555-0101',
    address_postcode: '80302',
    address_street_1: '12 Pearl St',
    address_street_2: 'Apt 3',
    address_city: 'Boulder',
    address_state: 'CO',
    address_country: 'US',
    home_location_id: downtown.id,
    home_location_name: 'Boulder Barn Downtown',
    add_ons: [
      {
        id: 'locker',
        name: 'Locker',
        fee: '12.50',
        is_visible: true,
        icon_color_hex: '1E88E5',
        icon_initials: 'LK',
        revenue_account_codes: { [downtown.id]: '4010', [s.north.id]: '4011' },
        tax_rate_id: 3,
        tax_rate_per_location: { [downtown.id]: '0.0825' },
      },
      {
        id: 'bath-towel',
        name: 'Towel Service',
        fee: '3.00',
        is_visible: false,
        icon_color_hex: 'FDD835',
        icon_initials: 'TW',
        revenue_account_codes: {},
        tax_rate_id: null,
        tax_rate_per_location: null,
      },
    ],
    membership_id: s.m.M1,
    membership_url: `${ORIGIN}/api/customer-memberships/${s.m.M1}/`,
    membership_type_id: s.types.monthly.id,
    membership_type_url: `${ORIGIN}/api/memberships/${s.types.monthly.id}/`,
    membership_name: 'Monthly Adult',
    membership_purchase_type: 'REC',
    membership_interval: 'MON',
    membership_is_group: false,
    membership_is_youth_programming: false,
    membership_duration_years: null,
    membership_duration_months: null,
    membership_duration_days: null,
    location_id: downtown.id,
    location_url: `${ORIGIN}/api/gyms/${downtown.id}/`,
    location_name: 'Boulder Barn Downtown',
    owner_id: s.people.ada.id,
    owner_url: customerUrl(s.people.ada.id),
    owner_first_name: 'Ada',
    owner_last_name: 'Alvarez',
    owner_birthday: '1990-04-12',
    owner_email: 'ada@example.com',
    owner_telephone: '303-555-0101',
    status: 'ACT',
    is_pending_staff_approval: false,
    start_date: '2026-11-22',
    end_date: '2026-12-22',
    has_payment_method: true,
  }
}

/** Cara's row, whole: a covered member (not the owner) of a group membership, frozen on her own. */
function caraRow() {
  return {
    customer_id: s.people.cara.id,
    customer_url: customerUrl(s.people.cara.id),
    first_name: 'Cara',
    last_name: 'Brooks',
    birthday: '2012-06-01',
    email: '',
    telephone: '',
    address_postcode: '',
    address_street_1: '',
    address_street_2: '',
    address_city: '',
    address_state: '',
    address_country: '',
    home_location_id: t.seed.gym.id,
    home_location_name: 'Boulder Barn Downtown',
    add_ons: [],
    membership_id: s.m.M2,
    membership_url: `${ORIGIN}/api/customer-memberships/${s.m.M2}/`,
    membership_type_id: s.types.family.id,
    membership_type_url: `${ORIGIN}/api/memberships/${s.types.family.id}/`,
    membership_name: 'Family Annual',
    membership_purchase_type: 'REC',
    membership_interval: 'YRL',
    membership_is_group: true,
    membership_is_youth_programming: false,
    membership_duration_years: null,
    membership_duration_months: null,
    membership_duration_days: null,
    location_id: null,
    location_url: null,
    location_name: null,
    owner_id: s.people.ben.id,
    owner_url: customerUrl(s.people.ben.id),
    owner_first_name: 'Ben',
    owner_last_name: 'Brooks',
    owner_birthday: '1982-01-30',
    owner_email: 'ben@example.com',
    owner_telephone: '303-555-0102',
    status: 'FRZ',
    is_pending_staff_approval: false,
    start_date: '2026-11-21',
    end_date: '2027-11-21',
    has_payment_method: true,
  }
}

/** Jack's row, whole: prepaid youth programming at the north gym, awaiting staff approval. */
function jackRow() {
  return {
    customer_id: s.people.jack.id,
    customer_url: customerUrl(s.people.jack.id),
    first_name: 'Jack',
    last_name: 'Garcia',
    birthday: '2014-09-09',
    email: '',
    telephone: '',
    address_postcode: '',
    address_street_1: '',
    address_street_2: '',
    address_city: '',
    address_state: '',
    address_country: '',
    home_location_id: s.north.id,
    home_location_name: 'Boulder Barn North',
    add_ons: [],
    membership_id: s.m.M5,
    membership_url: `${ORIGIN}/api/customer-memberships/${s.m.M5}/`,
    membership_type_id: s.types.youth.id,
    membership_type_url: `${ORIGIN}/api/memberships/${s.types.youth.id}/`,
    membership_name: 'Youth Team',
    membership_purchase_type: 'PRE',
    membership_interval: '',
    membership_is_group: false,
    membership_is_youth_programming: true,
    membership_duration_years: null,
    membership_duration_months: 3,
    membership_duration_days: null,
    location_id: s.north.id,
    location_url: `${ORIGIN}/api/gyms/${s.north.id}/`,
    location_name: 'Boulder Barn North',
    owner_id: s.people.jack.id,
    owner_url: customerUrl(s.people.jack.id),
    owner_first_name: 'Jack',
    owner_last_name: 'Garcia',
    owner_birthday: '2014-09-09',
    owner_email: '',
    owner_telephone: '',
    status: 'IPP',
    is_pending_staff_approval: true,
    start_date: '2026-11-22',
    end_date: '2027-02-22',
    has_payment_method: false,
  }
}

describe('GET /api/members/ 401', () => {
  test('without a token', async () => {
    expectUnauthenticated(await t.request('GET', '/api/members/'))
  })

  test('with an unknown token', async () => {
    expectUnauthenticated(await get('', unknownToken), invalidToken)
  })

  test('with the token of a deactivated user', async () => {
    const user = await makeUser(t.db, { is_active: 0, is_organization_admin: 1 })
    expectUnauthenticated(await get('', await makeToken(t.db, user)), invalidToken)
  })
})

describe('GET /api/members/ 400', () => {
  const choice = (value: string) => [`Select a valid choice. ${value} is not one of the available choices.`]
  const cases: Array<[string, string, Record<string, string[]>]> = [
    ['an unknown status_in token', '?status_in=active,bogus', { status_in: choice('bogus') }],
    ['a status code instead of a token', '?status_in=ACT', { status_in: choice('ACT') }],
    ['a token for excluded memberships', '?status_in=cancelled', { status_in: choice('cancelled') }],
    ['a token in the wrong case', '?status_in=Active', { status_in: choice('Active') }],
    [
      'an unknown membership type id',
      '?membership_id=9999',
      { membership_id: ['Select a valid choice. That choice is not one of the available choices.'] },
    ],
    ['a membership_id that is not a number', '?membership_id=abc', { membership_id: ['Enter a number.'] }],
    ['an unknown purchase_type', '?purchase_type=rec', { purchase_type: choice('rec') }],
    ['is_group not a boolean', '?is_group=yes', { is_group: ['Must be a valid boolean.'] }],
    [
      'is_youth_programming not a boolean',
      '?is_youth_programming=2',
      { is_youth_programming: ['Must be a valid boolean.'] },
    ],
    ['home_location_id not a number', '?home_location_id=north', { home_location_id: ['Enter a number.'] }],
    [
      'start_date_min not a real day',
      '?start_date_min=2026-11-31',
      { start_date_min: ['Enter a valid date.'] },
    ],
    ['start_date_max not ISO', '?start_date_max=22/11/2026', { start_date_max: ['Enter a valid date.'] }],
    [
      'include_billing_info not a boolean',
      '?include_billing_info=please',
      { include_billing_info: ['Must be a valid boolean.'] },
    ],
  ]
  for (const [name, query, body] of cases) {
    test(name, async () => {
      const res = await get(query)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(body)
    })
  }

  test('every failing filter at once, in the filter order', async () => {
    const res = await get(
      '?include_billing_info=x&start_date_max=x&start_date_min=x&home_location_id=x&is_youth_programming=x' +
        '&is_group=x&purchase_type=x&membership_id=x&status_in=x',
    )
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      status_in: choice('x'),
      membership_id: ['Enter a number.'],
      purchase_type: choice('x'),
      is_group: ['Must be a valid boolean.'],
      is_youth_programming: ['Must be a valid boolean.'],
      start_date_min: ['Enter a valid date.'],
      start_date_max: ['Enter a valid date.'],
      home_location_id: ['Enter a number.'],
      include_billing_info: ['Must be a valid boolean.'],
    })
    expect(Object.keys(res.body)).toEqual([
      'status_in',
      'membership_id',
      'purchase_type',
      'is_group',
      'is_youth_programming',
      'home_location_id',
      'start_date_min',
      'start_date_max',
      'include_billing_info',
    ])
  })

  test('an unknown membership type is reported together with the other bad filters', async () => {
    const res = await get('?membership_id=9999&is_group=maybe')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      membership_id: ['Select a valid choice. That choice is not one of the available choices.'],
      is_group: ['Must be a valid boolean.'],
    })
  })
})

describe('GET /api/members/ 405', () => {
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    test(`${method} is not offered`, async () => {
      await expectEachNotAllowed(t, t.seed.adminToken, [[method, '/api/members/', {}]])
    })
  }
})

describe('GET /api/members/ rows', () => {
  test('any active staff user reads it: a plain array in last-name, first-name order', async () => {
    const res = await get()
    expect(res.status).toBe(200)
    expect(Array.isArray(res.body)).toBe(true)
    expect(names(res.body)).toEqual(ALL_ROWS)
  })

  test('whole rows: a solo member with add-ons, a frozen group member, a prepaid youth member', async () => {
    const res = await get()
    const byLabel = (label: string) => res.body[ALL_ROWS.indexOf(label)]
    expect(byLabel('Ada Alvarez M1')).toEqual(adaM1Row())
    expect(byLabel('Cara Brooks M2')).toEqual(caraRow())
    expect(byLabel('Jack Garcia M5')).toEqual(jackRow())
  })

  test('every row has exactly the documented fields, in order, and no billing fields', async () => {
    const res = await get()
    for (const row of res.body) expect(Object.keys(row)).toEqual(ROW_FIELDS)
  })

  test('the effective status of each row', async () => {
    const res = await get()
    expect(res.body.map((row: any) => [names([row])[0], row.status])).toEqual([
      ['Ada Alvarez M1', 'ACT'],
      ['Ada Alvarez M6', 'PPR'],
      ['Ben Brooks M2', 'ACT'],
      ['Cara Brooks M2', 'FRZ'],
      ['Eve de Luca M2', 'ACT'],
      ['Gus Evans M3', 'FRZ'],
      ['Hana Fischer M4', 'PAF'],
      ['Jack Garcia M5', 'IPP'],
      ['Lee Ito M7', 'FPF'],
    ])
  })

  test('the rows of a group membership all name its owner; add-ons are per member', async () => {
    const res = await get(`?membership_id=${s.types.family.id}`)
    expect(
      res.body.map((row: any) => [row.first_name, row.owner_first_name, row.add_ons.map((a: any) => a.name)]),
    ).toEqual([
      ['Ben', 'Ben', ['Locker XL']],
      ['Cara', 'Ben', []],
      ['Eve', 'Ben', []],
    ])
  })

  test('a non-recurring type shows no interval and its durations', async () => {
    const res = await get(`?purchase_type=BEN`)
    expect(res.body).toHaveLength(1)
    expect(res.body[0]).toMatchObject({
      membership_name: 'Staff Benefit',
      membership_purchase_type: 'BEN',
      membership_interval: '',
      membership_duration_years: 1,
      membership_duration_months: null,
      membership_duration_days: 0,
      location_id: null,
      location_url: null,
      location_name: null,
      end_date: null,
      has_payment_method: false,
    })
  })

  test('ties on the whole name are ordered by membership id, then customer id', async () => {
    const twin = await makeCustomer(t.db, { first_name: 'Ada', last_name: 'ALVAREZ' })
    const late = await makeCustomerMembership(t.db, {
      membership_type_id: s.types.monthly.id,
      owner_id: twin.id,
      status: 'ACT',
      start_date: '2026-11-01',
    })
    // The twin joins M1 too: same membership, so the lower customer id (the original Ada) comes first.
    await t.db
      .insertInto('membership_members')
      .values({ customer_membership_id: s.m.M1!, customer_id: twin.id, is_frozen: 0 })
      .execute()
    s.labels.set(late.id, 'late')
    await expectNames('?status_in=active', [
      'Ada Alvarez M1',
      'Ada ALVAREZ M1',
      'Ada Alvarez M6',
      'Ada ALVAREZ late',
      'Ben Brooks M2',
      'Eve de Luca M2',
      'Jack Garcia M5',
    ])
  })

  test('text that looks like JSON in a name stays text; add-ons stay with their row', async () => {
    const odd = await makeCustomer(t.db, { first_name: ',"add_ons":[]', last_name: 'Aaron"s' })
    await makeCustomerMembership(t.db, {
      membership_type_id: s.types.monthly.id,
      owner_id: odd.id,
      status: 'ACT',
      start_date: '2026-11-01',
      members: [{ customer_id: odd.id, add_ons: ['bath-towel'] }],
    })
    const res = await get('?status_in=active')
    expect(res.headers.get('content-type')).toStartWith('application/json')
    expect(
      res.body.map((row: any) => [row.first_name, row.last_name, row.add_ons.map((a: any) => a.id)]),
    ).toEqual([
      [',"add_ons":[]', 'Aaron"s', ['bath-towel']],
      ['Ada', 'Alvarez', ['locker', 'bath-towel']],
      ['Ada', 'Alvarez', []],
      ['Ben', 'Brooks', ['locker-xl']],
      ['Eve', 'de Luca', []],
      ['Jack', 'Garcia', []],
    ])
  })

  test('the body is the text JSON.stringify writes: escapes, non-ASCII text, numbers, booleans, nulls', async () => {
    const odd = await makeCustomer(t.db, {
      first_name: 'Zoë "Zed" \\ \u0000\u0001\u001f\b\t\n\f\r\u007f',
      last_name: 'Aa \u2028\u2029 😀 </script> Ωμέγα',
      address_street_2: '',
    })
    await makeCustomerMembership(t.db, {
      membership_type_id: s.types.monthly.id,
      owner_id: odd.id,
      status: 'ACT',
      start_date: '2026-11-01',
      members: [{ customer_id: odd.id, add_ons: ['locker', 'bath-towel'] }],
    })
    for (const query of ['', '?include_billing_info=true']) {
      const response = await t.app.handle(
        new Request(`${ORIGIN}/api/members/${query}`, {
          headers: { authorization: `Token ${t.seed.staffToken}` },
        }),
      )
      const text = await response.text()
      expect(text).toBe(JSON.stringify(JSON.parse(text)))
      expect(JSON.parse(text)[0]).toMatchObject({ first_name: odd.first_name, last_name: odd.last_name })
    }
  })

  test('an empty result is an empty array', async () => {
    const res = await get(`?membership_id=${s.types.unused.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual([])
  })

  test('the path without its final slash answers the same', async () => {
    const res = await t.request('GET', '/api/members', { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(names(res.body)).toEqual(ALL_ROWS)
  })
})

describe('GET /api/members/ include_billing_info', () => {
  test('adds the billing fields after the others, on every row', async () => {
    const res = await get('?include_billing_info=true')
    expect(res.status).toBe(200)
    for (const row of res.body) expect(Object.keys(row)).toEqual([...ROW_FIELDS, ...BILLING_FIELDS])
    expect(res.body[ALL_ROWS.indexOf('Cara Brooks M2')]).toEqual({
      ...caraRow(),
      membership_num_members: 3,
      billing_amount: '100.00',
      billing_amount_per_member: '33.33',
      last_invoice_id: null,
      last_invoice_amount: null,
      last_invoice_tax_amount: null,
      last_invoice_date: null,
    })
  })

  test('billing amounts: next bill for recurring, 0.00 otherwise, divided by the members', async () => {
    const res = await get('?include_billing_info=TRUE')
    expect(
      res.body.map((row: any) => [
        names([row])[0],
        row.membership_num_members,
        row.billing_amount,
        row.billing_amount_per_member,
      ]),
    ).toEqual([
      ['Ada Alvarez M1', 1, '65.00', '65.00'],
      ['Ada Alvarez M6', 1, '0.00', '0.00'],
      ['Ben Brooks M2', 3, '100.00', '33.33'],
      ['Cara Brooks M2', 3, '100.00', '33.33'],
      ['Eve de Luca M2', 3, '100.00', '33.33'],
      ['Gus Evans M3', 1, '65.00', '65.00'],
      ['Hana Fischer M4', 1, '65.00', '65.00'],
      ['Jack Garcia M5', 1, '0.00', '0.00'],
      ['Lee Ito M7', 1, '59.99', '59.99'],
    ])
  })

  test('a share of half a cent rounds up; amounts under 1.00 keep their leading zero', async () => {
    const [zed, zoe] = [
      await makeCustomer(t.db, { first_name: 'Zed', last_name: 'Zimmer' }),
      await makeCustomer(t.db, { first_name: 'Zoe', last_name: 'Zimmer' }),
    ]
    for (const [owner, cents] of [
      [zed, 1001],
      [zoe, 5],
    ] as const)
      await makeCustomerMembership(t.db, {
        membership_type_id: s.types.monthly.id,
        owner_id: owner.id,
        billing_amount_cents: cents,
        members: [{ customer_id: owner.id }, { customer_id: (owner === zed ? zoe : zed).id }],
      })
    const res = await get('?include_billing_info=true')
    expect(
      res.body
        .filter((row: any) => row.last_name === 'Zimmer')
        .map((row: any) => [
          row.first_name,
          row.owner_first_name,
          row.billing_amount,
          row.billing_amount_per_member,
        ]),
    ).toEqual([
      ['Zed', 'Zed', '10.01', '5.01'],
      ['Zed', 'Zoe', '0.05', '0.03'],
      ['Zoe', 'Zed', '10.01', '5.01'],
      ['Zoe', 'Zoe', '0.05', '0.03'],
    ])
  })

  test('the member count covers the whole membership, not only the rows a filter keeps', async () => {
    const res = await get('?status_in=frozen&include_billing_info=true')
    expect(res.body.map((row: any) => [names([row])[0], row.membership_num_members])).toEqual([
      ['Cara Brooks M2', 3],
      ['Gus Evans M3', 1],
    ])
  })

  test('include_billing_info=false is the default shape', async () => {
    const res = await get('?include_billing_info=false')
    expect(res.body[ALL_ROWS.indexOf('Ada Alvarez M1')]).toEqual(adaM1Row())
  })
})

describe('GET /api/members/ last invoice', () => {
  /** An invoice at `at` with one line for the membership (MIN or MRE, 65.00, no tax) unless given. */
  const bill = (membershipId: number, at: string, lines?: Parameters<typeof makeInvoice>[1]['lines']) =>
    makeInvoice(t.db, {
      gym_id: t.seed.gym.id,
      customer_id: s.people.ada.id,
      at,
      lines: lines ?? [{ purchase_type: 'MRE', customer_membership_id: membershipId, net_cents: 6500 }],
    })

  test('the newest invoice with a MIN or MRE line for the membership: its total, tax and local day', async () => {
    const M1 = s.m.M1!
    await bill(M1, '2026-09-22T16:00:00.000Z', [
      { purchase_type: 'MIN', customer_membership_id: M1, net_cents: 6500 },
    ])
    await bill(M1, '2026-10-22T16:00:00.000Z')
    // 23:30 on the 21st in Denver. The renewal with 10% off and 8.25% tax, beside chalk taxed too:
    // 58.50 + 4.83 + 8.00 + 0.66 = 71.99, of which 5.49 tax.
    const newest = await makeInvoice(t.db, {
      gym_id: t.seed.gym.id,
      customer_id: s.people.ada.id,
      at: '2026-11-22T06:30:00.000Z',
      discounts: [{ code: 'TENOFF', amount_cents: 650 }],
      lines: [
        {
          purchase_type: 'MRE',
          customer_membership_id: M1,
          unit_price_cents: 6500,
          discount_cents: 650,
          net_cents: 5850,
          tax_rate_basis_points: 825,
          tax_cents: 483,
        },
        { net_cents: 800, tax_rate_basis_points: 825, tax_cents: 66 },
      ],
    })
    // Later sales that are not the membership's bill: a freeze fee for it, and another membership's.
    await bill(M1, '2026-11-22T15:00:00.000Z', [
      { purchase_type: 'MFR', customer_membership_id: M1, net_cents: 1000 },
    ])
    await bill(s.m.M3!, '2026-11-22T15:01:00.000Z')

    const res = await get('?include_billing_info=true')
    expect(res.status).toBe(200)
    expect(res.body[ALL_ROWS.indexOf('Ada Alvarez M1')]).toEqual({
      ...adaM1Row(),
      membership_num_members: 1,
      billing_amount: '65.00',
      billing_amount_per_member: '65.00',
      last_invoice_id: newest.id,
      last_invoice_amount: '71.99',
      last_invoice_tax_amount: '5.49',
      last_invoice_date: '2026-11-21',
    })
  })

  test('every member of a group membership shows its invoice; a membership never invoiced shows nulls', async () => {
    const invoice = await bill(s.m.M2!, '2026-11-21T18:00:00.000Z', [
      { purchase_type: 'MIN', customer_membership_id: s.m.M2!, net_cents: 100_000 },
    ])
    const res = await get('?include_billing_info=true')
    expect(
      res.body.map((row: any) => [
        names([row])[0],
        row.last_invoice_id,
        row.last_invoice_amount,
        row.last_invoice_tax_amount,
        row.last_invoice_date,
      ]),
    ).toEqual([
      ['Ada Alvarez M1', null, null, null, null],
      ['Ada Alvarez M6', null, null, null, null],
      ['Ben Brooks M2', invoice.id, '1000.00', '0.00', '2026-11-21'],
      ['Cara Brooks M2', invoice.id, '1000.00', '0.00', '2026-11-21'],
      ['Eve de Luca M2', invoice.id, '1000.00', '0.00', '2026-11-21'],
      ['Gus Evans M3', null, null, null, null],
      ['Hana Fischer M4', null, null, null, null],
      ['Jack Garcia M5', null, null, null, null],
      ['Lee Ito M7', null, null, null, null],
    ])
    expect(res.body[ALL_ROWS.indexOf('Cara Brooks M2')]).toEqual({
      ...caraRow(),
      membership_num_members: 3,
      billing_amount: '100.00',
      billing_amount_per_member: '33.33',
      last_invoice_id: invoice.id,
      last_invoice_amount: '1000.00',
      last_invoice_tax_amount: '0.00',
      last_invoice_date: '2026-11-21',
    })
  })

  test("the date is the organization's day, on both sides of local midnight and of the change from MDT to MST", async () => {
    // Denver is at -06:00 until 2026-11-01T08:00Z, then at -07:00.
    const cases: Array<[string, string, string]> = [
      ['M1', '2026-10-31T05:59:59.999Z', '2026-10-30'],
      ['M3', '2026-10-31T06:00:00.000Z', '2026-10-31'],
      ['M4', '2026-11-02T06:59:59.999Z', '2026-11-01'],
      ['M5', '2026-11-02T07:00:00.000Z', '2026-11-02'],
      ['M7', '2026-11-01T06:30:00.000Z', '2026-11-01'],
    ]
    for (const [label, at] of cases) await bill(s.m[label]!, at)
    const res = await get('?include_billing_info=true')
    const dates = Object.fromEntries(
      res.body.map((row: any) => [s.labels.get(row.membership_id), row.last_invoice_date]),
    )
    expect(dates).toEqual({
      ...Object.fromEntries(cases.map(([label, , date]) => [label, date])),
      M2: null,
      M6: null,
    })
  })
})

describe('GET /api/members/ is not paginated', () => {
  test('more rows than a page, page and page_size ignored: one plain array with every row', async () => {
    const extra: string[] = []
    for (let i = 0; i < 15; i += 1) {
      const last = `Zeta${String(i).padStart(2, '0')}`
      const owner = await makeCustomer(t.db, { first_name: 'Zed', last_name: last })
      const { id } = await makeCustomerMembership(t.db, {
        membership_type_id: s.types.monthly.id,
        owner_id: owner.id,
        status: 'ACT',
        start_date: '2026-06-01',
      })
      s.labels.set(id, `X${i}`)
      extra.push(`Zed ${last} X${i}`)
    }
    for (const query of ['', '?page=2', '?page_size=5', '?page=99&page_size=1']) {
      const res = await get(query)
      expect(res.status).toBe(200)
      expect(Array.isArray(res.body)).toBe(true)
      expect(names(res.body)).toEqual([...ALL_ROWS, ...extra])
    }
  })
})
