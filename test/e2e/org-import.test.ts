/**
 * Moving from another system: `belay import` copies the small demo from one running box into a new
 * file, which a second box then serves. Every collection it copies reads back the same at both
 * boxes (ids and fields, links with their hosts aside); an import killed midway and run again
 * finishes with nothing twice; a database that is not an unfinished import of the same source is
 * refused in one line.
 */
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import {
  getToken,
  removeTempDirs,
  request,
  runBelay,
  spawnBelay,
  startServer,
  stopAll,
  tempDbPath,
  type Server,
} from './helpers.ts'

const DEMO_ADMIN = 'admin@granitepeak.example'
const DEMO_PASSWORD = 'granite-peak-demo'
const CHECKER = { email: 'checker@import.example', password: 'import-check-pass' }
const IMPORT_TIMEOUT_MS = 90_000

let source: Server
let sourceToken: string

beforeAll(async () => {
  const db = tempDbPath()
  const seeded = spawnBelay(['seed-demo', '--size', 'small', '--db', db])
  expect(await seeded.waitForExit(60_000)).toBe(0)
  source = await startServer({ db })
  sourceToken = await getToken(source.base, DEMO_ADMIN, DEMO_PASSWORD)
}, 90_000)

afterAll(async () => {
  await stopAll()
  removeTempDirs()
})

async function runImport(db: string, from = source.base) {
  const proc = spawnBelay(['import', '--from', from, '--token', sourceToken, '--db', db])
  const code = await proc.waitForExit(IMPORT_TIMEOUT_MS)
  return { code, stdout: proc.stdout, stderr: proc.stderr }
}

/** The records of a list, every page, or its first `pages` pages. */
async function all(base: string, token: string, path: string, pages = Infinity): Promise<any[]> {
  const records: any[] = []
  let next: string | null = `${path}${path.includes('?') ? '&' : '?'}page_size=100`
  for (let page = 0; next !== null && page < pages; page++) {
    const res = await request(base, 'GET', next, { token })
    expect(res.status, `${base}${next}`).toBe(200)
    records.push(...res.body.results)
    next = res.body.next === null ? null : new URL(res.body.next).pathname + new URL(res.body.next).search
  }
  return records
}

/** A body with every link's host taken off: `http://127.0.0.1:4711/api/gyms/1/` -> `/api/gyms/1/`. */
const hostless = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value).replace(/https?:\/\/127\.0\.0\.1:\d+/g, ''))

/** What a copy cannot read back the same, by what the API does not carry (README: Moving). */
function comparable(path: string, records: any[]): unknown {
  return hostless(
    records.map((record) => {
      const r = { ...record }
      if (path.startsWith('/api/users/')) {
        delete r.has_password
        delete r.has_pin
      }
      if (path.startsWith('/api/invoices/'))
        r.line_items = r.line_items.map((line: any) => ({ ...line, gift_code: undefined }))
      // A visit still going lasts until the moment each box is asked.
      if (path.startsWith('/api/check-ins/') && r.check_out_datetime === null) delete r.visit_duration_minutes
      return r
    }),
  )
}

async function expectSame(target: Server, targetToken: string, path: string, pages = Infinity) {
  const [a, b] = await Promise.all([
    all(source.base, sourceToken, path, pages),
    all(target.base, targetToken, path, pages),
  ])
  expect(comparable(path, b), path).toEqual(comparable(path, a) as any)
  return a
}

/** Every table's row count, the bookkeeping of the box itself aside. */
function rowCounts(path: string): Record<string, number> {
  const db = new Database(path, { readonly: true })
  try {
    const tables = db
      .query<{ name: string }, []>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'invoice_search_%' ORDER BY name",
      )
      .all()
      .map((t) => t.name)
    return Object.fromEntries(
      tables.map((name) => [
        name,
        db.query<{ n: number }, []>(`SELECT count(*) AS n FROM "${name}"`).get()!.n,
      ]),
    )
  } finally {
    db.close()
  }
}

/** The organization's tables whose rows a copy holds exactly as many of as the source. */
const COPIED_TABLES = [
  'organization',
  'gyms',
  'tax_rates',
  'staff_users',
  'waiver_texts',
  'event_categories',
  'event_types',
  'event_type_categories',
  'event_questions',
  'event_schedules',
  'event_schedule_exceptions',
  'grades',
  'sections',
  'climbs',
  'climb_setters',
  'membership_types',
  'add_ons',
  'entry_pass_types',
  'voucher_packs',
  'discounts',
  'customers',
  'customer_photos',
  'customer_alerts',
  'customer_documents',
  'customer_document_files',
  'customer_credits',
  'customer_emergency_contacts',
  'customer_medical_notes',
  'customer_relations',
  'customer_event_vouchers',
  'customer_memberships',
  'membership_members',
  'membership_member_add_ons',
  'membership_status_changes',
  'customer_entry_passes',
  'events',
  'reservations',
  'waitlist_entries',
  'invoices',
  'invoice_line_items',
  'invoice_discounts',
  'payments',
  'refunds',
  'revenue_entries',
  'check_ins',
  'quick_sales',
]

const pick = (counts: Record<string, number>) => Object.fromEntries(COPIED_TABLES.map((t) => [t, counts[t]]))

describe('belay import', () => {
  test(
    'copies the organization into a new file: every collection reads back the same at both boxes',
    async () => {
      const db = tempDbPath()
      const imported = await runImport(db)
      expect(imported.code, imported.stderr).toBe(0)
      expect(imported.stderr).toContain('customers: 240 / 240')
      expect(imported.stdout).toMatch(/^imported Granite Peak Climbing from http:\/\/127\.0\.0\.1:\d+ into /)
      // The demo's history runs up to today: its counts are the source file's.
      const counts = rowCounts(source.db)
      const line = (name: string, count: number) =>
        new RegExp(`\\n {2}${name} {2,}${count.toLocaleString('en-US')}\\n`)
      expect(imported.stdout).toMatch(line('customers', counts.customers!))
      expect(imported.stdout).toMatch(line('check-ins', counts.check_ins!))
      expect(imported.stdout).toMatch(line('climbs', counts.climbs!))
      expect(imported.stdout).toMatch(line('invoices', counts.invoices!))
      expect(imported.stdout).toContain('Staff users have no password here')
      expect(pick(rowCounts(db))).toEqual(pick(rowCounts(source.db)))

      // Nobody can log in to the copy until an admin is made: then every staff user is there,
      // without a password.
      const admin = await runBelay([
        'create-admin',
        '--email',
        CHECKER.email,
        '--password',
        CHECKER.password,
        '--db',
        db,
      ])
      expect(admin.code, admin.stderr).toBe(0)
      const target = await startServer({ db })
      const refused = await request(target.base, 'POST', '/api/get-token/', {
        json: { username: DEMO_ADMIN, password: DEMO_PASSWORD },
      })
      expect(refused.status).toBe(400)
      const token = await getToken(target.base, CHECKER.email, CHECKER.password)

      const users = await all(target.base, token, '/api/users/')
      expect(users.filter((u) => u.email !== CHECKER.email).every((u) => u.has_password === false)).toBe(true)
      const sourceUsers = await all(source.base, sourceToken, '/api/users/')
      expect(
        comparable(
          '/api/users/',
          users.filter((u) => u.email !== CHECKER.email),
        ),
      ).toEqual(comparable('/api/users/', sourceUsers) as any)

      for (const path of ['/api/organization/', '/api/organization/quick-sales/']) {
        const [a, b] = await Promise.all([
          request(source.base, 'GET', path, { token: sourceToken }),
          request(target.base, 'GET', path, { token }),
        ])
        expect(b.status).toBe(200)
        expect(hostless(b.body)).toEqual(hostless(a.body) as any)
      }
      for (const path of [
        '/api/gyms/',
        '/api/tax-rates/',
        '/api/waiver-texts/',
        '/api/event-categories/',
        '/api/event-types/',
        '/api/memberships/',
        '/api/add-ons/',
        '/api/entry-passes/',
        '/api/voucher-packs/',
        '/api/discounts/',
        '/api/customer-memberships/',
        '/api/customer-entry-passes/',
        '/api/events/',
        '/api/reservations/',
        '/api/waitlist-entries/',
        '/api/invoices/',
        '/api/payments/',
      ])
        await expectSame(target, token, path)
      // The two longest lists: their first pages and their counts (the row counts above are all).
      await expectSame(target, token, '/api/check-ins/', 5)
      await expectSame(target, token, '/api/check-ins/?has_checked_out=true', 3)

      const eventTypes = await all(source.base, sourceToken, '/api/event-types/')
      for (const { id } of eventTypes)
        for (const sub of ['questions', 'schedules', 'schedule-exceptions'])
          await expectSame(target, token, `/api/event-types/${id}/${sub}/`)
      const gyms = await all(source.base, sourceToken, '/api/gyms/')
      for (const { id } of gyms) {
        await expectSame(target, token, `/api/gyms/${id}/grades/`)
        await expectSame(target, token, `/api/gyms/${id}/sections/`)
        await expectSame(target, token, `/api/gyms/${id}/climbs/?is_up=true`)
        await expectSame(target, token, `/api/gyms/${id}/climbs/?is_up=false`, 2)
      }

      // What is worked out from the copied rows: the members report, and the metrics once their
      // tables have caught up at the copy.
      for (const path of ['/api/members/', '/api/members/?include_billing_info=true']) {
        const [a, b] = await Promise.all([
          request(source.base, 'GET', path, { token: sourceToken }),
          request(target.base, 'GET', path, { token }),
        ])
        expect(b.status).toBe(200)
        expect(hostless(b.body), path).toEqual(hostless(a.body) as any)
      }
      const query = {
        interval: 'monthly',
        start_date: '2021-01-01',
        end_date: '2026-12-31',
        metrics: [
          { id: 'check_ins', type: 'check_in_count' },
          { id: 'unique', type: 'check_in_count', filters: { check_in_type: 'unique' } },
          { id: 'first_time', type: 'check_in_count', filters: { check_in_type: 'first_time' } },
          { id: 'revenue', type: 'revenue', filters: { product_type: 'all' } },
          { id: 'memberships', type: 'membership_count' },
          { id: 'new_customers', type: 'new_customer_count' },
          { id: 'retention', type: 'customer_retention' },
          { id: 'sold', type: 'product_sold_count', filters: { product_type: 'membership' } },
        ],
      }
      const [sourceMetrics, targetMetrics] = await Promise.all([
        request(source.base, 'POST', '/api/metrics/query/', { token: sourceToken, json: query }),
        request(target.base, 'POST', '/api/metrics/query/', { token, json: query }),
      ])
      expect(targetMetrics.status).toBe(200)
      expect(targetMetrics.body).toEqual(sourceMetrics.body)

      const customers = await expectSame(target, token, '/api/customers/')
      const subs = [
        'alerts',
        'documents',
        'credits',
        'emergency-contacts',
        'medical-notes',
        'relations',
        'event-vouchers',
      ]
      const checks = customers.flatMap(({ id }) => subs.map((sub) => `/api/customers/${id}/${sub}/`))
      for (let i = 0; i < checks.length; i += 16)
        await Promise.all(checks.slice(i, i + 16).map((path) => expectSame(target, token, path)))
    },
    IMPORT_TIMEOUT_MS * 2,
  )

  test(
    'killed midway, the same command carries on and finishes with nothing twice',
    async () => {
      const db = tempDbPath()
      const first = spawnBelay(['import', '--from', source.base, '--token', sourceToken, '--db', db])
      // Midway: once the customers' documents are coming in.
      for (let waited = 0; !/customer documents: [1-9]/.test(first.stderr); waited += 20) {
        if (!first.running || waited > IMPORT_TIMEOUT_MS) throw new Error(first.describe())
        await Bun.sleep(20)
      }
      first.kill('SIGKILL')
      await first.exited
      const partial = rowCounts(db)
      expect(partial.customers).toBe(240)
      expect(partial.check_ins).toBe(0)

      const again = await runImport(db)
      expect(again.code, again.stderr).toBe(0)
      expect(again.stderr.split('\n')[0]).toBe(`carrying on the import from ${source.base}`)
      expect(again.stderr).not.toContain('customers: 100 / 240')
      expect(again.stdout).toContain('(carried on from an earlier run)')
      const documents = rowCounts(source.db).customer_documents!
      expect(again.stdout).toMatch(new RegExp(`\\n {2}customer documents {2,}${documents}\\n`))
      expect(pick(rowCounts(db))).toEqual(pick(rowCounts(source.db)))

      // Run once more: everything is in, nothing is written.
      const third = await runImport(db)
      expect(third.code).toBe(0)
      expect(pick(rowCounts(db))).toEqual(pick(rowCounts(source.db)))
    },
    IMPORT_TIMEOUT_MS * 2,
  )

  test(
    'refuses a database that holds anything else, in one line, and writes nothing',
    async () => {
      const db = tempDbPath()
      const admin = await runBelay([
        'create-admin',
        '--email',
        CHECKER.email,
        '--password',
        CHECKER.password,
        '--db',
        db,
      ])
      expect(admin.code).toBe(0)
      const before = rowCounts(db)

      const refused = await runImport(db)
      expect(refused.code).toBe(1)
      expect(refused.stdout).toBe('')
      expect(refused.stderr).toBe(
        `belay: ${db} is not empty (it holds organization, gyms, staff_users): belay import copies into a new database file\n`,
      )
      expect(rowCounts(db)).toEqual(before)

      // An unfinished import from one source is not carried on from another.
      const begun = tempDbPath()
      const first = spawnBelay(['import', '--from', source.base, '--token', sourceToken, '--db', begun])
      for (let waited = 0; !/staff users: 14/.test(first.stderr); waited += 20) {
        if (!first.running || waited > IMPORT_TIMEOUT_MS) throw new Error(first.describe())
        await Bun.sleep(20)
      }
      first.kill('SIGKILL')
      await first.exited
      const other = source.base.replace('127.0.0.1', 'localhost')
      const elsewhere = await runImport(begun, other)
      expect(elsewhere.code).toBe(1)
      expect(elsewhere.stderr).toBe(
        `belay: ${begun} holds an import from ${source.base}, not ${other}: run it again with --from ${source.base}, or import into a new file\n`,
      )
    },
    IMPORT_TIMEOUT_MS,
  )
})
