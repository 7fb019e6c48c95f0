/**
 * `belay import` against a source that is not a whole Belay box: a small server that offers an
 * organization, gyms over two pages (the second link naming a host this machine does not reach),
 * one staff user, one customer with a photo and a signed document with its PDF, and nothing else
 * (404). A page that fails twice is asked again; a collection the
 * source does not offer is reported, not fatal; a refused token stops the import in one line.
 */
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import type { Server } from 'bun'
import { importOrganization, ImportError } from '../../src/import/index.ts'
import { importSummary } from '../../src/database-commands.ts'
import { openMigratedMemory } from '../helpers/migrated-memory.ts'

const TOKEN = 'good-token'
const STAMP = '2026-01-02T03:04:05.000Z'

const gym = (id: number) => ({
  id,
  url: `https://public.gym.example/api/gyms/${id}/`,
  name: `Gym ${id}`,
  hide_setter: false,
  time_zone: 'America/Denver',
  scheduler_url_path: '',
  scheduler_landing_page_text: '',
  scheduler_first_day_of_week: 'MON',
  capacity: 80,
  combine_same_day_check_ins: true,
  created_at: STAMP,
  updated_at: STAMP,
})

const PHOTO = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])
const PDF = new TextEncoder().encode('%PDF-1.4 signed')

const customer = (id: number) => ({
  id,
  url: `https://public.gym.example/api/customers/${id}/`,
  first_name: 'Cara',
  last_name: 'Crimp',
  preferred_name: '',
  email: 'cara@elsewhere.example',
  telephone: '',
  birthday: '1990-04-05',
  barcode: `C${id}`,
  is_active: true,
  home_location_id: 5,
  profile_image_url: `https://public.gym.example/api/customers/${id}/photo/`,
  first_check_in_timestamp: null,
  created_at: STAMP,
  updated_at: STAMP,
})

let failuresLeft = 0
let duplicateBarcode = false
const asked: string[] = []

function answer(req: Request): Response {
  const url = new URL(req.url)
  asked.push(url.pathname + url.search)
  if (req.headers.get('authorization') !== `Token ${TOKEN}`)
    return Response.json({ detail: 'Invalid token.' }, { status: 401 })
  const page = url.searchParams.get('page')
  switch (url.pathname) {
    case '/api/organization/':
      return Response.json({
        name: 'Elsewhere Climbing',
        time_zone: 'America/Denver',
        currency: 'USD',
        waiver_required: true,
        milestones: [1, 10],
        created_at: STAMP,
        updated_at: STAMP,
      })
    case '/api/gyms/':
      if (page === '2') {
        if (failuresLeft-- > 0) return new Response('busy', { status: 503 })
        return Response.json({ count: 3, next: null, previous: null, results: [gym(7)] })
      }
      return Response.json({
        count: 3,
        next: 'https://public.gym.example/api/gyms/?page=2&page_size=100',
        previous: null,
        results: [gym(2), gym(5)],
      })
    case '/api/users/':
      return Response.json({
        count: 1,
        next: null,
        previous: null,
        results: [
          {
            id: 40,
            email: 'owner@elsewhere.example',
            first_name: 'Olive',
            last_name: 'Owner',
            default_gym_id: 5,
            date_joined: STAMP,
            is_active: true,
            can_manage_events: true,
            can_manage_members: true,
            can_manage_customer_proficiencies: false,
            can_export_customers: true,
            can_access_reports: true,
            can_manage_climbs: false,
            is_organization_admin: true,
            pin_mode_required: false,
            has_password: true,
            has_pin: false,
          },
        ],
      })
    case '/api/customers/':
      return Response.json({
        count: duplicateBarcode ? 2 : 1,
        next: null,
        previous: null,
        results: duplicateBarcode ? [customer(9), { ...customer(10), barcode: 'C9' }] : [customer(9)],
      })
    case '/api/customers/9/photo/':
      return new Response(PHOTO, { headers: { 'content-type': 'image/png' } })
    case '/api/customers/9/documents/':
      return Response.json({
        count: 1,
        next: null,
        previous: null,
        results: [
          {
            id: 31,
            url: 'https://public.gym.example/api/customers/9/documents/31/',
            name: 'Waiver 2026',
            kind: 'waiver',
            pdf: 'https://public.gym.example/api/customers/9/documents/31/pdf/',
            expiration_date: '2027-01-02',
            is_expired: false,
            created_at: STAMP,
            updated_at: STAMP,
          },
        ],
      })
    case '/api/customers/9/documents/31/pdf/':
      return new Response(PDF, { headers: { 'content-type': 'application/pdf' } })
    default:
      // Each gym's grades, sections and climbs are there, and empty.
      if (/^\/api\/gyms\/\d+\/(grades|sections|climbs)\/$/.test(url.pathname))
        return Response.json({ count: 0, next: null, previous: null, results: [] })
      return Response.json({ detail: 'Not found.' }, { status: 404 })
  }
}

let server: Server<undefined> | undefined
const serve = () => (server ??= Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: answer }))
const base = () => `http://127.0.0.1:${serve().port}`

afterEach(() => {
  asked.length = 0
  failuresLeft = 0
  duplicateBarcode = false
})
afterAll(() => server?.stop(true))

async function run(token = TOKEN) {
  const connection = await openMigratedMemory()
  const lines: string[] = []
  try {
    const result = await importOrganization({
      from: `${base()}/`,
      token,
      db: connection.db,
      dbPath: 'copy.sqlite3',
      progress: (line) => lines.push(line),
      firstWaitMs: 1,
    })
    const gyms = await connection.db.selectFrom('gyms').selectAll().orderBy('id').execute()
    const users = await connection.db.selectFrom('staff_users').selectAll().execute()
    const customers = await connection.db.selectFrom('customers').selectAll().execute()
    const photos = await connection.db.selectFrom('customer_photos').selectAll().execute()
    const documents = await connection.db.selectFrom('customer_documents').selectAll().execute()
    const files = await connection.db.selectFrom('customer_document_files').selectAll().execute()
    return { result, lines, gyms, users, customers, photos, documents, files }
  } finally {
    await connection.close()
  }
}

describe('belay import from a source that offers little', () => {
  test('copies what is offered, asks a failed page again, and reports the rest as not offered', async () => {
    failuresLeft = 2
    const { result, lines, gyms, users, customers, photos, documents, files } = await run()

    expect(gyms.map((g) => g.id)).toEqual([2, 5, 7])
    expect(gyms[0]).toEqual({
      id: 2,
      name: 'Gym 2',
      hide_setter: 0,
      time_zone: 'America/Denver',
      scheduler_url_path: '',
      scheduler_landing_page_text: '',
      scheduler_first_day_of_week: 'MON',
      capacity: 80,
      combine_same_day_check_ins: 1,
      created_at: STAMP,
      updated_at: STAMP,
    })
    expect(users).toHaveLength(1)
    expect(users[0]!.password_hash).toBeNull()
    expect(users[0]!.is_organization_admin).toBe(1)

    // A photo and a PDF are the box's own files behind a link: fetched, kept as the box's path.
    expect(customers.map((c) => [c.id, c.profile_image_url, c.check_in_count])).toEqual([
      [9, '/api/customers/9/photo/', 0],
    ])
    expect(photos).toEqual([{ customer_id: 9, content_type: 'image/png', content: PHOTO, taken_at: STAMP }])
    expect(documents.map((d) => [d.id, d.customer_id, d.kind, d.expiration_date])).toEqual([
      [31, 9, 'waiver', '2027-01-02'],
    ])
    expect(files).toEqual([{ document_id: 31, content_type: 'application/pdf', content: PDF }])

    // The next link's host is the source's public one: its path was asked of --from, three times.
    expect(asked.filter((path) => path === '/api/gyms/?page=2&page_size=100')).toHaveLength(3)
    expect(lines).toContain('gyms: 3 / 3')
    expect(lines).toContain('customer alerts: not offered by the source (404)')

    const byName = Object.fromEntries(result.collections.map((c) => [c.name, c]))
    expect(byName.gyms).toEqual({ name: 'gyms', state: 'done', records: 3 })
    expect(byName['staff users']).toEqual({ name: 'staff users', state: 'done', records: 1 })
    expect(byName.customers).toEqual({ name: 'customers', state: 'done', records: 1 })
    expect(byName['customer documents']).toEqual({ name: 'customer documents', state: 'done', records: 1 })
    expect(byName['customer alerts']).toEqual({ name: 'customer alerts', state: 'missing', records: 0 })
    expect(byName.invoices).toEqual({ name: 'invoices', state: 'missing', records: 0 })
    expect(byName.climbs).toEqual({ name: 'climbs', state: 'done', records: 0 })
    expect(result.organization).toBe('Elsewhere Climbing')

    const summary = importSummary(result, 'copy.sqlite3', 1.25)
    expect(summary.split('\n')[0]).toBe(
      `imported Elsewhere Climbing from ${base()} into copy.sqlite3 in 1.3 s: 7 records`,
    )
    expect(summary).toContain('\n  customer alerts              not offered by the source (404)\n')
    expect(summary).toContain('\n  gyms                         3\n')
    expect(summary).toContain('Staff users have no password here')
  })

  test('a record the copy refuses stops the import, naming it, with nothing of its page written', async () => {
    duplicateBarcode = true
    const connection = await openMigratedMemory()
    try {
      const refused = importOrganization({
        from: base(),
        token: TOKEN,
        db: connection.db,
        dbPath: 'copy.sqlite3',
        progress: () => {},
        firstWaitMs: 1,
      })
      await expect(refused).rejects.toThrow(
        'customers: record 10 could not be written: UNIQUE constraint failed: customers.barcode; nothing of its page was written',
      )
      expect(await connection.db.selectFrom('customers').select('id').execute()).toEqual([])
      const progress = await connection.db
        .selectFrom('import_progress')
        .select(['state', 'records'])
        .where('collection', '=', 'customers')
        .executeTakeFirstOrThrow()
      expect(progress).toEqual({ state: 'pending', records: 0 })
    } finally {
      await connection.close()
    }
  })

  test('a refused token ends the import with the source’s words', async () => {
    const refused = run('wrong-token')
    await expect(refused).rejects.toThrow(ImportError)
    await expect(refused).rejects.toThrow(
      `the source refused the token (401) at ${base()}/api/organization/: {"detail":"Invalid token."}`,
    )
  })

  test('a source that does not answer at all is asked a few times, then named', async () => {
    const connection = await openMigratedMemory()
    try {
      const gone = importOrganization({
        from: 'http://127.0.0.1:1',
        token: TOKEN,
        db: connection.db,
        dbPath: 'copy.sqlite3',
        progress: () => {},
        firstWaitMs: 1,
      })
      await expect(gone).rejects.toThrow(
        'the source did not answer http://127.0.0.1:1/api/organization/ after 5 tries',
      )
    } finally {
      await Bun.sleep(200)
      await connection.close()
    }
  })
})
