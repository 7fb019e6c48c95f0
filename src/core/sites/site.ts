import { prepared } from '../../db/statements.ts'
import { parseHlc, ZERO_HLC } from '../../lib/hlc.ts'
import { Applier } from './applying.ts'
import { attachSite, registerSite, storedSite, type AttachedSite } from './attach.ts'
import { Bookkeeping } from './bookkeeping.ts'
import type { Follower, Hub, SiteStatus } from './hub-types.ts'
import { Publisher } from './publishing.ts'
import type { SiteDeps } from './site-deps.ts'
import { uploadSnapshot } from './snapshots.ts'

/*
 * A box at work as a site: its changes published in order (publishing.ts), every other site's
 * applied in the stream's order (applying.ts), the progress of both written once a second
 * (bookkeeping.ts), its liveness told to the hub. The door never waits for any of it.
 */

export type { SiteDeps } from './site-deps.ts'

/** What the API sees of the box as a site (GET /api/sites/, /healthz, /metrics). */
export interface SiteView {
  /** This box: its site, the hub's reachability, its unsent and applied changes. */
  status(): SiteLocalStatus
  /** Every site the hub knows, with its last heartbeat; null while the hub cannot be asked. */
  hubSites(): Promise<SiteStatus[] | null>
  /** The stream's last sequence (how far every site has to apply); null while the hub cannot be asked. */
  streamLastSequence(): Promise<number | null>
}

export interface RunningSite extends SiteView {
  readonly site: AttachedSite
  /** Publishes what is in the outbox now (and waits for it): a test, or the box stopping. */
  publishNow(): Promise<void>
  /**
   * Resolves once this box has applied the stream as far as it reached when asked (at once while
   * the hub is unreachable: the box serves what it has).
   */
  caughtUp(): Promise<void>
  stop(): Promise<void>
}

export interface SiteLocalStatus {
  site: string
  siteNumber: number
  hubReachable: boolean
  /** Since when the hub has been unreachable (noticed within a heartbeat's interval); null while reachable. */
  hubUnreachableSince: Date | null
  /** Row changes recorded here that the hub has not acknowledged yet, and the oldest one's age. */
  unsentRows: number
  oldestUnsentAgeSeconds: number | null
  appliedStreamSequence: number
  /** Why applying stopped (a change from a newer schema level), or null. */
  applyingStopped: string | null
}

const IDLE_POLL_MS = 50
const HEARTBEAT_MS = 5_000
/** How often the bookkeeping not written with an apply is written (bookkeeping.ts). */
const BOOKKEEPING_MS = 1_000
/**
 * A fresh snapshot a day from every site: a box joining later applies only the changes since, and
 * never needs one the hub no longer keeps (it keeps them 30 days).
 */
const SNAPSHOT_MS = 24 * 3_600_000

/**
 * Makes the database a site of the hub (the first time, the hub numbers it) and starts publishing,
 * following and beating. On a box already registered it needs no hub to start: it serves, and
 * catches up when the hub answers.
 */
export async function startSite(
  deps: SiteDeps,
  hub: Hub,
  want: { site: string; organization: string; dbPath?: string },
): Promise<RunningSite> {
  const wallMs = () => deps.clock.now().getTime()
  let known = storedSite(deps.sqlite)
  if (known && (known.site !== want.site || known.organization !== want.organization))
    throw new Error(
      `this database is site "${known.site}" of "${known.organization}" on the hub, not "${want.site}" of "${want.organization}"`,
    )
  const first = !known
  if (!known) {
    // An existing database becomes the organization's first site; a second one would be another
    // organization's data, which no merge can make one: later boxes join from the hub instead.
    await hub.ready()
    const others = await hub.sites()
    if (others.length > 0)
      throw new Error(
        `the hub's organization "${want.organization}" already has sites (${others.map((s) => s.site).join(', ')}): a box joins it from nothing, with a --db file that does not exist yet`,
      )
    const databaseId = crypto.randomUUID()
    const siteNumber = await hub.siteNumber(databaseId)
    known = { ...want, databaseId, siteNumber }
    registerSite(deps.sqlite, known, ZERO_HLC)
  }
  // Applying stopped at a change from a newer schema level: this start may be the upgrade.
  deps.sqlite.run('UPDATE sync_state SET stopped_reason = NULL WHERE id = 1')
  const site = attachSite(deps.sqlite, wallMs)
  // The first box gives the hub the snapshot every later box joins from.
  if (first && want.dbPath) await uploadSnapshot(want.dbPath, hub)
  return new SiteWorker(deps, hub, site, want.dbPath)
}

class SiteWorker implements RunningSite {
  #stopped = false
  readonly #bookkeeping: Bookkeeping
  readonly #publisher: Publisher
  readonly #applier: Applier
  readonly #follower: Follower
  readonly #beating: ReturnType<typeof setInterval>
  readonly #bookkeepingTimer: ReturnType<typeof setInterval>
  readonly #snapshotting: ReturnType<typeof setInterval> | undefined
  #unreachableSince: Date | null = null

  constructor(
    readonly deps: SiteDeps,
    readonly hub: Hub,
    readonly site: AttachedSite,
    dbPath: string | undefined,
  ) {
    const { applied_stream_sequence: position } = prepared(
      site.sqlite,
      'SELECT applied_stream_sequence FROM sync_state WHERE id = 1',
    ).get() as { applied_stream_sequence: number }
    this.#bookkeeping = new Bookkeeping(site.sqlite, position)
    this.#publisher = new Publisher(hub, site, this.#bookkeeping)
    this.#applier = new Applier(deps, site, this.#bookkeeping, position)
    this.#follower = hub.follow(position + 1, (messages) => this.#applier.apply(messages), {
      onError: (error) => deps.log?.warn('hub: following the stream', { error: error.message }),
    })
    this.#beating = setInterval(() => void this.#beat(), HEARTBEAT_MS)
    this.#bookkeepingTimer = setInterval(() => void this.#writeBookkeeping(), BOOKKEEPING_MS)
    this.#snapshotting =
      dbPath === undefined
        ? undefined
        : setInterval(() => {
            if (!this.hub.reachable()) return
            uploadSnapshot(dbPath, this.hub).catch((error: Error) =>
              deps.log?.warn('hub: snapshot not uploaded', { error: error.message }),
            )
          }, SNAPSHOT_MS)
    void this.#beat()
  }

  status(): SiteLocalStatus {
    const backlog = this.#publisher.backlog()
    const oldestMs = backlog.oldestHlc ? parseHlc(backlog.oldestHlc).ms : null
    return {
      site: this.site.site,
      siteNumber: this.site.siteNumber,
      hubReachable: this.#noteReachability(),
      hubUnreachableSince: this.#unreachableSince,
      unsentRows: backlog.rows,
      oldestUnsentAgeSeconds:
        oldestMs === null
          ? null
          : Math.max(0, Math.round((this.deps.clock.now().getTime() - oldestMs) / 1000)),
      appliedStreamSequence: this.#applier.position,
      applyingStopped: this.#applier.stopped,
    }
  }

  async hubSites(): Promise<SiteStatus[] | null> {
    if (!this.hub.reachable()) return null
    return this.hub.sites().catch(() => null)
  }

  async streamLastSequence(): Promise<number | null> {
    if (!this.hub.reachable()) return null
    return this.hub.streamInfo().then(
      (info) => info.lastSequence,
      () => null,
    )
  }

  publishNow(): Promise<void> {
    return this.#publisher.publishNow()
  }

  async caughtUp(): Promise<void> {
    let target: number
    try {
      target = (await this.hub.streamInfo()).lastSequence
    } catch {
      return
    }
    while (!this.#stopped && this.#applier.position < target && !this.#applier.stopped)
      await Bun.sleep(IDLE_POLL_MS)
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearInterval(this.#beating)
    clearInterval(this.#snapshotting)
    clearInterval(this.#bookkeepingTimer)
    await this.#publisher.stop()
    await this.#follower.stop()
    await this.#writeBookkeeping()
    this.site.detach()
  }

  #writeBookkeeping(): Promise<void> {
    return this.#bookkeeping.write(this.deps, this.#applier.writablePosition())
  }

  /** Whether the hub is reachable now, noting since when it has not been (the desk says so). */
  #noteReachability(): boolean {
    const reachable = this.hub.reachable()
    if (reachable) this.#unreachableSince = null
    else this.#unreachableSince ??= this.deps.clock.now()
    return reachable
  }

  async #beat(): Promise<void> {
    if (this.#stopped || !this.#noteReachability()) return
    const status = this.status()
    await this.hub
      .heartbeat({
        appliedStreamSequence: status.appliedStreamSequence,
        unsentChanges: status.unsentRows,
        applyingStopped: status.applyingStopped,
      })
      .catch(() => {})
  }
}
