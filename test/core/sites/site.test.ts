import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'bun:test'
import { openHub, type Hub } from '../../../src/core/sites/hub.ts'
import { startSite, type RunningSite } from '../../../src/core/sites/site.ts'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'
import { makeDoorCustomer, makeMembershipFor } from '../../helpers/door-factories.ts'
import { seedBasics, type Seed } from '../../helpers/factories.ts'
import { startNatsServer, type NatsServer } from '../../helpers/nats.ts'

/*
 * Two boxes in process, each a site of a real nats-server hub: what one records reaches the other
 * through the hub's stream. (The built executables, proxies and cuts are test/e2e/sites.test.ts.)
 */

interface Box {
  t: TestApp
  hub: Hub
  running: RunningSite
}

let server: NatsServer
let organizations = 0
let seed: Seed
let a: Box
let b: Box

beforeAll(async () => {
  server = await startNatsServer()
})
afterAll(() => server.dispose())

async function siteOf(t: TestApp, site: string, organization: string): Promise<Box> {
  const hub = openHub({ servers: [server.url], site, organization, reconnectWaitMs: 50, timeoutMs: 2000 })
  await hub.ready()
  return { t, hub, running: await startSite(t.deps, hub, { site, organization }) }
}

beforeEach(async () => {
  organizations += 1
  const organization = `crag-${organizations}`
  const first = await makeTestApp()
  seed = await seedBasics(first.db)
  const second = await makeTestApp({ databaseImage: first.deps.sqlite.serialize() })
  a = await siteOf(first, 'alpha', organization)
  b = await siteOf(second, 'bravo', organization)
})

afterEach(async () => {
  for (const box of [a, b]) {
    await box.running.stop()
    await box.hub.close()
    await box.t.close()
  }
})

/** What `read` answers once it equals `expected`, or its last answer after `ms`. */
async function settled<T>(read: () => T, expected: T, ms = 5_000): Promise<T> {
  const until = Date.now() + ms
  let value = read()
  while (!Bun.deepEquals(value, expected) && Date.now() < until) {
    await Bun.sleep(20)
    value = read()
  }
  return value
}

const rows = (box: Box, sql: string) => box.t.deps.sqlite.query(sql).all()

test('the hub numbers the sites in the order they joined', () => {
  expect([a.running.site.siteNumber, b.running.site.siteNumber]).toEqual([1, 2])
})

test("a member signed up at one site is admitted at the other's door; its check-in comes back", async () => {
  const customer = await makeDoorCustomer(a.t.db, 'LYNN1')
  await makeMembershipFor(a.t.db, customer.id)
  const barcodes = "SELECT barcode FROM customers WHERE barcode = 'LYNN1'"
  expect(await settled(() => rows(b, barcodes), [{ barcode: 'LYNN1' }])).toEqual([{ barcode: 'LYNN1' }])

  const scan = await b.t.request('POST', '/api/gym-endpoints/barcode-check-in/LYNN1/', {
    token: seed.staffToken,
  })
  expect(scan.status).toBe(200)
  const checkIns = 'SELECT id, customer_id FROM check_ins'
  const expected = [{ id: scan.body.id, customer_id: customer.id }]
  expect(await settled(() => rows(a, checkIns), expected)).toEqual(expected)

  // Everything sent, everything applied, nothing sent back.
  await settled(() => [a.running.status().unsentRows, b.running.status().unsentRows], [0, 0])
  expect(rows(a, 'SELECT count(*) AS n FROM sync_outbox')).toEqual([{ n: 0 }])
  expect(rows(b, 'SELECT count(*) AS n FROM sync_outbox')).toEqual([{ n: 0 }])
  expect(a.running.status()).toMatchObject({
    site: 'alpha',
    siteNumber: 1,
    hubReachable: true,
    unsentRows: 0,
  })
})
