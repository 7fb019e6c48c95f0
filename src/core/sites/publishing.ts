import type { Bookkeeping } from './bookkeeping.ts'
import type { AttachedSite } from './attach.ts'
import { unsentBacklog, unsentChanges } from './changes.ts'
import type { Hub } from './hub-types.ts'
import { LEVEL_HEADER, packChanges, SITE_HEADER } from './messages.ts'

/*
 * Publishing: the site's outbox sent to the hub in order, packed into messages (messages.ts), from
 * outside any transaction, so the door never waits for it.
 */

const PUBLISH_BATCH_ROWS = 500
/**
 * The largest message a site publishes (less if the hub takes less): some thirty check-ins' changes
 * fit one, and a site following the stream holds at most 256 of them received (hub-follow.ts), 8
 * MiB. Every site applies a message's changes 16 to a commit (applying.ts).
 */
const MESSAGE_BYTES = 32 * 1024
/** Room left in the hub's largest message for the headers. */
const HEADER_ROOM_BYTES = 4 * 1024
const IDLE_POLL_MS = 50
const RETRY_MS = 1_000

export class Publisher {
  #stopped = false
  #publishing: Promise<void> = Promise.resolve()
  readonly #loop: Promise<void>

  constructor(
    private readonly hub: Hub,
    private readonly site: AttachedSite,
    private readonly bookkeeping: Bookkeeping,
  ) {
    this.#loop = this.#publishLoop()
  }

  /** How many row changes wait to be sent, and since when: the acknowledged ones are sent. */
  backlog(): { rows: number; oldestHlc: string | null } {
    return unsentBacklog(this.site.sqlite, this.bookkeeping.acknowledgedThrough)
  }

  /** Publishes what is in the outbox now, and waits for it. */
  async publishNow(): Promise<void> {
    this.#publishing = this.#publishing.then(() => this.#publishAll())
    await this.#publishing
  }

  async stop(): Promise<void> {
    this.#stopped = true
    await this.#loop
  }

  async #publishLoop(): Promise<void> {
    while (!this.#stopped) {
      let wait = IDLE_POLL_MS
      try {
        await this.publishNow()
      } catch {
        // The hub is unreachable or did not ack: the outbox keeps every change; try again later.
        this.#publishing = Promise.resolve()
        wait = RETRY_MS
      }
      await Bun.sleep(wait)
    }
  }

  /**
   * Sends the outbox in order, each change forgotten only once the hub has acknowledged the
   * message that completes it, with the bookkeeping (a message the hub is sent again after a crash
   * is acknowledged as a duplicate, or applied already everywhere).
   */
  async #publishAll(): Promise<void> {
    for (;;) {
      const changes = unsentChanges(
        this.site.sqlite,
        this.site.tables,
        this.site,
        PUBLISH_BATCH_ROWS,
        this.bookkeeping.acknowledgedThrough,
      )
      if (changes.length === 0) return
      const headers = { [SITE_HEADER]: this.site.site, [LEVEL_HEADER]: String(this.site.level) }
      const maxBytes = Math.min(MESSAGE_BYTES, this.hub.maxPayloadBytes() - HEADER_ROOM_BYTES)
      for (const message of packChanges(changes, maxBytes)) {
        if (this.#stopped) return
        await this.hub.publish(message.id, message.payload, headers)
        if (message.completesThrough !== null) this.bookkeeping.acknowledgedThrough = message.completesThrough
      }
    }
  }
}
