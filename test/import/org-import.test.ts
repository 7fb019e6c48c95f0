/**
 * `belay import` against a source that is not a whole Belay box: a small server that offers an
 * organization, gyms over two pages (the second link naming a host this machine does not reach),
 * one staff user, and nothing else (404). A page that fails twice is asked again; a collection the
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

let failuresLeft = 0
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
    return { result, lines, gyms, users }
  } finally {
    await connection.close()
  }
}

describe('belay import from a source that offers little', () => {
  test('copies what is offered, asks a failed page again, and reports the rest as not offered', async () => {
    failuresLeft = 2
    const { result, lines, gyms, users } = await run()

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

    // The next link's host is the source's public one: its path was asked of --from, three times.
    expect(asked.filter((path) => path === '/api/gyms/?page=2&page_size=100')).toHaveLength(3)
    expect(lines).toContain('gyms: 3 / 3')
    expect(lines).toContain('customers: not offered by the source (404)')

    const byName = Object.fromEntries(result.collections.map((c) => [c.name, c]))
    expect(byName.gyms).toEqual({ name: 'gyms', state: 'done', records: 3 })
    expect(byName['staff users']).toEqual({ name: 'staff users', state: 'done', records: 1 })
    expect(byName.customers).toEqual({ name: 'customers', state: 'missing', records: 0 })
    expect(byName.climbs).toEqual({ name: 'climbs', state: 'done', records: 0 })
    expect(result.organization).toBe('Elsewhere Climbing')

    const summary = importSummary(result, 'copy.sqlite3', 1.25)
    expect(summary.split('\n')[0]).toBe(
      `imported Elsewhere Climbing from ${base()} into copy.sqlite3 in 1.3 s: 5 records`,
    )
    expect(summary).toContain('\n  customers                    not offered by the source (404)\n')
    expect(summary).toContain('\n  gyms                         3\n')
    expect(summary).toContain('Staff users have no password here')
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
