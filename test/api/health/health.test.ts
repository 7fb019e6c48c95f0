import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { snapshotName } from '../../../src/core/backup/snapshots.ts'
import { createApp } from '../../../src/app.ts'
import { openDatabase } from '../../../src/db/connection.ts'
import { migrateToLatest } from '../../../src/db/migrator.ts'
import { durableWalOf } from '../../../src/db/wal-sync.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import { checkedApp, depsFor, ORIGIN, START } from '../../helpers/app.ts'
import { seedBasics } from '../../helpers/factories.ts'
import { FakeSite } from '../../helpers/fake-site.ts'
import { useTestApp } from '../../helpers/seeded.ts'
import { makePendingEvent } from '../../helpers/webhook-factories.ts'

const t = useTestApp()

/** What every check says on a healthy ':memory:' test app (no folder, so no disk check). */
const healthyChecks = {
  database_writable: 'ok',
  disk: 'not_applicable',
  disk_free_bytes: null,
  disk_min_free_bytes: 100 * 1024 * 1024,
  outbox: 'ok',
  outbox_pending: 0,
  outbox_oldest_age_seconds: null,
  outbox_max_age_seconds: 3600,
  snapshot: 'not_applicable',
  snapshot_age_seconds: null,
  snapshot_max_age_seconds: null,
  hub: 'not_applicable',
  hub_reachable: null,
  hub_unsent_changes: null,
  hub_oldest_unsent_age_seconds: null,
  hub_max_unsent_age_seconds: null,
  hub_applying_stopped: null,
}

/** The 503 body when the checks in `failing` fail: `checks` says how, the rest are as healthy. */
const unhealthy = (checks: Record<string, unknown>, failing: string[]) => ({
  status: 'unavailable',
  database: 'ok',
  version: 'test',
  checks: { ...healthyChecks, ...checks },
  failing,
})

describe('/healthz', () => {
  test('answers 200 without a token', async () => {
    const res = await t.request('GET', '/healthz')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(res.body).toEqual({
      status: 'ok',
      database: 'ok',
      version: 'test',
      checks: healthyChecks,
      failing: [],
    })
  })

  test('ignores an invalid token', async () => {
    await seedBasics(t.db)
    const res = await t.request('GET', '/healthz', { token: 'f'.repeat(40) })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      status: 'ok',
      database: 'ok',
      version: 'test',
      checks: healthyChecks,
      failing: [],
    })
  })

  test('answers 503 when the database cannot be read', async () => {
    await t.close()
    const res = await t.request('GET', '/healthz')
    expect(res.status).toBe(503)
    expect(res.body).toEqual({ status: 'unavailable', database: 'unreachable', version: 'test' })
  })

  test('a young pending webhook event is counted and still healthy', async () => {
    await makePendingEvent(t.db, new Date(Date.parse(START) - 60_000).toISOString())
    const res = await t.request('GET', '/healthz')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      status: 'ok',
      database: 'ok',
      version: 'test',
      checks: { ...healthyChecks, outbox_pending: 1, outbox_oldest_age_seconds: 60 },
      failing: [],
    })
  })

  test('answers 503 naming the outbox when a pending event is older than an hour', async () => {
    await makePendingEvent(t.db, new Date(Date.parse(START) - 3601_000).toISOString())
    await makePendingEvent(t.db, START)
    const res = await t.request('GET', '/healthz')
    expect(res.status).toBe(503)
    expect(res.body).toEqual(
      unhealthy({ outbox: 'failing', outbox_pending: 2, outbox_oldest_age_seconds: 3601 }, ['outbox']),
    )
  })

  test('answers 503 naming database_writable when the database only reads', async () => {
    await sql`PRAGMA query_only = ON`.execute(t.db)
    const res = await t.request('GET', '/healthz')
    expect(res.status).toBe(503)
    expect(res.body).toEqual(unhealthy({ database_writable: 'failing' }, ['database_writable']))
  })
})

describe('/healthz disk check', () => {
  const dbPath = join(tmpdir(), 'belay-health.sqlite3')

  describe('with room to spare', () => {
    const d = useTestApp({ dbPath, healthLimits: { minFreeBytes: 1 } })
    test('reports the free bytes of the database folder', async () => {
      const res = await d.request('GET', '/healthz')
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        status: 'ok',
        database: 'ok',
        version: 'test',
        checks: { ...healthyChecks, disk: 'ok', disk_free_bytes: expect.any(Number), disk_min_free_bytes: 1 },
        failing: [],
      })
    })
  })

  describe('below the threshold', () => {
    const d = useTestApp({ dbPath, healthLimits: { minFreeBytes: Number.MAX_SAFE_INTEGER } })
    test('answers 503 naming disk', async () => {
      const res = await d.request('GET', '/healthz')
      expect(res.status).toBe(503)
      expect(res.body).toEqual(
        unhealthy(
          {
            disk: 'failing',
            disk_free_bytes: expect.any(Number),
            disk_min_free_bytes: Number.MAX_SAFE_INTEGER,
          },
          ['disk'],
        ),
      )
    })
  })
})

describe('/healthz snapshot check', () => {
  const folder = mkdtempSync(join(tmpdir(), 'belay-health-snapshots-'))
  afterAll(() => rmSync(folder, { recursive: true, force: true }))
  const day = 86_400
  /** A snapshot file as serve's schedule names it, taken `secondsAgo` before the test clock's START. */
  const snapshotTaken = (secondsAgo: number) => {
    const at = new Date(Date.parse(START) - secondsAgo * 1000)
    writeFileSync(join(folder, snapshotName('scheduled', at)), 'a copy')
  }

  describe('with snapshots a day apart, none taken yet', () => {
    const d = useTestApp({
      snapshots: { folder: join(folder, 'none'), intervalSeconds: day, since: new Date(START) },
    })
    test('is ok while serve has run less than two intervals', async () => {
      const res = await d.request('GET', '/healthz')
      expect(res.status).toBe(200)
      expect(res.body.checks).toEqual({
        ...healthyChecks,
        snapshot: 'ok',
        snapshot_age_seconds: null,
        snapshot_max_age_seconds: 2 * day,
      })
    })
    test('answers 503 naming snapshot once serve has run two intervals without one', async () => {
      d.clock.advance((2 * day + 1) * 1000)
      const res = await d.request('GET', '/healthz')
      expect(res.status).toBe(503)
      expect(res.body).toEqual(
        unhealthy(
          {
            snapshot: 'failing',
            snapshot_age_seconds: null,
            snapshot_max_age_seconds: 2 * day,
          },
          ['snapshot'],
        ),
      )
    })
  })

  describe('with snapshots a day apart', () => {
    const d = useTestApp({
      snapshots: { folder, intervalSeconds: day, since: new Date(Date.parse(START) - 30 * day * 1000) },
    })
    test("reports the newest snapshot's age", async () => {
      snapshotTaken(3 * day)
      snapshotTaken(day + 5)
      const res = await d.request('GET', '/healthz')
      expect(res.status).toBe(200)
      expect(res.body.checks).toEqual({
        ...healthyChecks,
        snapshot: 'ok',
        snapshot_age_seconds: day + 5,
        snapshot_max_age_seconds: 2 * day,
      })
    })
    test('answers 503 naming snapshot when the newest is older than two intervals', async () => {
      d.clock.advance(day * 1000)
      const res = await d.request('GET', '/healthz')
      expect(res.status).toBe(503)
      expect(res.body).toEqual(
        unhealthy(
          {
            snapshot: 'failing',
            snapshot_age_seconds: 2 * day + 5,
            snapshot_max_age_seconds: 2 * day,
          },
          ['snapshot'],
        ),
      )
    })
  })
})

describe('/healthz hub check, on a site', () => {
  const site = new FakeSite()
  const d = useTestApp({ site, healthLimits: { maxOutboxAgeSeconds: 600 } })
  beforeEach(() => site.reset())
  const linked = {
    ...healthyChecks,
    outbox_max_age_seconds: 600,
    hub: 'ok',
    hub_reachable: true,
    hub_unsent_changes: 0,
    hub_oldest_unsent_age_seconds: null,
    hub_max_unsent_age_seconds: 600,
    hub_applying_stopped: null,
  }

  test('is ok with nothing waiting to be sent', async () => {
    const res = await d.request('GET', '/healthz')
    expect(res.status).toBe(200)
    expect(res.body.checks).toEqual(linked)
  })

  test('a cut link alone is ok: the box keeps working, its changes waiting within the limit', async () => {
    site.cutOff('2026-11-22T15:00:00.000Z')
    site.local = { ...site.local, unsentRows: 4, oldestUnsentAgeSeconds: 600 }
    const res = await d.request('GET', '/healthz')
    expect(res.status).toBe(200)
    expect(res.body.checks).toEqual({
      ...linked,
      hub_reachable: false,
      hub_unsent_changes: 4,
      hub_oldest_unsent_age_seconds: 600,
    })
  })

  test('answers 503 naming hub once a change has waited longer than the limit', async () => {
    site.cutOff('2026-11-22T14:00:00.000Z')
    site.local = { ...site.local, unsentRows: 4, oldestUnsentAgeSeconds: 601 }
    const res = await d.request('GET', '/healthz')
    expect(res.status).toBe(503)
    expect(res.body).toEqual({
      status: 'unavailable',
      database: 'ok',
      version: 'test',
      checks: {
        ...linked,
        hub: 'failing',
        hub_reachable: false,
        hub_unsent_changes: 4,
        hub_oldest_unsent_age_seconds: 601,
      },
      failing: ['hub'],
    })
  })

  test('answers 503 naming hub once applying stopped, saying why', async () => {
    const why = 'a change from site south needs schema level 31; this box is at 30: upgrade it'
    site.local = { ...site.local, applyingStopped: why }
    const res = await d.request('GET', '/healthz')
    expect(res.status).toBe(503)
    expect(res.body.checks).toEqual({ ...linked, hub: 'failing', hub_applying_stopped: why })
    expect(res.body.failing).toEqual(['hub'])
  })
})

describe('/healthz after an fdatasync of the WAL failed', () => {
  test('database_writable fails until a restart, as every write does', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'belay-health-wal-'))
    const connection = openDatabase(join(folder, 'gym.sqlite3'))
    try {
      await migrateToLatest(connection.db)
      const seed = await seedBasics(connection.db)
      const app = checkedApp(
        createApp(depsFor(connection, fixedClock(START), { healthLimits: { minFreeBytes: 1 } })),
      )
      const get = async (path: string, init: RequestInit = {}) => {
        const response = await app.handle(new Request(`${ORIGIN}${path}`, init))
        return { status: response.status, body: await response.json() }
      }
      expect((await get('/healthz')).status).toBe(200)
      // The disk stops taking writes back: the next commit's fdatasync fails (EIO).
      const walSync = durableWalOf(connection.sqlite)!.walSync as unknown as {
        fsync: (fd: number, done: (error: Error | null) => void) => void
      }
      walSync.fsync = (_fd, done) =>
        done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }))
      const write = await get('/api/gyms/', {
        method: 'POST',
        headers: { authorization: `Token ${seed.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Annex', time_zone: 'UTC' }),
      })
      expect(write.status).toBe(503)
      const health = await get('/healthz')
      expect(health.status).toBe(503)
      expect(health.body).toMatchObject({
        status: 'unavailable',
        checks: { database_writable: 'failing' },
        failing: ['database_writable'],
      })
    } finally {
      await connection.close()
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
