import {
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream'
import { Kvm } from '@nats-io/kv'
import { Objm } from '@nats-io/obj'
import {
  AuthorizationError,
  ClosedConnectionError,
  connect,
  ConnectionError,
  headers as natsHeaders,
  nanos,
  NoRespondersError,
  PermissionViolationError,
  RequestError,
  TimeoutError,
  type Authenticator,
  type NatsConnection,
} from '@nats-io/transport-node'
import { silentLogger, type Logger } from '../../lib/log.ts'
import { hubAuthenticator } from './hub-credentials.ts'
import { SITE_NAME } from '../../domain/sites.ts'
import type { HubLink, HubResources } from './hub-link.ts'
import { follow } from './hub-follow.ts'
import { putSnapshot, newestSnapshot } from './hub-snapshots.ts'
import { heartbeat, listSites, siteNumber } from './hub-sites.ts'
import {
  hubNames,
  HubRefusal,
  HubUnreachableError,
  type Hub,
  type HubOptions,
  type SiteHeartbeat,
} from './hub-types.ts'

export * from './hub-types.ts'

const SECOND = 1000
const MINUTE = 60 * SECOND
const DAY = 24 * 60 * MINUTE

export const HUB_DEFAULTS = {
  timeoutMs: 5 * SECOND,
  reconnectWaitMs: 2 * SECOND,
  pingIntervalMs: 15 * SECOND,
  keepChangesMs: 30 * DAY,
  replicas: 1,
}

/**
 * How long the stream remembers message ids to drop a resend. It is the second line: applying is
 * idempotent by (site, sequence), so a copy stored twice is still applied once. The window covers
 * what resends quickly: a box killed between the ack and marking the change sent, restarted within
 * minutes, and a hub restart during a publish. An ack lost to a link cut for hours falls outside it;
 * the appliers skip that copy. The hub keeps the window's ids in memory, so it stays minutes long.
 */
export const DUPLICATE_WINDOW_MS = 15 * MINUTE

/** nats-server's max_payload unless its configuration says otherwise. */
const DEFAULT_MAX_PAYLOAD_BYTES = 1024 * 1024

/**
 * Opens the link to the hub and returns at once: it connects in the background and keeps trying
 * forever, since a box may stay cut off for hours and must serve its door meanwhile. Calls made
 * while it is down fail with HubUnreachableError (follow() waits instead).
 */
export function openHub(options: HubOptions): Hub {
  return new NatsHub(options)
}

class NatsHub implements Hub, HubLink {
  readonly site: string
  readonly names: ReturnType<typeof hubNames>
  readonly timeoutMs: number
  readonly #options: HubOptions
  readonly #authenticator: Authenticator | undefined
  readonly #log: Logger
  #nc: NatsConnection | null = null
  #up = false
  #closing = false
  #resources: Promise<HubResources> | null = null
  #whenUp: Array<() => void> = []
  readonly #firstConnection = Promise.withResolvers<void>()
  readonly #running: Promise<void>

  constructor(options: HubOptions) {
    if (!SITE_NAME.test(options.site)) throw new Error(`invalid site name "${options.site}"`)
    if (!SITE_NAME.test(options.organization))
      throw new Error(`invalid organization name "${options.organization}" for the hub`)
    if (options.servers.length === 0) throw new Error('no hub server given')
    this.#options = options
    this.site = options.site
    this.names = hubNames(options.organization)
    this.timeoutMs = options.timeoutMs ?? HUB_DEFAULTS.timeoutMs
    this.#authenticator = hubAuthenticator(options.creds)
    this.#log = options.log ?? silentLogger
    // Nobody has to wait for ready(): a refusal is also what every later call reports.
    this.#firstConnection.promise.catch(() => {})
    this.#running = this.#stayConnected()
  }

  /**
   * One connection at a time, replaced when it closes for good. The client reconnects by itself
   * (without limit, even through authentication errors: a hub's credentials being changed must
   * not leave a box cut off until someone restarts it); this loop only covers the first
   * connection, which the client tries once, and a connection the client gave up on anyway.
   * Wrong credentials on the very first connection are final: that is a configuration to fix.
   */
  async #stayConnected(): Promise<void> {
    const reconnectWaitMs = this.#options.reconnectWaitMs ?? HUB_DEFAULTS.reconnectWaitMs
    const pingIntervalMs = this.#options.pingIntervalMs ?? HUB_DEFAULTS.pingIntervalMs
    let everConnected = false
    // A box cut off for hours tries every few seconds: each new reason is logged, not each attempt.
    let lastFailure = ''
    while (!this.#closing) {
      let nc: NatsConnection
      try {
        nc = await connect({
          servers: this.#options.servers,
          name: `belay-${this.#options.organization}-${this.site}`,
          authenticator: this.#authenticator,
          tls: this.#options.tlsCa ? { caFile: this.#options.tlsCa } : undefined,
          timeout: this.timeoutMs,
          reconnect: true,
          maxReconnectAttempts: -1,
          reconnectTimeWait: reconnectWaitMs,
          ignoreAuthErrorAbort: true,
          pingInterval: pingIntervalMs,
          maxPingOut: 2,
        })
      } catch (error) {
        if (!everConnected && error instanceof AuthorizationError) {
          this.#firstConnection.reject(
            new HubRefusal('credentials_refused', `the hub refused the credentials of site ${this.site}`, {
              cause: error,
            }),
          )
          return
        }
        const failure = error instanceof Error ? error.message : String(error)
        if (failure !== lastFailure) this.#log.warn('cannot reach the hub', { error: failure })
        lastFailure = failure
        await Bun.sleep(reconnectWaitMs)
        continue
      }
      lastFailure = ''
      if (this.#closing) {
        await nc.close()
        break
      }
      everConnected = true
      this.#nc = nc
      this.#setUp(true)
      this.#firstConnection.resolve()
      this.#log.info('connected to the hub', { server: nc.getServer() })
      void this.#watchStatus(nc)
      await nc.closed()
      this.#nc = null
      this.#resources = null
      this.#setUp(false)
    }
    this.#firstConnection.reject(new HubUnreachableError('the hub link was closed'))
  }

  /** reachable() follows the client's own view: down from a disconnect until it reconnects. */
  async #watchStatus(nc: NatsConnection): Promise<void> {
    let lastError = ''
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' || status.type === 'staleConnection') {
        if (this.#up) this.#log.warn('lost the hub', { server: nc.getServer() })
        this.#setUp(false)
      } else if (status.type === 'reconnect') {
        this.#log.info('reached the hub again', { server: status.server })
        this.#setUp(true)
      } else if (status.type === 'error' && status.error.message !== lastError) {
        // Refused credentials or permissions while reconnecting, said once per reason.
        lastError = status.error.message
        this.#log.warn('the hub reported an error', { error: lastError })
      }
    }
  }

  #setUp(up: boolean): void {
    this.#up = up
    if (!up) return
    const waiting = this.#whenUp
    this.#whenUp = []
    for (const resolve of waiting) resolve()
  }

  reachable(): boolean {
    return this.#up
  }

  untilReachable(): Promise<void> {
    if (this.#up) return Promise.resolve()
    return new Promise((resolve) => this.#whenUp.push(resolve))
  }

  async flush(): Promise<void> {
    // A link that drops meanwhile would hold the flush until it reconnects.
    if (this.#nc && this.#up) await Promise.race([this.#nc.flush(), Bun.sleep(this.timeoutMs)])
  }

  ready(): Promise<void> {
    return this.#firstConnection.promise
  }

  /**
   * The stream and buckets, created by the first box that needs them and opened by the others;
   * an existing stream is left as the hub's operator may have changed it (more replicas, a longer
   * keep). Opened once per connection.
   */
  resources(): Promise<HubResources> {
    const nc = this.#nc
    if (!nc || !this.#up) return Promise.reject(new HubUnreachableError('the hub is unreachable'))
    this.#resources ??= this.#open(nc).catch((error: unknown) => {
      this.#resources = null
      throw hubError(error)
    })
    return this.#resources
  }

  async #open(nc: NatsConnection): Promise<HubResources> {
    const replicas = this.#options.replicas ?? HUB_DEFAULTS.replicas
    const jsm = await jetstreamManager(nc, { timeout: this.timeoutMs })
    try {
      await jsm.streams.info(this.names.stream)
    } catch (error) {
      if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound))
        throw error
      await jsm.streams.add({
        name: this.names.stream,
        subjects: [this.names.allChanges],
        // Changes must outlive a hub restart: file storage, replicated on a cluster.
        storage: StorageType.File,
        num_replicas: replicas,
        // Every site reads every change, so the stream keeps them by age, not until consumed; at
        // its limit it drops the oldest, and a box that had not applied them has to join again.
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
        max_age: nanos(this.#options.keepChangesMs ?? HUB_DEFAULTS.keepChangesMs),
        duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      })
    }
    const js = jsm.jetstream()
    // One value per key: the registry of sites and each site's last heartbeat.
    const sites = await new Kvm(js).create(this.names.sitesBucket, {
      history: 1,
      storage: StorageType.File,
      replicas,
    })
    const snapshots = await new Objm(js).create(this.names.snapshotsBucket, {
      storage: StorageType.File,
      replicas,
    })
    return { nc, js, jsm, sites, snapshots }
  }

  maxPayloadBytes(): number {
    return this.#nc?.info?.max_payload ?? DEFAULT_MAX_PAYLOAD_BYTES
  }

  async publish(
    id: string,
    payload: Uint8Array,
    headers: Record<string, string> = {},
  ): Promise<{ streamSequence: number; duplicate: boolean }> {
    if (!/^[0-9][0-9./-]*$/.test(id)) throw new RangeError(`invalid message id ${JSON.stringify(id)}`)
    const { js } = await this.resources()
    const natsHeaderSet = natsHeaders()
    for (const [name, value] of Object.entries(headers)) natsHeaderSet.set(name, value)
    try {
      // The pre-check above fails fast while the link is down; a link that drops after it leaves
      // this request to its timeout rather than waiting for the reconnect.
      const ack = await js.publish(this.names.changesSubject(this.site), payload, {
        msgID: `${this.site}:${id}`,
        headers: natsHeaderSet,
        timeout: this.timeoutMs,
      })
      return { streamSequence: ack.seq, duplicate: ack.duplicate }
    } catch (error) {
      throw hubError(error)
    }
  }

  follow: Hub['follow'] = (fromStreamSequence, apply, options) =>
    follow(this, fromStreamSequence, apply, options)

  siteNumber(databaseId: string): Promise<number> {
    return this.#call(() => siteNumber(this, databaseId))
  }

  putSnapshot(path: string, coversStreamSequence: number): Promise<void> {
    return this.#call(() => putSnapshot(this, path, coversStreamSequence))
  }

  newestSnapshot(toPath: string): Promise<{ coversStreamSequence: number } | null> {
    return this.#call(() => newestSnapshot(this, toPath))
  }

  heartbeat(state: SiteHeartbeat): Promise<void> {
    return this.#call(() => heartbeat(this, state))
  }

  sites() {
    return this.#call(() => listSites(this))
  }

  streamInfo(): Promise<{ firstSequence: number; lastSequence: number }> {
    return this.#call(async () => {
      const { jsm } = await this.resources()
      const { state } = await jsm.streams.info(this.names.stream)
      return {
        firstSequence: state.messages === 0 ? state.last_seq + 1 : state.first_seq,
        lastSequence: state.last_seq,
      }
    })
  }

  async #call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation()
    } catch (error) {
      throw hubError(error)
    }
  }

  async close(): Promise<void> {
    this.#closing = true
    await this.#nc?.close()
    await this.#running
    this.#setUp(false)
  }
}

/**
 * The client's errors in the two kinds the sites engine acts on: unreachable (try again later) and
 * refused (a configuration to fix). Anything else is a bug and stays as it is.
 */
export function hubError(error: unknown): unknown {
  if (error instanceof HubUnreachableError || error instanceof HubRefusal) return error
  // The client wraps what went wrong in a request (a timeout, no responders, a permission) as the
  // cause of a RequestError.
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof PermissionViolationError)
      return new HubRefusal('permission_denied', `the hub refused ${cause.operation} on ${cause.subject}`, {
        cause: error,
      })
  }
  if (
    error instanceof TimeoutError ||
    error instanceof ConnectionError ||
    error instanceof ClosedConnectionError ||
    error instanceof NoRespondersError ||
    error instanceof RequestError
  )
    return new HubUnreachableError(`the hub did not answer: ${error.message}`, { cause: error })
  return error
}
