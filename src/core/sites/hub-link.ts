import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream'
import type { KV } from '@nats-io/kv'
import type { ObjectStore } from '@nats-io/obj'
import type { NatsConnection } from '@nats-io/transport-node'
import type { hubNames } from './hub-types.ts'

/** What one connection has opened on the hub; a new connection opens them again. */
export interface HubResources {
  nc: NatsConnection
  js: JetStreamClient
  jsm: JetStreamManager
  sites: KV
  snapshots: ObjectStore
}

/** What hub-*.ts need from the link: names, the opened resources, the link's state. */
export interface HubLink {
  readonly site: string
  readonly names: ReturnType<typeof hubNames>
  readonly timeoutMs: number
  /** Throws HubUnreachableError while the link is down. */
  resources(): Promise<HubResources>
  reachable(): boolean
  /** Resolves when the link is up (at once if it is). */
  untilReachable(): Promise<void>
  /** Resolves once the hub has processed everything sent so far (acks included). */
  flush(): Promise<void>
}
