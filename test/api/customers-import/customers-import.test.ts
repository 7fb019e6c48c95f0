import { describe, expect, test } from 'bun:test'
import { ORIGIN, START } from '../../helpers/app.ts'
import { forbidden, invalidBoolean, invalidDate, invalidEmail, required } from '../../helpers/bodies.ts'
import { allocateSiteIds, stopAllocatingSiteIds } from '../../../src/db/site-ids.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { countRows } from '../../helpers/factories.ts'
import { expectUnauthenticated, useSeededApp, useStaff } from '../../helpers/seeded.ts'

const t = useSeededApp()
const staff = useStaff(t, 'members', 'allButMembers')

const PATH = '/api/customers/import/'
const barcodeTaken = ['customer with this barcode already exists.']
const emailTaken = ['customer with this email already exists.']
const customerCount = () => countRows(t.db, 'customers')

/** POST the file as a multipart upload (the file part `file`), as a browser's form sends it. */
async function upload(csv: string | Uint8Array, opts: { token?: string; query?: string } = {}) {
  const form = new FormData()
  form.append('file', new File([csv], 'customers.csv', { type: 'text/csv' }))
  const headers: Record<string, string> = { authorization: `Token ${opts.token ?? staff.members.token}` }
  const response = await t.app.handle(
    new Request(`${ORIGIN}${PATH}${opts.query ?? ''}`, { method: 'POST', headers, body: form }),
  )
  return { status: response.status, body: (await response.json()) as any }
}

/** POST the file as the whole body, `text/csv`. */
const postCsv = (csv: string, query = '', token = staff.members.token) =>
  t.request('POST', `${PATH}${query}`, { token, body: csv, headers: { 'content-type': 'text/csv' } })

const lines = (...rows: string[]) => rows.join('\n') + '\n'

/** A file of `n` good customers, Ada 1 ... Ada n, under the plain header. */
const goodRows = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `Ada,Lovelace ${i + 1},ada${i + 1}@example.com,1990-01-${String((i % 28) + 1).padStart(2, '0')}`,
  )
const HEADER = 'first_name,last_name,email,birthday'

/** Every customer as the list answers them, by id. */
async function listed() {
  const res = await t.request('GET', '/api/customers/?page_size=1000', { token: staff.members.token })
  expect(res.status).toBe(200)
  return (res.body.results as any[]).sort((a, b) => a.id - b.id)
}

/** The whole record the API answers for an imported customer. */
function customerBody(id: number, fields: Record<string, unknown>) {
  const sub = (path: string) => `${ORIGIN}/api/customers/${id}/${path}/`
  return {
    id,
    url: `${ORIGIN}/api/customers/${id}/`,
    preferred_name: '',
    email: null,
    telephone: '',
    barcode: null,
    is_active: true,
    home_location_id: null,
    home_location_name: null,
    home_location_url: null,
    address_street_1: '',
    address_street_2: '',
    address_city: '',
    address_state: '',
    address_postcode: '',
    address_country: '',
    profile_image_url: '',
    first_check_in_timestamp: null,
    has_active_membership: false,
    active_waiver_exists: false,
    latest_waiver_expiration_date: null,
    site_conflicts: [],
    created_at: START,
    updated_at: START,
    credits_url: sub('credits'),
    emergency_contacts_url: sub('emergency-contacts'),
    medical_notes_url: sub('medical-notes'),
    relations_url: sub('relations'),
    documents_url: sub('documents'),
    event_vouchers_url: sub('event-vouchers'),
    alerts_url: sub('alerts'),
    check_ins_url: sub('check-ins'),
    ...fields,
  }
}

describe('POST /api/customers/import/ 201 and the dry run', () => {
  test('a good file creates every row with its fields as given, read back over GET', async () => {
    const gym = t.seed.gym
    const csv = lines(
      'first_name,last_name,preferred_name,email,telephone,birthday,barcode,is_active,home_location_id,address_street_1,address_street_2,address_city,address_state,address_postcode,address_country,Notes',
      `Lynn,Hill,,lynn@example.com,(303) 555-0182,1961-01-03,B-001,true,${gym.id},1 Main St,Apt 2,Boulder,CO,80301,us,pays cash`,
      'Alex,Honnold,Alex H,,,1985-08-17,,false,,,,,,,,',
      'Tommy,Caldwell,,  TC@Example.com ,303.555.0100,1978-08-11,B-003,,,,,,,,GB,',
    )
    const res = await upload(csv)
    expect(res).toEqual({ status: 201, body: { created: 3, ignored_columns: ['Notes'] } })
    const [lynn, alex, tommy] = await listed()
    expect([lynn, alex, tommy]).toEqual([
      customerBody(lynn.id, {
        first_name: 'Lynn',
        last_name: 'Hill',
        email: 'lynn@example.com',
        telephone: '(303) 555-0182',
        birthday: '1961-01-03',
        barcode: 'B-001',
        home_location_id: gym.id,
        home_location_name: gym.name,
        home_location_url: `${ORIGIN}/api/gyms/${gym.id}/`,
        address_street_1: '1 Main St',
        address_street_2: 'Apt 2',
        address_city: 'Boulder',
        address_state: 'CO',
        address_postcode: '80301',
        address_country: 'US',
      }),
      customerBody(alex.id, {
        first_name: 'Alex',
        last_name: 'Honnold',
        preferred_name: 'Alex H',
        birthday: '1985-08-17',
        is_active: false,
      }),
      customerBody(tommy.id, {
        first_name: 'Tommy',
        last_name: 'Caldwell',
        email: 'TC@Example.com',
        telephone: '303.555.0100',
        birthday: '1978-08-11',
        barcode: 'B-003',
        address_country: 'GB',
      }),
    ])
  })

  test('?dry_run=true checks the file, answers 200 with the same count and writes nothing', async () => {
    const csv = lines(HEADER, ...goodRows(5))
    expect(await upload(csv, { query: '?dry_run=true' })).toEqual({
      status: 200,
      body: { created: 5, ignored_columns: [] },
    })
    expect(await customerCount()).toBe(0)
    expect(await upload(csv, { query: '?dry_run=false' })).toEqual({
      status: 201,
      body: { created: 5, ignored_columns: [] },
    })
    expect(await customerCount()).toBe(5)
  })

  test('a dry run refuses a bad file as the import does', async () => {
    const res = await upload(lines(HEADER, 'Ada,Lovelace,ada@example.com,12/10/1815'), {
      query: '?dry_run=1',
    })
    expect(res).toEqual({ status: 400, body: { rows: [{ row: 2, errors: { birthday: invalidDate } }] } })
  })

  test('a text/csv body is read as the file', async () => {
    const res = await postCsv(lines(HEADER, ...goodRows(2)))
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ created: 2, ignored_columns: [] })
    expect(await customerCount()).toBe(2)
  })

  test('headers in common spellings: First Name, Surname, DOB, Phone, E-mail, Zip, any case', async () => {
    const csv = lines(
      'First Name,SURNAME,DOB,Phone,E-mail,zip code,Date Joined',
      'Lynn,Hill,1961-01-03,303-555-0182,lynn@example.com,80301,2001-05-05',
    )
    expect(await upload(csv)).toEqual({ status: 201, body: { created: 1, ignored_columns: ['Date Joined'] } })
    const [lynn] = await listed()
    expect(lynn).toEqual(
      customerBody(lynn.id, {
        first_name: 'Lynn',
        last_name: 'Hill',
        birthday: '1961-01-03',
        telephone: '303-555-0182',
        email: 'lynn@example.com',
        address_postcode: '80301',
      }),
    )
  })

  test('Date of Birth and Telephone Number, a UTF-8 byte order mark, CRLF and quoted fields', async () => {
    const csv =
      '\uFEFF"Last Name","First Name","Date of Birth","Telephone Number","Street"\r\n' +
      '"O\'Brien, Jr.","Seán","1970-02-03","+353 1 555 0100","1 ""The"" Lane\r\nFlat 3"\r\n' +
      'Zoë,"Anne-Marie",1999-12-31,,\r\n'
    expect(await upload(new TextEncoder().encode(csv))).toEqual({
      status: 201,
      body: { created: 2, ignored_columns: [] },
    })
    const [sean, zoe] = await listed()
    expect([sean, zoe]).toEqual([
      customerBody(sean.id, {
        first_name: 'Seán',
        last_name: "O'Brien, Jr.",
        birthday: '1970-02-03',
        telephone: '+353 1 555 0100',
        address_street_1: '1 "The" Lane\r\nFlat 3',
      }),
      customerBody(zoe.id, { first_name: 'Anne-Marie', last_name: 'Zoë', birthday: '1999-12-31' }),
    ])
  })

  test('a file separated by semicolons, rows numbered past a blank line', async () => {
    const csv = lines(
      'Vorname;Last Name;First Name;Geburtstag;Birthday',
      ';Hill;Lynn;;1961-01-03',
      '',
      ';;;;',
      ';Honnold;Alex;;1985-13-17',
    )
    expect(await upload(csv)).toEqual({
      status: 400,
      body: { rows: [{ row: 5, errors: { birthday: invalidDate } }] },
    })
    const fixed = lines(
      'Last Name;First Name;Birthday',
      'Hill;Lynn;1961-01-03',
      '',
      ';;',
      'Honnold;Alex;1985-12-17',
    )
    expect(await upload(fixed)).toEqual({ status: 201, body: { created: 2, ignored_columns: [] } })
  })
})

describe('POST /api/customers/import/ refusals leave nothing written', () => {
  test('a bad date on row 12 refuses the file: the error names row 12', async () => {
    const rows = goodRows(11)
    rows[10] = 'Ada,Lovelace 11,ada11@example.com,1990-02-30'
    const res = await upload(lines(HEADER, ...rows))
    expect(res).toEqual({ status: 400, body: { rows: [{ row: 12, errors: { birthday: invalidDate } }] } })
    expect(await customerCount()).toBe(0)
  })

  test("every row's every error, with the messages of POST /api/customers/", async () => {
    const csv = lines(
      'first_name,last_name,email,birthday,home_location_id,address_country,is_active,profile_image_url',
      'Lynn,Hill,lynn@example.com,1961-01-03,,,,',
      ',Hill,not-an-email,2026-11-23,999,XX,maybe,ftp://x',
      'Alex,,,1899-12-31,one,,,',
      'Tommy,Caldwell,,,,,,',
    )
    const res = await upload(csv)
    expect(res).toEqual({
      status: 400,
      body: {
        rows: [
          {
            row: 3,
            errors: {
              first_name: required,
              email: invalidEmail,
              birthday: ['Ensure this value is less than or equal to 2026-11-22.'],
              is_active: invalidBoolean,
              home_location_id: ['Invalid pk "999" - object does not exist.'],
              address_country: ['"XX" is not a valid choice.'],
              profile_image_url: ['Enter a valid URL.'],
            },
          },
          {
            row: 4,
            errors: {
              last_name: required,
              birthday: ['Ensure this value is greater than or equal to 1900-01-01.'],
              home_location_id: ['A valid integer is required.'],
            },
          },
          { row: 5, errors: { birthday: required } },
        ],
      },
    })
    expect(await customerCount()).toBe(0)
  })

  test('a barcode twice in the file: the later row names the earlier', async () => {
    const csv = lines(
      `${HEADER},barcode`,
      'Lynn,Hill,,1961-01-03,B-1',
      'Alex,Honnold,,1985-08-17,B-2',
      'Tommy,Caldwell,,1978-08-11,B-1',
    )
    expect(await upload(csv)).toEqual({
      status: 400,
      body: { rows: [{ row: 4, errors: { barcode: ['This barcode is also on row 2.'] } }] },
    })
    expect(await customerCount()).toBe(0)
  })

  test("a barcode another customer holds is POST's error", async () => {
    await makeCustomer(t.db, { barcode: 'B-1' })
    const csv = lines(`${HEADER},barcode`, 'Alex,Honnold,,1985-08-17,B-2', 'Lynn,Hill,,1961-01-03,B-1')
    expect(await upload(csv)).toEqual({
      status: 400,
      body: { rows: [{ row: 3, errors: { barcode: barcodeTaken } }] },
    })
    expect(await customerCount()).toBe(1)
  })

  test('an email twice in the file in another case, or held by a customer in another case', async () => {
    await makeCustomer(t.db, { email: 'Lynn@Example.com' })
    const csv = lines(
      HEADER,
      'Lynn,Hill,LYNN@example.COM,1961-01-03',
      'Alex,Honnold,alex@example.com,1985-08-17',
      'Alex,Honnold,Alex@Example.com,1985-08-17',
    )
    expect(await upload(csv)).toEqual({
      status: 400,
      body: {
        rows: [
          { row: 2, errors: { email: emailTaken } },
          { row: 4, errors: { email: ['This email is also on row 3.'] } },
        ],
      },
    })
    expect(await customerCount()).toBe(1)
  })

  test('a header without a last_name column, or with two columns for one field', async () => {
    expect(await upload(lines('first_name,birthday', 'Lynn,1961-01-03'))).toEqual({
      status: 400,
      body: { columns: { last_name: ['This column is required.'] } },
    })
    expect(await upload(lines('First Name,Last Name,DOB,Phone,Mobile', 'Lynn,Hill,1961-01-03,1,2'))).toEqual({
      status: 400,
      body: { columns: { telephone: ['Only one column may give it: "Phone", "Mobile".'] } },
    })
    expect(await customerCount()).toBe(0)
  })

  test('a row with more values than the header has columns', async () => {
    const res = await upload(lines(HEADER, 'Lynn,Hill,,1961-01-03,extra,', 'Alex,Honnold,,1985-08-17,,'))
    expect(res).toEqual({
      status: 400,
      body: {
        rows: [
          { row: 2, errors: { non_field_errors: ['This row has 5 values; the header names 4 columns.'] } },
        ],
      },
    })
  })

  test('the first 100 rows with errors are listed, the rest counted', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => `Ada,Lovelace ${i},,1990-01-32`)
    const res = await upload(lines(HEADER, ...rows))
    expect(res.status).toBe(400)
    expect(res.body.rows).toHaveLength(100)
    expect(res.body.rows[99]).toEqual({ row: 101, errors: { birthday: invalidDate } })
    expect(res.body.more_rows_with_errors).toBe(50)
    expect(await customerCount()).toBe(0)
  })

  test('a file that cannot be read is refused on file', async () => {
    const refusals: Array<[string | Uint8Array, string]> = [
      ['', 'The submitted file is empty.'],
      [lines(HEADER), 'The file has no customers: a header and then a row per customer.'],
      [lines(HEADER, '', ',,,'), 'The file has no customers: a header and then a row per customer.'],
      [
        lines(HEADER, 'Lynn,Hill,,1961-01-03', '"Alex,Honnold,,1985-08-17'),
        'Row 3 opens a quoted field that is never closed.',
      ],
      [
        new Uint8Array([
          ...new TextEncoder().encode(`${HEADER}\nJos`),
          0xe9,
          ...new TextEncoder().encode(',X,,1961-01-03\n'),
        ]),
        'The file is not UTF-8 text: save the spreadsheet as "CSV UTF-8".',
      ],
    ]
    for (const [csv, message] of refusals) {
      expect(await upload(csv)).toEqual({ status: 400, body: { file: [message] } })
    }
    expect(await customerCount()).toBe(0)
  })

  test('no file, a field that is not a file, and a bad dry_run', async () => {
    const form = new FormData()
    form.append('file', 'first_name,last_name,birthday')
    const request = (body: FormData | string, type?: string) =>
      t.app.handle(
        new Request(`${ORIGIN}${PATH}`, {
          method: 'POST',
          headers: {
            authorization: `Token ${staff.members.token}`,
            ...(type ? { 'content-type': type } : {}),
          },
          body,
        }),
      )
    const notAFile = await request(form)
    expect([notAFile.status, await notAFile.json()]).toEqual([
      400,
      { file: ['The submitted data was not a file. Check the encoding type on the form.'] },
    ])
    const none = await t.request('POST', PATH, { token: staff.members.token, body: {} })
    expect([none.status, none.body]).toEqual([400, { file: ['No file was submitted.'] }])
    const plain = await request('a,b', 'text/plain')
    expect([plain.status, await plain.json()]).toEqual([
      415,
      { detail: 'Unsupported media type "text/plain" in request.' },
    ])
    const bad = await postCsv(lines(HEADER, ...goodRows(1)), '?dry_run=maybe')
    expect([bad.status, bad.body]).toEqual([400, { dry_run: invalidBoolean }])
    expect(await customerCount()).toBe(0)
  })

  test('a file over 10 MiB is 413', async () => {
    const row = 'Ada,Lovelace,,1990-01-01\n'
    const big = HEADER + '\n' + row.repeat(Math.ceil((10 * 1024 * 1024) / row.length) + 1)
    const res = await postCsv(big)
    expect([res.status, res.body]).toEqual([413, { detail: 'Request body is too large.' }])
    expect(await customerCount()).toBe(0)
  })
})

describe('POST /api/customers/import/ 401, 403 and races', () => {
  test('without a token 401; without can_manage_members 403, nothing written', async () => {
    expectUnauthenticated(
      await t.request('POST', PATH, {
        body: lines(HEADER, ...goodRows(1)),
        headers: { 'content-type': 'text/csv' },
      }),
    )
    expect(await upload(lines(HEADER, ...goodRows(1)), { token: staff.allButMembers.token })).toEqual({
      status: 403,
      body: forbidden,
    })
    expect(await upload(lines(HEADER, ...goodRows(1)), { token: t.seed.staffToken })).toEqual({
      status: 403,
      body: forbidden,
    })
    expect(await customerCount()).toBe(0)
  })

  test('two imports at once of files with one barcode: one 201, the other 400 naming the row', async () => {
    const first = lines(
      `${HEADER},barcode`,
      'Lynn,Hill,,1961-01-03,RACE-1',
      'Alex,Honnold,,1985-08-17,RACE-2',
    )
    const second = lines(
      `${HEADER},barcode`,
      'Tommy,Caldwell,,1978-08-11,RACE-3',
      'Beth,Rodden,,1980-05-05,RACE-1',
    )
    const answers = await Promise.all([upload(first), upload(second)])
    expect(answers.map((res) => res.status).sort()).toEqual([201, 400])
    const refused = answers.find((res) => res.status === 400)!
    const createdFirst = answers[0]!.status === 201
    expect(refused.body).toEqual({
      rows: [{ row: createdFirst ? 3 : 2, errors: { barcode: barcodeTaken } }],
    })
    expect(await customerCount()).toBe(2)
  })

  test('two imports at once of files with one email in two cases: one 201, the other 400 naming the row', async () => {
    const first = lines(HEADER, 'Lynn,Hill,lynn@example.com,1961-01-03', 'Alex,Honnold,,1985-08-17')
    const second = lines(HEADER, 'Tommy,Caldwell,,1978-08-11', 'Beth,Rodden,LYNN@Example.com,1980-05-05')
    const answers = await Promise.all([upload(first), upload(second)])
    expect(answers.map((res) => res.status).sort()).toEqual([201, 400])
    const refused = answers.find((res) => res.status === 400)!
    const createdFirst = answers[0]!.status === 201
    expect(refused.body).toEqual({ rows: [{ row: createdFirst ? 3 : 2, errors: { email: emailTaken } }] })
    expect(await customerCount()).toBe(2)
  })
})

describe('POST /api/customers/import/ on a site of a hub', () => {
  test("each row's id is the site's allocation, as the API's own inserts take theirs", async () => {
    await makeCustomer(t.db, { first_name: 'Before' })
    allocateSiteIds(t.deps.sqlite, 5, ['customers'])
    try {
      expect(await upload(lines(HEADER, ...goodRows(3)))).toEqual({
        status: 201,
        body: { created: 3, ignored_columns: [] },
      })
    } finally {
      stopAllocatingSiteIds(t.deps.sqlite)
    }
    const ids = (await listed()).map((customer) => customer.id)
    expect(ids).toEqual([1, 5, 1029, 2053])
  })
})
