/**
 * The box's link to the hub (NATS JetStream), as the sites engine sees it: publish a change, follow
 * the organization's stream, the site's number, snapshots, liveness. Transport only: it knows
 * subjects, streams and buckets, never tables. The implementation is hub.ts.
 */

import type { Logger } from '../../lib/log.ts'

export interface HubOptions {
  /** nats://host:port (several for a cluster); tls:// asks for TLS. */
  servers: string[]
  /** This box's site name: it publishes on its own subject and follows with a consumer of this name. */
  site: string
  /** Names the stream, subjects and buckets: one organization's boxes share them. */
  organization: string
  /**
   * `user:password`, or the path of a file holding a NATS creds file (user JWT and seed) or an
   * nkey seed. Without it the box connects anonymously.
   */
  creds?: string
  /** A PEM file of the CA that signed the hub's certificate; it implies TLS. */
  tlsCa?: string
  /**
   * Copies of the stream and buckets the hub keeps: 1 for a single server, 3 for a three-server
   * cluster. Only used when this box is the one that creates them.
   */
  replicas?: number
  /** How long the hub keeps changes: a box away longer has to join again from a snapshot. */
  keepChangesMs?: number
  /** How long one request to the hub (a publish's ack, an API call) may take before it fails. */
  timeoutMs?: number
  /** The wait between attempts to reach the hub again. */
  reconnectWaitMs?: number
  /**
   * How often the link pings the hub; two unanswered pings mark it unreachable. This is what notices a
   * WAN that went silent without closing the connection.
   */
  pingIntervalMs?: number
  /** Where the link says it lost or regained the hub, and why it cannot connect. */
  log?: Logger
}

/** One change as read from the stream. */
export interface StreamMessage {
  streamSequence: number
  /** The site whose subject it was published on (the last token of `subject`). */
  site: string
  subject: string
  headers: Record<string, string>
  payload: Uint8Array
}

export interface FollowOptions {
  /** Told of every failure the follower recovers from by itself (an apply that threw, a lost link). */
  onError?: (error: Error) => void
  /** The wait before following again after a failure. */
  retryDelayMs?: number
  /** Messages the hub may hand over before the first is acked; they are applied in order. */
  batch?: number
  /** At most how many messages already received one call of `apply` is given. */
  applyBatch?: number
  /**
   * How long nothing may arrive before the follower asks the hub whether a change is due; a change
   * due at two such asks in a row, and still not handed out, is a stall: following starts again.
   */
  stallCheckMs?: number
}

export interface Follower {
  /** Stops after the change being applied (if any); call it outside `apply`, which it waits for. */
  stop(): Promise<void>
  /**
   * Settles when the follower ends: null after stop(), or the HubRefusal that ended it (changes the
   * hub no longer keeps, or a stream behind this box), which following again cannot cure.
   */
  ended: Promise<HubRefusal | null>
}

export interface SiteHeartbeat {
  /** The last stream sequence this site has applied (its own changes count as applied). */
  appliedStreamSequence: number
  /** Changes recorded at this site that the hub has not acknowledged yet. */
  unsentChanges: number
  /** Why this site stopped applying (a change from a newer schema level), or null. */
  applyingStopped: string | null
}

export interface SiteStatus extends Partial<SiteHeartbeat> {
  site: string
  number: number
  /** When the hub stored the site's last heartbeat, by the hub's clock; null before its first. */
  lastSeen: Date | null
}

export interface Hub {
  readonly site: string
  /**
   * Publishes a message of this site's changes, `id` naming which (messages.ts), and resolves after
   * JetStream's ack. The message id is `<site>:<id>`, so a resend inside the stream's duplicate
   * window is acked as a duplicate (with the first copy's stream sequence) instead of being stored
   * twice. Fails at once with HubUnreachableError while the hub is unreachable, and after
   * `timeoutMs` without an ack.
   */
  /** The largest message the hub takes (its max_payload; 1 MiB, nats-server's default, until connected). */
  maxPayloadBytes(): number
  publish(
    id: string,
    payload: Uint8Array,
    headers?: Record<string, string>,
  ): Promise<{ streamSequence: number; duplicate: boolean }>
  /**
   * Reads the stream in order from `fromStreamSequence` (every site's changes, this one's too),
   * through a durable pull consumer named for the site, and calls `apply` with the next messages in
   * order (those already received, up to `applyBatch`); they are acked only after `apply` resolves.
   * When `apply` throws, following starts again from its first message after a pause. Survives a
   * lost link: it waits and goes on.
   */
  follow(
    fromStreamSequence: number,
    apply: (messages: StreamMessage[]) => Promise<void>,
    options?: FollowOptions,
  ): Follower
  /**
   * The site's number, allocated by the hub the first time the name joins and the same ever after.
   * `databaseId` names the database the site runs on: the name is refused (HubRefusal
   * 'site_name_taken') to a caller with another.
   */
  siteNumber(databaseId: string): Promise<number>
  /** Uploads a snapshot file covering the stream up to `coversStreamSequence`. */
  putSnapshot(path: string, coversStreamSequence: number): Promise<void>
  /** Downloads the newest snapshot to `toPath`; null when the hub holds none. */
  newestSnapshot(toPath: string): Promise<{ coversStreamSequence: number } | null>
  /** Records this site's liveness on the hub. */
  heartbeat(state: SiteHeartbeat): Promise<void>
  /** Every site that has joined, with its last heartbeat. */
  sites(): Promise<SiteStatus[]>
  /** The stream's first and last sequence (first is last + 1 when it is empty). */
  streamInfo(): Promise<{ firstSequence: number; lastSequence: number }>
  /** Whether the link to the hub is up now. */
  reachable(): boolean
  /** Resolves once connected the first time; rejects when the hub refuses the credentials. */
  ready(): Promise<void>
  close(): Promise<void>
}

/** The hub cannot be reached now (cut off, timed out): a transient state, try again later. */
export class HubUnreachableError extends Error {
  override name = 'HubUnreachableError'
}

/** The hub answered, and the answer is no: retrying the same thing will not help. */
export class HubRefusal extends Error {
  override name = 'HubRefusal'
  constructor(
    readonly code:
      | 'credentials_refused'
      | 'permission_denied'
      | 'site_name_taken'
      | 'changes_no_longer_kept'
      | 'stream_behind_site',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

/** The NATS names of one organization's stream, subjects and buckets. */
export function hubNames(organization: string) {
  const upper = organization.toUpperCase()
  return {
    stream: `BELAY_${upper}`,
    changesSubject: (site: string) => `belay.${organization}.changes.${site}`,
    allChanges: `belay.${organization}.changes.>`,
    sitesBucket: `BELAY_${upper}_SITES`,
    snapshotsBucket: `BELAY_${upper}_SNAPSHOTS`,
  }
}
