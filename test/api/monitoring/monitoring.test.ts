import { beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REQUEST_DURATION_BUCKETS } from '../../../src/http/monitoring.ts'
import { withRequestLog } from '../../../src/http/request-log.ts'
import { RouteIndex } from '../../../src/http/route-index.ts'
import { silentLogger } from '../../../src/lib/log.ts'
import { makeTestApp, START } from '../../helpers/app.ts'
import { forbidden, invalidToken } from '../../helpers/bodies.ts'
import { makeAlert, makeCustomer } from '../../helpers/customer-factories.ts'
import {
  barcodePath,
  makeDoorCustomer,
  makeMembershipFor,
  openDoorPath,
} from '../../helpers/door-factories.ts'
import { seedBasics } from '../../helpers/factories.ts'
import { FakeSite, makeConflict } from '../../helpers/fake-site.ts'
import { expectUnauthenticated, unknownToken, useSeededApp } from '../../helpers/seeded.ts'
import { makePendingEvent, makeWebhook } from '../../helpers/webhook-factories.ts'

/*
 * GET /metrics: Prometheus's text format for an organization admin. Requests are sent through the
 * server's own wrapper (the log line and the request metrics, wired as serve.ts wires them), so they
 * are counted; the scrapes themselves go straight to the app and count nothing.
 */

const t = useSeededApp()

/** The test app behind the server's per-request wrapper. */
function served() {
  const handle = withRequestLog(
    silentLogger,
    (request) => t.app.handle(request),
    t.deps.monitoring.requestRecorder(new RouteIndex(() => t.app.routes)),
  )
  return (method: string, path: string, token = t.seed.staffToken) =>
    handle(new Request(`http://localhost${path}`, { method, headers: { authorization: `Token ${token}` } }))
}

async function scrape(): Promise<string> {
  const res = await t.request('GET', '/metrics', { token: t.seed.adminToken })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  return res.body
}

/** The sample lines of one metric (its histogram's _bucket, _sum and _count too), in order. */
const samplesOf = (text: string, name: string) =>
  text
    .split('\n')
    .filter(
      (line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `) || line.startsWith(`${name}_`),
    )

describe('GET /metrics', () => {
  test('401 without a token or with an unknown one; 403 for staff who are not admins', async () => {
    expectUnauthenticated(await t.request('GET', '/metrics'))
    expectUnauthenticated(await t.request('GET', '/metrics', { token: unknownToken }), invalidToken)
    const res = await t.request('GET', '/metrics', { token: t.seed.staffToken })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(forbidden)
  })

  test('every metric is described with HELP and TYPE, in this order; no site gauges on a box without a hub', async () => {
    const described = (await scrape())
      .split('\n')
      .filter((line) => line.startsWith('# TYPE '))
      .map((line) => line.slice('# TYPE '.length))
    expect(described).toEqual([
      'belay_http_requests_total counter',
      'belay_http_request_duration_seconds histogram',
      'belay_webhook_outbox_pending gauge',
      'belay_webhook_outbox_oldest_age_seconds gauge',
      'belay_wal_size_bytes gauge',
      'belay_disk_free_bytes gauge',
      'belay_login_running gauge',
      'belay_login_queue_waiting gauge',
      'belay_snapshot_age_seconds gauge',
      'belay_process_resident_memory_bytes gauge',
      'belay_uptime_seconds gauge',
      'belay_build_info gauge',
      'belay_door_decisions_total counter',
    ])
  })

  test('requests are counted by method, route template and status; unknown paths as unmatched', async () => {
    const customer = await makeCustomer(t.db)
    const send = served()
    expect((await send('GET', `/api/customers/${customer.id}/`)).status).toBe(200)
    expect((await send('GET', `/api/customers/${customer.id}`)).status).toBe(200)
    expect((await send('GET', '/api/customers/999999/')).status).toBe(404)
    expect((await send('DELETE', '/api/gyms/')).status).toBe(405)
    expect((await send('GET', '/wp-login.php?id=1')).status).toBe(404)
    expect((await send('GET', '/api/customers/', unknownToken)).status).toBe(401)
    expect(samplesOf(await scrape(), 'belay_http_requests_total')).toEqual([
      'belay_http_requests_total{method="GET",route="/api/customers/:customer_id/",status="200"} 2',
      'belay_http_requests_total{method="GET",route="/api/customers/:customer_id/",status="404"} 1',
      'belay_http_requests_total{method="DELETE",route="/api/gyms/",status="405"} 1',
      'belay_http_requests_total{method="GET",route="unmatched",status="404"} 1',
      'belay_http_requests_total{method="GET",route="/api/customers/",status="401"} 1',
    ])
  })

  test("each route's duration histogram: every bucket, cumulative, +Inf equal to _count", async () => {
    const customer = await makeCustomer(t.db)
    const send = served()
    for (let i = 0; i < 3; i++) await send('GET', `/api/customers/${customer.id}/`)
    await send('GET', '/api/gyms/')
    const lines = samplesOf(await scrape(), 'belay_http_request_duration_seconds')
    const labels = '{method="GET",route="/api/customers/:customer_id/"'
    const route = lines.filter((line) => line.includes(labels))
    const bounds = [...REQUEST_DURATION_BUCKETS.map(String), '+Inf']
    expect(route.map((line) => line.replace(/ [^ ]+$/, ''))).toEqual([
      ...bounds.map((le) => `belay_http_request_duration_seconds_bucket${labels},le="${le}"}`),
      `belay_http_request_duration_seconds_sum${labels}}`,
      `belay_http_request_duration_seconds_count${labels}}`,
    ])
    const value = (line: string) => Number(line.slice(line.lastIndexOf(' ') + 1))
    const cumulative = route.slice(0, bounds.length).map(value)
    expect(cumulative).toEqual([...cumulative].sort((a, b) => a - b))
    expect(cumulative.at(-1)).toBe(3)
    expect(value(route.at(-1)!)).toBe(3)
    expect(value(route.at(-2)!)).toBeGreaterThan(0)
    expect(lines.filter((line) => line.includes('route="/api/gyms/"')).at(-1)).toBe(
      'belay_http_request_duration_seconds_count{method="GET",route="/api/gyms/"} 1',
    )
  })

  test("door scans are counted by endpoint and outcome, in the barcode endpoint's words", async () => {
    await makeWebhook(t.db, { webhook_url: 'http://127.0.0.1:9/hook' })
    const member = await makeDoorCustomer(t.db, 'LYNN1')
    await makeMembershipFor(t.db, member.id)
    await makeDoorCustomer(t.db, 'NOPASS1', { email: 'nopass@example.com' })
    const held = await makeDoorCustomer(t.db, 'HELD1', { email: 'held@example.com' })
    await makeMembershipFor(t.db, held.id)
    await makeAlert(t.db, held.id, { alert_text: 'See the desk', prevents_check_in: 1 })
    const scans: Array<[string, number]> = [
      [openDoorPath('LYNN1'), 200],
      [openDoorPath('LYNN1'), 200],
      [openDoorPath('NOBODY'), 404],
      [openDoorPath('HELD1'), 400],
      [barcodePath('NOPASS1'), 400],
      [barcodePath('LYNN1'), 400],
    ]
    for (const [path, status] of scans) {
      expect((await t.request('POST', path, { token: t.seed.staffToken })).status).toBe(status)
    }
    expect(samplesOf(await scrape(), 'belay_door_decisions_total')).toEqual([
      'belay_door_decisions_total{endpoint="open-door-check-in",outcome="admitted"} 1',
      'belay_door_decisions_total{endpoint="open-door-check-in",outcome="duplicate"} 1',
      'belay_door_decisions_total{endpoint="open-door-check-in",outcome="customer_not_found"} 1',
      'belay_door_decisions_total{endpoint="open-door-check-in",outcome="check_in_alerts"} 1',
      'belay_door_decisions_total{endpoint="barcode-check-in",outcome="no_entry_method"} 1',
      'belay_door_decisions_total{endpoint="barcode-check-in",outcome="duplicate"} 1',
    ])
  })

  test("the webhook outbox: pending events and the oldest one's age, 0 when none waits", async () => {
    expect(samplesOf(await scrape(), 'belay_webhook_outbox')).toEqual([
      'belay_webhook_outbox_pending 0',
      'belay_webhook_outbox_oldest_age_seconds 0',
    ])
    for (const secondsAgo of [90, 30])
      await makePendingEvent(t.db, new Date(Date.parse(START) - secondsAgo * 1000).toISOString())
    expect(samplesOf(await scrape(), 'belay_webhook_outbox')).toEqual([
      'belay_webhook_outbox_pending 2',
      'belay_webhook_outbox_oldest_age_seconds 90',
    ])
  })

  test('the login gate: verifications running and logins waiting', async () => {
    let finish!: () => void
    const held = new Promise<void>((resolve) => (finish = resolve))
    const logins = [0, 1, 2].map(() => t.deps.loginGate.run(() => held))
    expect(samplesOf(await scrape(), 'belay_login')).toEqual([
      'belay_login_running 1',
      'belay_login_queue_waiting 2',
    ])
    finish()
    await Promise.all(logins)
    expect(samplesOf(await scrape(), 'belay_login')).toEqual([
      'belay_login_running 0',
      'belay_login_queue_waiting 0',
    ])
  })

  test('the version as a label; memory and uptime as numbers; no WAL and no disk for an in-memory database', async () => {
    const text = await scrape()
    expect(samplesOf(text, 'belay_build_info')).toEqual(['belay_build_info{version="test"} 1'])
    expect(samplesOf(text, 'belay_wal_size_bytes')).toEqual(['belay_wal_size_bytes 0'])
    expect(samplesOf(text, 'belay_disk_free_bytes')).toEqual([])
    expect(samplesOf(text, 'belay_snapshot_age_seconds')).toEqual([])
    expect(samplesOf(text, 'belay_process_resident_memory_bytes')).toEqual([
      expect.stringMatching(/^belay_process_resident_memory_bytes [1-9]\d*$/),
    ])
    expect(samplesOf(text, 'belay_uptime_seconds')).toEqual([
      expect.stringMatching(/^belay_uptime_seconds \d+(\.\d+)?$/),
    ])
  })
})

describe('GET /metrics on a site', () => {
  const site = new FakeSite()
  const s = useSeededApp({ site })
  beforeEach(() => site.reset())
  const sitesSamples = async () =>
    samplesOf((await s.request('GET', '/metrics', { token: s.seed.adminToken })).body, 'belay_sites')

  test('the link to the hub, what waits to be sent, how far the stream is applied, and the conflicts', async () => {
    const kept = await makeCustomer(s.db, { barcode: '1234' })
    const lost = await makeCustomer(s.db)
    await makeConflict(s.db, { kept: kept.id, lost: lost.id })
    site.local = { ...site.local, unsentRows: 3, oldestUnsentAgeSeconds: 12 }
    expect(await sitesSamples()).toEqual([
      'belay_sites_hub_reachable 1',
      'belay_sites_unsent_changes 3',
      'belay_sites_oldest_unsent_seconds 12',
      'belay_sites_applied_stream_sequence 40',
      'belay_sites_unapplied_changes 2',
      'belay_sites_conflicts 1',
    ])
  })

  test('cut off: unreachable, nothing unsent reads 0, and how far behind is left out', async () => {
    site.cutOff('2026-11-22T15:00:00.000Z')
    expect(await sitesSamples()).toEqual([
      'belay_sites_hub_reachable 0',
      'belay_sites_unsent_changes 0',
      'belay_sites_oldest_unsent_seconds 0',
      'belay_sites_applied_stream_sequence 40',
      'belay_sites_conflicts 0',
    ])
  })
})

describe('GET /metrics on a database file', () => {
  test("the WAL's size, and the free space in the database's folder", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'belay-metrics-'))
    const dbPath = join(folder, 'gym.sqlite3')
    writeFileSync(`${dbPath}-wal`, Buffer.alloc(4096 + 32))
    const app = await makeTestApp({ dbPath })
    try {
      const seed = await seedBasics(app.db)
      const res = await app.request('GET', '/metrics', { token: seed.adminToken })
      expect(samplesOf(res.body, 'belay_wal_size_bytes')).toEqual(['belay_wal_size_bytes 4128'])
      expect(samplesOf(res.body, 'belay_disk_free_bytes')).toEqual([
        expect.stringMatching(/^belay_disk_free_bytes [1-9]\d*$/),
      ])
    } finally {
      await app.close()
      rmSync(folder, { recursive: true, force: true })
    }
  })

  test("the newest snapshot's age in the backup folder, whatever made it; none before the first", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'belay-metrics-snapshots-'))
    const snapshots = { folder, intervalSeconds: 86_400, since: new Date(START) }
    const app = await makeTestApp({ snapshots })
    try {
      const seed = await seedBasics(app.db)
      const age = async () =>
        samplesOf(
          (await app.request('GET', '/metrics', { token: seed.adminToken })).body,
          'belay_snapshot_age_seconds',
        )
      expect(await age()).toEqual([])
      writeFileSync(join(folder, 'belay-20261121-020000Z.sqlite3'), '')
      writeFileSync(join(folder, 'belay-20261122-150000Z-manual.sqlite3'), '')
      // START is 2026-11-22T15:04:05.123Z: 245 s after the manual one.
      expect(await age()).toEqual(['belay_snapshot_age_seconds 245'])
    } finally {
      await app.close()
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
