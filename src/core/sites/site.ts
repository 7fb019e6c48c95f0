import type { Database as BunDatabase } from 'bun:sqlite'
import type { Db } from '../../db/connection.ts'
import { prepared } from '../../db/statements.ts'
import { syncTransaction } from '../../db/sync-transaction.ts'
import type { Clock } from '../../lib/clock.ts'
import { ZERO_HLC } from '../../lib/hlc.ts'
import type { Logger } from '../../lib/log.ts'
import { applyChange } from './apply.ts'
import { attachSite, registerSite, storedSite, type AttachedSite } from './attach.ts'
import { forgetSent, unsentBacklog, unsentChanges, type Change } from './changes.ts'
import { arrived, packChanges, PartsInWaiting, unpackMessage } from './messages.ts'
import type { Follower, Hub, SiteStatus, StreamMessage } from './hub-types.ts'
import { uploadSnapshot } from './snapshots.ts'

/*
 * A box at work as a site: its changes published in order, every other site's applied in the
 * stream's order, its liveness told to the hub. The door never waits for any of it: publishing
 * reads the outbox and talks to the hub outside any transaction, and each remote change is applied
 * as one short write queued with the door's (group commit), so a backlog yields to the door between
 * changes.
 */

export interface SiteDeps {
  db: Db
  sqlite: BunDatabase
  clock: Clock
  log?: Logger
}

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

/** Headers every change carries; a box refuses a change whose subject and site header disagree. */
export const SITE_HEADER = 'Belay-Site'
export const LEVEL_HEADER = 'Belay-Level'

const PUBLISH_BATCH_ROWS = 500
/**
 * The largest message a site publishes (less if the hub takes less): some thirty check-ins' changes
 * fit one, and a site following the stream holds at most 256 of them received (hub-follow.ts), 8
 * MiB. Every site applies a message's changes APPLY_CHANGES to a commit.
 */
const MESSAGE_BYTES = 32 * 1024
/** Room left in the hub's largest message for the headers. */
const HEADER_ROOM_BYTES = 4 * 1024
/** At most how many changes one commit applies: the door waits for one such commit at most. */
const APPLY_CHANGES = 16
const IDLE_POLL_MS = 50
const RETRY_MS = 1_000
const HEARTBEAT_MS = 5_000
/**
 * How often what is only bookkeeping is written: the outbox rows the hub has acknowledged, and the
 * stream position past this site's own changes coming back. Neither is worth a commit of its own
 * beside every check-in: a crash before the write only costs sending again what the hub already
 * has (a duplicate to it, "already applied" everywhere) and passing over this site's own changes
 * again.
 */
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

/** Where a message of the stream ends: the position past it, and the parts waiting there. */
interface MessageEnd {
  streamSequence: number
  partsAfter: PartsInWaiting
}

class SiteWorker implements RunningSite {
  #stopped = false
  #publishing: Promise<void> = Promise.resolve()
  /** The last outbox row the hub has acknowledged; those up to #forgottenThrough are deleted. */
  #acknowledgedThrough = 0
  #forgottenThrough = 0
  /** The last stream sequence applied or passed over; sync_state holds #writtenPosition. */
  #position: number
  #writtenPosition: number
  /** Parts of another site's change too large for one message, until its last part comes. */
  #parts = new PartsInWaiting()
  readonly #follower: Follower
  readonly #beating: ReturnType<typeof setInterval>
  readonly #bookkeeping: ReturnType<typeof setInterval>
  readonly #snapshotting: ReturnType<typeof setInterval> | undefined
  readonly #loop: Promise<void>
  #applyingStopped: string | null
  #unreachableSince: Date | null = null

  constructor(
    readonly deps: SiteDeps,
    readonly hub: Hub,
    readonly site: AttachedSite,
    dbPath: string | undefined,
  ) {
    this.#applyingStopped = null
    this.#position = this.#writtenPosition = this.#state().applied_stream_sequence
    this.#loop = this.#publishLoop()
    this.#follower = hub.follow(this.#position + 1, (messages) => this.#apply(messages), {
      onError: (error) => deps.log?.warn('hub: following the stream', { error: error.message }),
    })
    this.#beating = setInterval(() => void this.#beat(), HEARTBEAT_MS)
    this.#bookkeeping = setInterval(() => void this.#writeBookkeeping(), BOOKKEEPING_MS)
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
    const backlog = unsentBacklog(this.site.sqlite, this.#acknowledgedThrough)
    const oldestMs = backlog.oldestHlc ? Number(backlog.oldestHlc.slice(0, 15)) : null
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
      appliedStreamSequence: this.#position,
      applyingStopped: this.#applyingStopped,
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

  async publishNow(): Promise<void> {
    this.#publishing = this.#publishing.then(() => this.#publishAll())
    await this.#publishing
  }

  async caughtUp(): Promise<void> {
    let target: number
    try {
      target = (await this.hub.streamInfo()).lastSequence
    } catch {
      return
    }
    while (!this.#stopped && this.#position < target && !this.#applyingStopped) await Bun.sleep(IDLE_POLL_MS)
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearInterval(this.#beating)
    clearInterval(this.#snapshotting)
    clearInterval(this.#bookkeeping)
    await this.#loop
    await this.#follower.stop()
    await this.#writeBookkeeping()
    this.site.detach()
  }

  #state() {
    return prepared(
      this.site.sqlite,
      'SELECT applied_stream_sequence, stopped_reason FROM sync_state WHERE id = 1',
    ).get() as { applied_stream_sequence: number; stopped_reason: string | null }
  }

  async #publishLoop(): Promise<void> {
    while (!this.#stopped) {
      let wait = IDLE_POLL_MS
      try {
        this.#publishing = this.#publishing.then(() => this.#publishAll())
        await this.#publishing
      } catch {
        // The hub is unreachable or did not ack: the outbox keeps every change; try again later.
        this.#publishing = Promise.resolve()
        wait = RETRY_MS
      }
      await Bun.sleep(wait)
    }
  }

  /**
   * Sends the outbox in order, packed into messages (messages.ts), each change forgotten only once
   * the hub has acknowledged the message that completes it, with the bookkeeping (a message the hub
   * is sent again after a crash is acknowledged as a duplicate, or applied already everywhere).
   */
  async #publishAll(): Promise<void> {
    for (;;) {
      const changes = unsentChanges(
        this.site.sqlite,
        this.site.tables,
        this.site,
        PUBLISH_BATCH_ROWS,
        this.#acknowledgedThrough,
      )
      if (changes.length === 0) return
      const headers = { [SITE_HEADER]: this.site.site, [LEVEL_HEADER]: String(this.site.level) }
      const maxBytes = Math.min(MESSAGE_BYTES, this.hub.maxPayloadBytes() - HEADER_ROOM_BYTES)
      for (const message of packChanges(changes, maxBytes)) {
        if (this.#stopped) return
        await this.hub.publish(message.id, message.payload, headers)
        if (message.completesThrough !== null) this.#acknowledgedThrough = message.completesThrough
      }
    }
  }

  /** Writes the bookkeeping not written yet (#acknowledgedThrough, #position) in one commit. */
  async #writeBookkeeping(): Promise<void> {
    const position = this.#writablePosition(this.#position, this.#parts)
    if (this.#acknowledgedThrough === this.#forgottenThrough && position === this.#writtenPosition) return
    const noteWritten = await syncTransaction(this.deps, () =>
      this.#bookkeepingWrites(this.#position, this.#parts),
    )
    noteWritten()
  }

  /**
   * How far the position may be written: not past a change some of whose parts have come but not
   * its last, so that a box restarted gets them all again.
   */
  #writablePosition(position: number, parts: PartsInWaiting): number {
    const earliest = parts.earliest()
    return earliest === null ? position : Math.min(position, earliest - 1)
  }

  /**
   * The bookkeeping's statements, in the caller's write transaction, with `position` as the
   * stream position reached and `parts` the parts waiting there; what it answers notes them
   * written, once that transaction has committed.
   */
  #bookkeepingWrites(position: number, parts: PartsInWaiting): () => void {
    const acknowledged = this.#acknowledgedThrough
    const writable = this.#writablePosition(position, parts)
    if (acknowledged > this.#forgottenThrough) forgetSent(this.site.sqlite, { lastSeq: acknowledged })
    if (writable > this.#writtenPosition)
      prepared(this.site.sqlite, 'UPDATE sync_state SET applied_stream_sequence = ? WHERE id = 1').run(
        writable,
      )
    return () => {
      this.#forgottenThrough = Math.max(this.#forgottenThrough, acknowledged)
      this.#writtenPosition = Math.max(this.#writtenPosition, writable)
      this.#position = Math.max(this.#position, position)
    }
  }

  /**
   * The next messages of the stream: other sites' changes applied, this site's own passed over,
   * and the position moved past the last message whose changes are all applied, with the
   * bookkeeping. At most APPLY_CHANGES changes are applied to a commit (a message may hold many),
   * so the door waits for one short commit at most. Messages that are all this site's own only
   * move the position, written with the bookkeeping later. A change from a newer schema level stops
   * it there: those before it are kept, and applying stops until the box is upgraded.
   */
  async #apply(messages: StreamMessage[]): Promise<void> {
    if (this.#applyingStopped) throw new Error(this.#applyingStopped)
    for (const message of messages) {
      const origin = message.headers[SITE_HEADER]
      if (origin !== message.site)
        throw new Error(`a change on ${message.subject} says it is from site ${origin}: refused`)
    }
    if (messages.every((message) => message.site === this.site.site)) {
      this.#position = messages.at(-1)!.streamSequence
      return
    }
    const context = {
      sqlite: this.site.sqlite,
      tables: this.site.tables,
      level: this.site.level,
      now: this.deps.clock.now().toISOString(),
    }
    const steps = this.#stepsOf(messages)
    let newer: Change | null = null
    for (let start = 0; start < steps.length && !newer;) {
      const { stoppedAt, noteWritten } = await syncTransaction(this.deps, () => {
        let applied = 0
        let reached: MessageEnd | null = null
        let index = start
        // The ends of messages come along after the last change a commit takes: nothing to apply.
        for (; index < steps.length && (applied < APPLY_CHANGES || 'end' in steps[index]!); index++) {
          const step = steps[index]!
          if ('end' in step) {
            reached = step.end
            continue
          }
          if (step.change.level > this.site.level) {
            newer = step.change
            break
          }
          this.site.clock.receive(step.change.hlc)
          applyChange(context, step.change)
          applied += 1
        }
        const noteWritten = reached
          ? this.#bookkeepingWrites(reached.streamSequence, reached.partsAfter)
          : () => {}
        return { stoppedAt: index, noteWritten }
      })
      noteWritten()
      start = stoppedAt
    }
    if (newer) await this.#stopApplying(newer)
    const last = steps.at(-1)
    if (last && 'end' in last) this.#parts = last.end.partsAfter
  }

  /**
   * What the messages bring to apply, in order: each message's whole changes (a change too large
   * for one message once its last part has come), then its end, with the parts waiting after it.
   */
  #stepsOf(messages: StreamMessage[]): ({ change: Change } | { end: MessageEnd })[] {
    let parts = this.#parts
    return messages.flatMap((message) => {
      let changes: Change[] = []
      if (message.site !== this.site.site) {
        const body = unpackMessage(message.payload)
        if ('changes' in body) changes = body.changes.map(arrived)
        else {
          const taken = parts.take(message.site, body, message.streamSequence)
          parts = taken.after
          if (taken.whole === 'out of order')
            this.deps.log?.warn('hub: a part of a change whose first part never came, passed over', {
              site: message.site,
              stream_sequence: message.streamSequence,
            })
          else if (taken.whole) changes = [taken.whole]
        }
      }
      return [
        ...changes.map((change) => ({ change })),
        { end: { streamSequence: message.streamSequence, partsAfter: parts } },
      ]
    })
  }

  async #stopApplying(newer: Change): Promise<never> {
    const reason = `a change from site ${newer.site} needs schema level ${newer.level}; this box is at ${this.site.level}: upgrade it`
    this.#applyingStopped = reason
    await syncTransaction(this.deps, () =>
      prepared(this.site.sqlite, 'UPDATE sync_state SET stopped_reason = ? WHERE id = 1').run(reason),
    )
    throw new Error(reason)
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
