import { beforeEach, describe, expect, test } from 'bun:test'
import { listCustomers } from '../../../src/api/customers/queries.ts'
import { listCheckIns } from '../../../src/api/check-ins/queries.ts'
import { listPayments } from '../../../src/api/payments/queries.ts'
import { reportMembersChunks } from '../../../src/core/reports/members-report.ts'
import { readMembersQuery } from '../../../src/api/members/rules.ts'
import { serializeMemberAddOn } from '../../../src/api/members/serializer.ts'
import { LISTED_PAYMENT_STATUSES } from '../../../src/domain/sales.ts'
import { csvCell } from '../../../src/lib/csv-write.ts'
import { ORIGIN, START } from '../../helpers/app.ts'
import { forbidden } from '../../helpers/bodies.ts'
import { makeCheckIn } from '../../helpers/check-in-factories.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import { seedMembersReportSet } from '../../helpers/members-report-set.ts'
import { makeInvoice, makePayment } from '../../helpers/sales-factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'

// ?format=csv on /api/customers/, /api/members/, /api/payments/ and /api/check-ins/. The cell
// rules one by one: test/lib/csv-write.test.ts.

const t = useSeededApp()
let exporter: string
let reports: string
let members: string
beforeEach(async () => {
  exporter = await makeToken(t.db, await makeUser(t.db, { can_export_customers: 1 }))
  reports = await makeToken(t.db, await makeUser(t.db, { can_access_reports: 1 }))
  members = await makeToken(t.db, await makeUser(t.db, { can_manage_members: 1 }))
})

const CUSTOMER_HEADER = [
  'id,url,first_name,last_name,preferred_name,email,telephone,birthday,barcode,is_active,',
  'home_location_id,home_location_name,home_location_url,address_street_1,address_street_2,',
  'address_city,address_state,address_postcode,address_country,profile_image_url,',
  'first_check_in_timestamp,has_active_membership,active_waiver_exists,',
  'latest_waiver_expiration_date,site_conflicts,created_at,updated_at,credits_url,',
  'emergency_contacts_url,medical_notes_url,relations_url,documents_url,event_vouchers_url,',
  'alerts_url,check_ins_url\r\n',
].join('')

/** A customer's links, as the last eight cells of their line. */
const links = (id: number) =>
  ['credits', 'emergency-contacts', 'medical-notes', 'relations', 'documents', 'event-vouchers', 'alerts']
    .map((path) => `${ORIGIN}/api/customers/${id}/${path}/`)
    .concat(`${ORIGIN}/api/customers/${id}/check-ins/`)
    .join(',')

/** RFC 4180, as a spreadsheet reads it: the lines of cells (the last line end closes the last). */
function parseCsv(text: string): string[][] {
  const lines: string[][] = []
  let cells: string[] = []
  let cell = ''
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (c === '"' && cell === '') {
      // A quoted cell: up to the quote that is not one of a doubled pair.
      let j = i + 1
      while (!(text[j] === '"' && text[j + 1] !== '"')) j += text[j] === '"' ? 2 : 1
      cell = text.slice(i + 1, j).replaceAll('""', '"')
      i = j + 1
      continue
    }
    if (c === ',') {
      cells.push(cell)
      cell = ''
    } else if (c === '\r' && text[i + 1] === '\n') {
      cells.push(cell)
      lines.push(cells)
      cells = []
      cell = ''
      i++
    } else cell += c
    i++
  }
  return lines
}

/** Each JSON record as its CSV line's cells: what the export must hold, field by field. */
const asCells = (records: Array<Record<string, unknown>>) =>
  records.map((record) => Object.values(record).map((value) => parseCsv(`${csvCell(value)}\r\n`)[0]![0]!))

async function exportCsv(path: string, token: string) {
  const res = await t.request('GET', path, { token })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
  return res.body as string
}

describe('customers', () => {
  test('the file exactly: header, then each customer, quoted and guarded', async () => {
    const gym = await makeGym(t.db, { name: 'Boulder, "North"' })
    const a = await makeCustomer(t.db, {
      first_name: '=HYPERLINK("http://evil.example","click")',
      last_name: 'Able',
      email: 'a@example.com',
      telephone: '+1 303 555 0182',
      address_street_1: '1 Main St\nSuite 2',
      home_location_id: gym.id,
    })
    const b = await makeCustomer(t.db, { first_name: 'Lynn', last_name: 'Hill, Jr.', barcode: '@123' })
    const body = await exportCsv('/api/customers/?format=csv', exporter)
    expect(body).toBe(
      CUSTOMER_HEADER +
        [
          `${a.id},${ORIGIN}/api/customers/${a.id}/,"'=HYPERLINK(""http://evil.example"",""click"")",Able,,`,
          `a@example.com,'+1 303 555 0182,1961-01-03,,true,${gym.id},"Boulder, ""North""",`,
          `${ORIGIN}/api/gyms/${gym.id}/,"1 Main St\nSuite 2",,,,,,,,false,false,,[],${START},${START},`,
          `${links(a.id)}\r\n`,
        ].join('') +
        [
          `${b.id},${ORIGIN}/api/customers/${b.id}/,Lynn,"Hill, Jr.",,,,1961-01-03,'@123,true,,,,,,,,,,,,`,
          `false,false,,[],${START},${START},${links(b.id)}\r\n`,
        ].join(''),
    )
  })

  test('without can_export_customers it is 403, whatever the filters; an admin may', async () => {
    await makeCustomer(t.db)
    for (const token of [t.seed.staffToken, members, reports]) {
      const res = await t.request('GET', '/api/customers/?format=csv&is_active=maybe', { token })
      expect(res.status).toBe(403)
      expect(res.body).toEqual(forbidden)
    }
    expect(await exportCsv('/api/customers/?format=csv', t.seed.adminToken)).toStartWith(CUSTOMER_HEADER)
    // The JSON list is still any staff user's.
    expect((await t.request('GET', '/api/customers/', { token: t.seed.staffToken })).status).toBe(200)
  })

  test("the file is named after the collection and the organization's today", async () => {
    // 06:30 UTC on the 23rd is still the 22nd in Denver.
    t.clock.set('2026-11-23T06:30:00.000Z')
    const res = await t.request('GET', '/api/customers/?format=csv', { token: exporter })
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="customers-2026-11-22.csv"')
  })

  test('no customer selected: the header alone', async () => {
    await makeCustomer(t.db, { is_active: 0 })
    expect(await exportCsv('/api/customers/?format=csv&is_active=true', exporter)).toBe(CUSTOMER_HEADER)
  })

  test('a bad filter is the list’s 400', async () => {
    const res = await t.request('GET', '/api/customers/?format=csv&is_active=maybe', { token: exporter })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ is_active: ['Must be a valid boolean.'] })
  })

  test('a filtered export is the filtered list, every record and field, past any page', async () => {
    const gym = await makeGym(t.db)
    for (let i = 0; i < 14; i++)
      await makeCustomer(t.db, {
        first_name: `Ann ${i % 3}`,
        last_name: i % 2 === 0 ? 'Smith' : 'Jones, "J"',
        home_location_id: i % 4 === 0 ? null : gym.id,
        email: i === 5 ? '-x@example.com' : null,
      })
    const query = `home_location_id=${gym.id}`
    const list = await t.request('GET', `/api/customers/?${query}&page_size=100`, { token: exporter })
    expect(list.body.count).toBe(10)
    const csv = parseCsv(await exportCsv(`/api/customers/?${query}&format=csv&page_size=3&page=2`, exporter))
    expect(csv[0]).toEqual(Object.keys(list.body.results[0]))
    expect(csv.slice(1)).toEqual(asCells(list.body.results))
  })

  test('read in chunks by keyset, the list is the same records in the same order', async () => {
    // Equal names, so that the id alone tells some apart.
    for (const [first, last] of [
      ['B', 'Smith'],
      ['A', 'Smith'],
      ['A', 'Smith'],
      ['C', 'Able'],
      ['A', 'smith'],
    ])
      await makeCustomer(t.db, { first_name: first, last_name: last })
    const source = listCustomers(t.db, {}, '2026-11-22')
    const whole = (await source.rows(100, 0)).map((row) => row.id)
    const chunked: number[][] = []
    for await (const rows of source.chunks!(2)) chunked.push(rows.map((row) => row.id))
    expect(chunked.map((ids) => ids.length)).toEqual([2, 2, 1])
    expect(chunked.flat()).toEqual(whole)
  })
})

describe('check-ins', () => {
  test('a filtered export is the filtered list, every record and field', async () => {
    const boulder = await makeGym(t.db, { name: 'Boulder' })
    const customer = await makeCustomer(t.db, { email: 'lynn@example.com' })
    for (let i = 0; i < 12; i++)
      await makeCheckIn(t.db, {
        customer_id: customer.id,
        gym_id: i % 3 === 0 ? t.seed.gym.id : boulder.id,
        at: `2026-11-${String(10 + i).padStart(2, '0')}T18:00:00.000Z`,
        milestone_list: i === 4 ? '["10th visit"]' : '[]',
        check_out_at: i % 2 === 0 ? `2026-11-${String(10 + i).padStart(2, '0')}T19:30:00.000Z` : null,
      })
    const query = `location_id=${boulder.id}&check_in_date_min=2026-11-12`
    const list = await t.request('GET', `/api/check-ins/?${query}&page_size=100`, { token: members })
    expect(list.body.count).toBe(7)
    const res = await t.request('GET', `/api/check-ins/?${query}&format=csv`, { token: members })
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="check-ins-2026-11-22.csv"')
    const csv = parseCsv(res.body)
    expect(csv[0]!.join(',')).toBe(
      'id,url,customer_id,customer_url,customer_first_name,customer_last_name,customer_birthday,' +
        'customer_email,check_in_datetime,check_out_datetime,visit_duration_minutes,entry_method,' +
        'entry_method_description,location_id,location_url,location_name,free_entry_reason,' +
        'free_entry_granting_user_id,free_entry_granting_user_first_name,' +
        'free_entry_granting_user_last_name,converted_from_free_entry,milestone_list,check_in_count,' +
        'created_at,updated_at',
    )
    expect(csv.slice(1)).toEqual(asCells(list.body.results))
    expect(csv.find((line) => line[0] === String(list.body.results[3].id))?.[21]).toBe('[]')
  })

  test('its usual permission: can_manage_members; none selected is the header alone', async () => {
    for (const token of [t.seed.staffToken, exporter, reports]) {
      const res = await t.request('GET', '/api/check-ins/?format=csv', { token })
      expect(res.status).toBe(403)
      expect(res.body).toEqual(forbidden)
    }
    expect(await exportCsv('/api/check-ins/?format=csv', members)).toEndWith('created_at,updated_at\r\n')
  })

  test('read in chunks by keyset, newest first, as the list (checked-out ones by check-out)', async () => {
    const customer = await makeCustomer(t.db)
    // Two at the same instant, so that the id alone orders them.
    for (const at of ['2026-11-20T10:00:00.000Z', '2026-11-21T10:00:00.000Z', '2026-11-21T10:00:00.000Z'])
      await makeCheckIn(t.db, { customer_id: customer.id, gym_id: t.seed.gym.id, at, check_out_at: at })
    for (const q of [{}, { checked_out: true }]) {
      const source = listCheckIns(t.db, q)
      const chunked: number[] = []
      for await (const rows of source.chunks!(2)) chunked.push(...rows.map((row) => row.id))
      expect(chunked).toEqual((await source.rows(100, 0)).map((row) => row.id))
      expect(chunked).toHaveLength(3)
    }
  })
})

describe('payments', () => {
  test('a filtered export is the filtered list; line items and revenue codes are JSON cells', async () => {
    const customer = await makeCustomer(t.db, { first_name: 'Ada', email: 'ada@example.com' })
    for (let i = 0; i < 5; i++) {
      const invoice = await makeInvoice(t.db, {
        gym_id: t.seed.gym.id,
        customer_id: i === 2 ? null : customer.id,
        description: `Day pass, "${i}"`,
        lines: [
          { purchase_type: 'EPA', description: 'Day pass', net_cents: 1000, revenue_account_code: '4000' },
          { purchase_type: 'GEN', description: 'Chalk', net_cents: 500 + i, revenue_account_code: '4100' },
        ],
      })
      await makePayment(t.db, {
        invoice_id: invoice.id,
        amount_cents: 1500 + i,
        at: `2026-11-2${i % 3}T12:00:00.000Z`,
        status: i === 4 ? 'FAI' : 'COM',
      })
    }
    const query = 'status_in=COM'
    const list = await t.request('GET', `/api/payments/?${query}&page_size=100`, { token: reports })
    expect(list.body.count).toBe(4)
    const res = await t.request('GET', `/api/payments/?${query}&format=csv`, { token: reports })
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="payments-2026-11-22.csv"')
    const csv = parseCsv(res.body)
    expect(csv[0]).toEqual(Object.keys(list.body.results[0]))
    expect(csv.slice(1)).toEqual(asCells(list.body.results))
    const row = csv[1]!
    expect(row[csv[0]!.indexOf('line_items')]).toStartWith('[{"id":')
    expect(row[csv[0]!.indexOf('revenue_account_codes')]).toStartWith('{"4000":')
  })

  test('its usual permission: can_access_reports; none selected is the header alone', async () => {
    for (const token of [t.seed.staffToken, exporter, members]) {
      const res = await t.request('GET', '/api/payments/?format=csv', { token })
      expect(res.status).toBe(403)
      expect(res.body).toEqual(forbidden)
    }
    expect(await exportCsv('/api/payments/?format=csv', reports)).toEndWith('created_at,updated_at\r\n')
  })

  test('read in chunks by keyset, newest first, as the list', async () => {
    for (const at of ['2026-11-20T10:00:00.000Z', '2026-11-21T10:00:00.000Z', '2026-11-21T10:00:00.000Z']) {
      const invoice = await makeInvoice(t.db, { gym_id: t.seed.gym.id, lines: [{ net_cents: 100 }] })
      await makePayment(t.db, { invoice_id: invoice.id, amount_cents: 100, at })
    }
    const source = listPayments(t.db, { statuses: LISTED_PAYMENT_STATUSES })
    const chunked: number[] = []
    for await (const rows of source.chunks!(2)) chunked.push(...rows.map((row) => row.id))
    expect(chunked).toEqual((await source.rows(100, 0)).map((row) => row.id))
    expect(chunked).toHaveLength(3)
  })
})

describe('members', () => {
  beforeEach(async () => {
    await seedMembersReportSet(t.db, t.seed.gym)
  })

  test('every row of the report, each field as the JSON has it (add-ons one JSON cell)', async () => {
    for (const query of ['', 'status_in=frozen', 'include_billing_info=true']) {
      const list = await t.request('GET', `/api/members/?${query}`, { token: t.seed.staffToken })
      const res = await t.request('GET', `/api/members/?${query}&format=csv`, { token: t.seed.staffToken })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="members-2026-11-22.csv"')
      const csv = parseCsv(res.body)
      expect(csv[0]).toEqual(Object.keys(list.body[0]))
      expect(csv.slice(1)).toEqual(asCells(list.body))
    }
  })

  test('none selected is the header alone, without the billing fields unless asked for', async () => {
    const body = await exportCsv('/api/members/?format=csv&add_on_name=Nothing', t.seed.staffToken)
    expect(body).toEndWith(',start_date,end_date,has_payment_method\r\n')
    expect(body.split('\r\n')).toHaveLength(2)
    const billed = await exportCsv(
      '/api/members/?format=csv&add_on_name=Nothing&include_billing_info=true',
      t.seed.staffToken,
    )
    expect(billed).toEndWith(',last_invoice_tax_amount,last_invoice_date\r\n')
  })

  test('read in chunks by keyset, the same rows in the same order (names ignoring case)', async () => {
    const request = await readMembersQuery({ reader: t.db }, {})
    const writing = {
      urls: { customers: 'c/', customerMemberships: 'cm/', memberships: 'm/', gyms: 'g/' },
      addOnJson: (addOn: Parameters<typeof serializeMemberAddOn>[0]) =>
        JSON.stringify(serializeMemberAddOn(addOn)),
    }
    const rows = async (size: number) => {
      const all: string[] = []
      for await (const chunk of reportMembersChunks({ reader: t.db }, request, writing, size))
        all.push(...chunk.map((row) => `${row.first_name} ${row.last_name} ${row.membership_id}`))
      return all
    }
    const whole = await rows(1000)
    expect(whole).toHaveLength(9)
    expect(await rows(2)).toEqual(whole)
    expect(await rows(1)).toEqual(whole)
  })
})
