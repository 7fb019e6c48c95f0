import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { jetstream, jetstreamManager } from '@nats-io/jetstream'
import { connect, type NatsConnection } from '@nats-io/transport-node'
import {
  hubNames,
  HubRefusal,
  HubUnreachableError,
  openHub,
  type Hub,
  type HubOptions,
  type StreamMessage,
} from '../../../src/core/sites/hub.ts'
import { startCuttableProxy, type CuttableProxy } from '../../helpers/cuttable-proxy.ts'
import { siteUsersConfig, startNatsServer, type NatsServer } from '../../helpers/nats.ts'

const encode = (text: string) => new TextEncoder().encode(text)
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

let server: NatsServer
const opened: Array<{ close(): unknown }> = []
let organizations = 0
const workDir = mkdtempSync(join(tmpdir(), 'belay-hub-test-'))

beforeAll(async () => {
  server = await startNatsServer()
})
afterEach(async () => {
  for (const link of opened.splice(0).reverse()) await link.close()
})
afterAll(async () => {
  await server.dispose()
  rmSync(workDir, { recursive: true, force: true })
})

/** Each test works in an organization of its own on the shared server: its own stream and buckets. */
function newOrganization(): string {
  organizations += 1
  return `org-${organizations}`
}

/** A connected hub link; closed after the test. Fast retries keep the tests short. */
async function hubFor(site: string, organization: string, options: Partial<HubOptions> = {}): Promise<Hub> {
  const hub = openHub({
    servers: [server.url],
    site,
    organization,
    reconnectWaitMs: 50,
    timeoutMs: 2000,
    ...options,
  })
  opened.push(hub)
  await hub.ready()
  return hub
}

/** A plain client, for what a box never does: read the stream raw, purge it, publish elsewhere. */
async function rawConnection(
  url: string,
  auth: { user?: string; pass?: string } = {},
): Promise<NatsConnection> {
  const nc = await connect({ servers: [url], ...auth })
  opened.push(nc)
  return nc
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 10_000) throw new Error(`still waiting for ${what}`)
    await Bun.sleep(10)
  }
}

/** Follows from `from` until `count` messages were applied, then stops. */
async function followUntil(hub: Hub, from: number, count: number): Promise<StreamMessage[]> {
  const applied: StreamMessage[] = []
  const follower = hub.follow(from, async (messages) => {
    applied.push(...messages)
  })
  await until(() => applied.length >= count, `${count} messages`)
  await follower.stop()
  return applied
}

describe('publish', () => {
  test('acks each change with its stream sequence; a resend is a duplicate, stored once', async () => {
    const organization = newOrganization()
    const hub = await hubFor('north', organization)
    expect(hub.reachable()).toBe(true)
    expect(await hub.publish('1', encode('one'), { 'Belay-Level': '12' })).toEqual({
      streamSequence: 1,
      duplicate: false,
    })
    expect(await hub.publish('2', encode('two'))).toEqual({ streamSequence: 2, duplicate: false })
    expect(await hub.publish('1', encode('one'), { 'Belay-Level': '12' })).toEqual({
      streamSequence: 1,
      duplicate: true,
    })
    expect(await hub.streamInfo()).toEqual({ firstSequence: 1, lastSequence: 2 })
  })

  test('an empty stream reports its first sequence as last + 1', async () => {
    const hub = await hubFor('north', newOrganization())
    expect(await hub.streamInfo()).toEqual({ firstSequence: 1, lastSequence: 0 })
  })
})

describe('follow', () => {
  test('delivers every site’s changes in stream order, and resumes after stop with the unapplied', async () => {
    const organization = newOrganization()
    const north = await hubFor('north', organization)
    const south = await hubFor('south', organization)
    await north.publish('1', encode('n1'), { 'Belay-Level': '12' })
    await south.publish('1', encode('s1'))
    await north.publish('2', encode('n2'))

    const first = await followUntil(north, 1, 3)
    expect(first.map((m) => [m.streamSequence, m.site, m.subject, decode(m.payload)])).toEqual([
      [1, 'north', `belay.${organization}.changes.north`, 'n1'],
      [2, 'south', `belay.${organization}.changes.south`, 's1'],
      [3, 'north', `belay.${organization}.changes.north`, 'n2'],
    ])
    expect(first[0]!.headers).toEqual({ 'Nats-Msg-Id': 'north:1', 'Belay-Level': '12' })

    // The durable consumer named for the site carried the position: the same one goes on.
    const jsm = await jetstreamManager(await rawConnection(server.url))
    const consumer = await jsm.consumers.info(hubNames(organization).stream, 'north')
    expect([consumer.ack_floor.stream_seq, consumer.num_ack_pending]).toEqual([3, 0])

    await south.publish('2', encode('s2'))
    const second = await followUntil(north, 4, 1)
    expect(second.map((m) => [m.streamSequence, decode(m.payload)])).toEqual([[4, 's2']])
    const after = await jsm.consumers.info(hubNames(organization).stream, 'north')
    expect([after.created, after.ack_floor.stream_seq]).toEqual([consumer.created, 4])
  })

  test('follows from the position given, whatever the durable consumer last acked', async () => {
    const organization = newOrganization()
    const north = await hubFor('north', organization)
    for (let sequence = 1; sequence <= 4; sequence++)
      await north.publish(String(sequence), encode(`n${sequence}`))
    await followUntil(north, 1, 4)
    // A database restored from an older backup has applied only up to 2.
    const again = await followUntil(north, 3, 2)
    expect(again.map((m) => m.streamSequence)).toEqual([3, 4])
  })

  test('a backlog is handed over in order, several received messages to a call, at most applyBatch', async () => {
    const organization = newOrganization()
    const north = await hubFor('north', organization)
    for (let sequence = 1; sequence <= 40; sequence++)
      await north.publish(String(sequence), encode(`n${sequence}`))
    const calls: number[][] = []
    const follower = north.follow(
      1,
      async (messages) => void calls.push(messages.map((message) => message.streamSequence)),
      { applyBatch: 16 },
    )
    await until(() => calls.flat().length === 40, 'the backlog')
    await follower.stop()
    expect(calls.flat()).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
    expect(Math.max(...calls.map((call) => call.length))).toBe(16)
  })

  test('a change whose apply throws is delivered again, before any later one', async () => {
    const organization = newOrganization()
    const north = await hubFor('north', organization)
    for (let sequence = 1; sequence <= 3; sequence++)
      await north.publish(String(sequence), encode(`n${sequence}`))
    const applied: number[] = []
    const errors: string[] = []
    let failuresLeft = 1
    const follower = north.follow(
      1,
      async (messages) => {
        const sequences = messages.map((message) => message.streamSequence)
        if (sequences.includes(2) && failuresLeft-- > 0) throw new Error('disk full')
        applied.push(...sequences)
      },
      { retryDelayMs: 10, onError: (error) => errors.push(error.message) },
    )
    await until(() => applied.at(-1) === 3, 'the third change')
    await follower.stop()
    // The call that threw applied nothing: following started again from its first change.
    expect(applied).toEqual([1, 2, 3])
    expect(errors).toEqual(['disk full'])
    expect(await follower.ended).toBeNull()
  })

  test('refuses a position the stream no longer keeps, and one beyond its end', async () => {
    const organization = newOrganization()
    const north = await hubFor('north', organization)
    for (let sequence = 1; sequence <= 3; sequence++)
      await north.publish(String(sequence), encode(`n${sequence}`))
    const beyond = north.follow(6, async () => {})
    expect(await beyond.ended).toMatchObject({ code: 'stream_behind_site' })

    const jsm = await jetstreamManager(await rawConnection(server.url))
    await jsm.streams.purge(hubNames(organization).stream, { seq: 3 })
    const applied: number[] = []
    const gone = north.follow(2, async (messages) => {
      applied.push(...messages.map((message) => message.streamSequence))
    })
    const refusal = await gone.ended
    expect(refusal).toBeInstanceOf(HubRefusal)
    expect(refusal!.code).toBe('changes_no_longer_kept')
    expect(refusal!.message).toBe(
      `the hub no longer keeps changes 2 to 2 of BELAY_${organization.toUpperCase()}, which site north has not applied: join again from a snapshot`,
    )
    expect(applied).toEqual([])
    expect(await north.streamInfo()).toEqual({ firstSequence: 3, lastSequence: 3 })
  })
})

describe('site numbers and liveness', () => {
  test('the first name to join gets 1, the next 2; a name keeps its number; another database is refused', async () => {
    const organization = newOrganization()
    const north = await hubFor('north', organization)
    const south = await hubFor('south', organization)
    expect(await north.siteNumber('db-north')).toBe(1)
    expect(await south.siteNumber('db-south')).toBe(2)
    expect(await north.siteNumber('db-north')).toBe(1)
    const impostor = await hubFor('north', organization)
    const refusal = await impostor.siteNumber('db-other').catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(HubRefusal)
    expect((refusal as HubRefusal).code).toBe('site_name_taken')
  })

  test('names joining at once get distinct numbers', async () => {
    const organization = newOrganization()
    const hubs = await Promise.all(['east', 'west', 'up', 'down'].map((site) => hubFor(site, organization)))
    const numbers = await Promise.all(hubs.map((hub) => hub.siteNumber(`db-${hub.site}`)))
    expect(numbers.toSorted()).toEqual([1, 2, 3, 4])
    expect(await Promise.all(hubs.map((hub) => hub.siteNumber(`db-${hub.site}`)))).toEqual(numbers)
  })

  test('sites() lists every joined site with its last heartbeat', async () => {
    const organization = newOrganization()
    const north = await hubFor('north', organization)
    const south = await hubFor('south', organization)
    await north.siteNumber('db-north')
    await south.siteNumber('db-south')
    await north.heartbeat({ appliedStreamSequence: 7, unsentChanges: 2, applyingStopped: null })
    const [first, second] = await south.sites()
    expect(first).toEqual({
      site: 'north',
      number: 1,
      lastSeen: expect.any(Date),
      appliedStreamSequence: 7,
      unsentChanges: 2,
      applyingStopped: null,
    })
    expect(second).toEqual({ site: 'south', number: 2, lastSeen: null })
  })
})

describe('snapshots', () => {
  test('the newest snapshot comes back byte for byte with the sequence it covers', async () => {
    const hub = await hubFor('north', newOrganization())
    const target = join(workDir, 'joined.sqlite3')
    expect(await hub.newestSnapshot(target)).toBeNull()

    const older = join(workDir, 'older.sqlite3')
    const newer = join(workDir, 'newer.sqlite3')
    writeFileSync(older, crypto.getRandomValues(new Uint8Array(1000)))
    // Several of the object store's chunks.
    const newerBytes = new Uint8Array(600_000)
    for (let offset = 0; offset < newerBytes.length; offset += 65_536)
      crypto.getRandomValues(newerBytes.subarray(offset, offset + 65_536))
    writeFileSync(newer, newerBytes)
    await hub.putSnapshot(older, 5)
    await hub.putSnapshot(newer, 9)
    expect(await hub.newestSnapshot(target)).toEqual({ coversStreamSequence: 9 })
    expect(Buffer.compare(readFileSync(target), Buffer.from(newerBytes))).toBe(0)
  })
})

describe('the link', () => {
  let proxy: CuttableProxy | undefined
  afterEach(() => proxy?.close())

  test('a cut link fails publishing at once and reports unreachable; restored, it publishes again', async () => {
    proxy = startCuttableProxy({ hostname: '127.0.0.1', port: server.port })
    const hub = await hubFor('north', newOrganization(), { servers: [proxy.url] })
    await hub.publish('1', encode('n1'))
    const follower = hub.follow(2, async () => {})

    proxy.cut()
    await until(() => !hub.reachable(), 'the cut to be noticed')
    const failure = await hub.publish('2', encode('n2')).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(HubUnreachableError)
    expect(await hub.streamInfo().catch((error: unknown) => error)).toBeInstanceOf(HubUnreachableError)
    // Stopping does not wait for the link.
    await follower.stop()
    expect(await follower.ended).toBeNull()

    proxy.restore()
    await until(() => hub.reachable(), 'the link to come back')
    expect(await hub.publish('2', encode('n2'))).toEqual({ streamSequence: 2, duplicate: false })
  })

  test('a follower waits out a cut and goes on where it was', async () => {
    proxy = startCuttableProxy({ hostname: '127.0.0.1', port: server.port })
    const organization = newOrganization()
    const direct = await hubFor('south', organization)
    const north = await hubFor('north', organization, { servers: [proxy.url] })
    const applied: number[] = []
    const follower = north.follow(1, async (messages) => {
      applied.push(...messages.map((message) => message.streamSequence))
    })
    await direct.publish('1', encode('s1'))
    await until(() => applied.length === 1, 'the first change')

    proxy.cut()
    await until(() => !north.reachable(), 'the cut to be noticed')
    await direct.publish('2', encode('s2'))
    await direct.publish('3', encode('s3'))
    proxy.restore()
    await until(() => applied.length === 3, 'the changes published during the cut')
    await follower.stop()
    expect(applied).toEqual([1, 2, 3])
  })

  test('a hub restarted on its store keeps the stream, and the link reconnects by itself', async () => {
    const own = await startNatsServer()
    opened.push({ close: () => own.dispose() })
    const organization = newOrganization()
    const hub = await hubFor('north', organization, { servers: [own.url] })
    const applied: number[] = []
    const follower = hub.follow(1, async (messages) => {
      applied.push(...messages.map((message) => message.streamSequence))
    })
    await hub.publish('1', encode('n1'))
    await until(() => applied.length === 1, 'the first change')

    await own.stop()
    await until(() => !hub.reachable(), 'the hub to be gone')
    expect(await hub.publish('2', encode('n2')).catch((error: unknown) => error)).toBeInstanceOf(
      HubUnreachableError,
    )
    await own.start()
    await until(() => hub.reachable(), 'the link to come back')
    expect(await hub.publish('2', encode('n2'))).toEqual({ streamSequence: 2, duplicate: false })
    await until(() => applied.length === 2, 'the change after the restart')
    await follower.stop()
    expect(applied).toEqual([1, 2])
    expect(await hub.streamInfo()).toEqual({ firstSequence: 1, lastSequence: 2 })
  })

  test('a box that starts while the hub is down connects when it comes up', async () => {
    const own = await startNatsServer()
    opened.push({ close: () => own.dispose() })
    await own.stop()
    const hub = openHub({
      servers: [own.url],
      site: 'north',
      organization: newOrganization(),
      reconnectWaitMs: 50,
    })
    opened.push(hub)
    expect(hub.reachable()).toBe(false)
    expect(await hub.publish('1', encode('n1')).catch((error: unknown) => error)).toBeInstanceOf(
      HubUnreachableError,
    )
    await own.start()
    await hub.ready()
    expect(await hub.publish('1', encode('n1'))).toEqual({ streamSequence: 1, duplicate: false })
  })
})

describe('per-site users (the configuration the README gives)', () => {
  const organization = 'acme'
  let guarded: NatsServer
  beforeAll(async () => {
    guarded = await startNatsServer({
      config: siteUsersConfig({
        organization,
        sites: [
          { site: 'north', password: 'north-secret' },
          { site: 'south', password: 'south-secret' },
        ],
        admin: { user: 'admin', password: 'admin-secret' },
      }),
    })
  })
  afterAll(() => guarded.dispose())

  const siteHub = (site: string, password: string) =>
    hubFor(site, organization, { servers: [guarded.url], creds: `${site}:${password}` })

  test('a site can do everything a box does', async () => {
    const north = await siteHub('north', 'north-secret')
    const south = await siteHub('south', 'south-secret')
    expect(await north.siteNumber('db-north')).toBe(1)
    expect(await south.siteNumber('db-south')).toBe(2)
    await north.publish('1', encode('n1'))
    await south.publish('1', encode('s1'))
    expect((await followUntil(south, 1, 2)).map((m) => m.site)).toEqual(['north', 'south'])
    await south.heartbeat({ appliedStreamSequence: 2, unsentChanges: 0, applyingStopped: null })
    expect((await north.sites()).map((s) => [s.site, s.appliedStreamSequence])).toEqual([
      ['north', undefined],
      ['south', 2],
    ])
    const snapshot = join(workDir, 'guarded.sqlite3')
    writeFileSync(snapshot, crypto.getRandomValues(new Uint8Array(300_000)))
    await north.putSnapshot(snapshot, 2)
    await north.putSnapshot(snapshot, 3)
    await north.putSnapshot(snapshot, 4)
    const downloaded = join(workDir, 'guarded-joined.sqlite3')
    expect(await south.newestSnapshot(downloaded)).toEqual({ coversStreamSequence: 4 })
    expect(Buffer.compare(readFileSync(downloaded), readFileSync(snapshot))).toBe(0)
  })

  test('a site cannot publish on another site’s subject, nor delete the stream', async () => {
    const north = await siteHub('north', 'north-secret')
    const { lastSequence } = await north.streamInfo()
    const asNorth = await rawConnection(guarded.url, { user: 'north', pass: 'north-secret' })
    const forged = await jetstream(asNorth, { timeout: 1000 })
      .publish(`belay.${organization}.changes.south`, encode('forged'), { msgID: 'south:99' })
      .catch((error: unknown) => error)
    expect(String(forged)).toBe(
      `RequestError: Permissions Violation for Publish to "belay.${organization}.changes.south"`,
    )
    const deleted = await (
      await jetstreamManager(asNorth, { timeout: 1000 })
    ).streams
      .delete(hubNames(organization).stream)
      .catch((error: unknown) => error)
    expect(String(deleted)).toBe(
      `RequestError: Permissions Violation for Publish to "$JS.API.STREAM.DELETE.${hubNames(organization).stream}"`,
    )
    expect(await north.streamInfo()).toEqual({ firstSequence: 1, lastSequence })
  })

  test('a box whose --site is not its hub user’s site is refused publishing', async () => {
    const misnamed = await hubFor('east', organization, {
      servers: [guarded.url],
      creds: 'north:north-secret',
    })
    const refusal = await misnamed.publish('1', encode('e1')).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(HubRefusal)
    expect((refusal as HubRefusal).code).toBe('permission_denied')
  })

  test('wrong credentials are refused on the first connection', async () => {
    const hub = openHub({
      servers: [guarded.url],
      site: 'north',
      organization,
      creds: 'north:wrong',
      reconnectWaitMs: 50,
    })
    opened.push(hub)
    const refusal = await hub.ready().catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(HubRefusal)
    expect((refusal as HubRefusal).code).toBe('credentials_refused')
    expect(hub.reachable()).toBe(false)
  })
})
