import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app.ts'
import { DEMO_ADMIN_EMAIL, seedDemoData } from '../../src/demo/index.ts'
import { openDatabase, type Connection } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'
import { openReader, type Reader } from '../../src/db/reader.ts'
import type { Db } from '../../src/db/connection.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { checkedApp, depsFor, START } from '../helpers/app.ts'
import { makeToken } from '../helpers/factories.ts'

/*
 * The lists that read through `deps.reader` (members report, customers list and search, check-ins
 * list) answer byte for byte the same whether the reader is the worker's connection (as in
 * `belay serve`) or the serving connection itself (as in the other tests, on ':memory:').
 */

let dir: string
let connection: Connection
let reader: Reader
let token: string
let onMainApp: ReturnType<typeof appWith>
let onWorkerApp: ReturnType<typeof appWith>
const clock = fixedClock(START)

const appWith = (readerDb: Db) => checkedApp(createApp(depsFor(connection, clock, { reader: readerDb })))

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'belay-reader-responses-'))
  const path = join(dir, 'belay.sqlite3')
  connection = openDatabase(path)
  await migrateToLatest(connection.db)
  await seedDemoData(connection.db, { size: 'small', seed: 3, now: new Date(START) })
  // A short history, some of it checked out, at every gym.
  connection.sqlite.run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120),
       t(i, at) AS (SELECT i, strftime('%Y-%m-%dT%H:%M:%fZ', '${START}', (-37 * i) || ' minutes') FROM n)
     INSERT INTO check_ins (customer_id, gym_id, entry_method, local_date, check_out_at, created_at, updated_at)
     SELECT 1 + i % (SELECT COUNT(*) FROM customers), 1 + i % (SELECT COUNT(*) FROM gyms),
            CASE WHEN i % 4 = 0 THEN 'ENT' ELSE 'MEM' END, date(at),
            CASE WHEN i % 3 = 0 THEN at END, at, at
     FROM t`,
  )
  reader = await openReader(path, connection.db)
  const admin = await connection.db
    .selectFrom('staff_users')
    .selectAll()
    .where('email', '=', DEMO_ADMIN_EMAIL)
    .executeTakeFirstOrThrow()
  token = await makeToken(connection.db, admin)
  onMainApp = appWith(connection.db)
  onWorkerApp = appWith(reader.db)
})

afterAll(async () => {
  await reader?.close()
  await connection?.close()
  rmSync(dir, { recursive: true, force: true })
})

const paths = [
  '/api/members/',
  '/api/members/?include_billing_info=true',
  '/api/members/?status_in=frozen,failed&is_group=true',
  '/api/members/?membership_id=999999',
  '/api/members/?start_date_min=nope',
  '/api/customers/',
  '/api/customers/?search=an&page=2',
  '/api/customers/?is_active=false&home_location_id=1',
  '/api/check-ins/',
  '/api/check-ins/?entry_method=ENT&has_checked_out=true',
  '/api/check-ins/?check_in_date_min=2026-11-20&location_id=2&page_size=5',
]

describe('lists read through the reader', () => {
  test.each(paths)('GET %s is byte-identical on the worker and on the main connection', async (path) => {
    const get = async (app: ReturnType<typeof appWith>) => {
      const response = await app.handle(
        new Request(`http://localhost${path}`, { headers: { authorization: `Token ${token}` } }),
      )
      return { status: response.status, body: await response.text() }
    }
    const onMain = await get(onMainApp)
    const onWorker = await get(onWorkerApp)
    expect(onWorker.status).toBe(onMain.status)
    expect(onWorker.body).toBe(onMain.body)
    expect(onMain.body.length).toBeGreaterThan(2)
  })

  test('the lists are not empty, so the comparisons above compare something', async () => {
    const app = onWorkerApp
    for (const path of ['/api/members/', '/api/customers/', '/api/check-ins/?has_checked_out=true']) {
      const response = await app.handle(
        new Request(`http://localhost${path}`, { headers: { authorization: `Token ${token}` } }),
      )
      const body = (await response.json()) as any
      expect(response.status).toBe(200)
      expect(Array.isArray(body) ? body.length : body.results.length).toBeGreaterThan(0)
    }
  })
})
