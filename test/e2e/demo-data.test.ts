/**
 * A gym owner trying Belay out: seed the small demo set into a new file with the executable, serve
 * it, and browse customers, memberships and the members report over HTTP.
 */
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { getToken, removeTempDirs, request, runBelay, startServer, stopAll, tempDbPath } from './helpers.ts'

afterEach(stopAll)
afterAll(removeTempDirs)

const DEMO_ADMIN = 'admin@granitepeak.example'
const DEMO_PASSWORD = 'granite-peak-demo'

describe('belay seed-demo', () => {
  test('seeds an empty file, prints the login, and the server then serves the demo gym', async () => {
    const db = tempDbPath()
    const seeded = await runBelay(['seed-demo', '--size', 'small', '--seed', '3', '--db', db])
    expect(seeded.code).toBe(0)
    expect(seeded.stdout).toContain(`admin login: ${DEMO_ADMIN} / ${DEMO_PASSWORD}`)

    const server = await startServer({ db })
    const token = await getToken(server.base, DEMO_ADMIN, DEMO_PASSWORD)
    const customers = await request(server.base, 'GET', '/api/customers/?page_size=1', { token })
    expect(customers.status).toBe(200)
    expect(customers.body.count).toBe(240)

    const members = await request(server.base, 'GET', '/api/members/', { token })
    expect(members.status).toBe(200)
    expect(Array.isArray(members.body)).toBe(true)
    expect(members.body.length).toBeGreaterThan(0)
    const statuses = new Set<string>(members.body.map((row: { status: string }) => row.status))
    for (const status of statuses) expect(['ACT', 'IPP', 'PPR', 'FRZ', 'FPR', 'PAF', 'FPF']).toContain(status)

    const frozen = await request(server.base, 'GET', '/api/members/?status_in=frozen', { token })
    expect(frozen.body.length).toBeGreaterThan(0)
    expect(frozen.body.every((row: { status: string }) => row.status === 'FRZ' || row.status === 'FPR')).toBe(
      true,
    )
  })

  test('refuses a database that already has customers, and changes nothing', async () => {
    const db = tempDbPath()
    expect((await runBelay(['seed-demo', '--size', 'small', '--db', db])).code).toBe(0)
    const again = await runBelay(['seed-demo', '--size', 'small', '--db', db])
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('demo data goes only into an empty one')

    const server = await startServer({ db })
    const token = await getToken(server.base, DEMO_ADMIN, DEMO_PASSWORD)
    const customers = await request(server.base, 'GET', '/api/customers/?page_size=1', { token })
    expect(customers.body.count).toBe(240)
  })
})

describe('the membership rollup', () => {
  test('serve rolls the demo history at its first start; belay rollup rebuild rolls it again to the same counts', async () => {
    const db = tempDbPath()
    expect((await runBelay(['seed-demo', '--size', 'small', '--db', db])).code).toBe(0)
    const server = await startServer({ db })
    const token = await getToken(server.base, DEMO_ADMIN, DEMO_PASSWORD)
    const counts = async (base: string) => {
      const body = {
        interval: 'monthly',
        start_date: '2026-01-01',
        end_date: '2026-10-31',
        metrics: ['memberships', 'members', 'add_ons'].map((count_by) => ({
          id: count_by,
          type: 'membership_count',
          filters: { count_by, value_in_period: 'max' },
        })),
      }
      const res = await request(base, 'POST', '/api/metrics/query/', { token, json: body })
      expect(res.status).toBe(200)
      return res.body.series.map((series: { values: number[] }) => series.values)
    }
    const served = await counts(server.base)
    expect(served.flat().some((value: number) => value > 0)).toBe(true)
    const names = await request(server.base, 'GET', '/api/metrics/membership-add-on-names/', { token })
    expect(names.status).toBe(200)
    expect(names.body).toEqual([...names.body].sort())
    expect(server.process.logs().some((line) => line.msg === 'membership rollup current')).toBe(true)
    await server.stop()

    const rebuilt = await runBelay(['rollup', 'rebuild', '--db', db])
    expect(rebuilt.code).toBe(0)
    expect(rebuilt.stderr).toMatch(/^rolled through \d{4}-\d{2}-\d{2} \(\d+ of \d+ days\)$/m)
    expect(rebuilt.stdout).toMatch(/^rebuilt the membership rollup through \d{4}-\d{2}-\d{2} in [\d.]+ s$/m)
    const again = await startServer({ db })
    expect(await counts(again.base)).toEqual(served)
  })
})
